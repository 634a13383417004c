// The real agents in a sandbox (docs/sandbox.md): Claude Code, Codex and opencode started
// with `[sessions] sandbox = true` draw their first screen, each with its own API hosts as
// its allow-list and its own home paths writable, and their tries to reach anything else
// are refused by the egress proxy (this machine has no network, so every name fails: the
// refusals say which hosts they tried).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  agentDaemon, agentSandbox, CLAUDE_MAIN_SCREEN, prepareClaudeHome, requireAgents, startAgent, waitForScreen,
} from '../support/agents.mjs';

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', 'true']).status === 0;

test('claude, codex and opencode start in a sandbox and draw their first screen', { skip: !bwrapWorks && 'bubblewrap cannot run here', timeout: 180000 }, async (t) => {
  requireAgents();
  const box = agentSandbox(t, { dirs: ['apps/claude', 'apps/codex', 'apps/opencode'] });
  appendFileSync(box.config, '\n[sessions]\nsandbox = true\n');
  prepareClaudeHome(box.home, { trusted: [box.dirs['apps/claude']] });
  const d = await agentDaemon(box);

  const claude = await startAgent(d, 'claude', box.dirs['apps/claude']);
  const codex = await startAgent(d, 'codex', box.dirs['apps/codex']);
  const opencode = await startAgent(d, 'opencode', box.dirs['apps/opencode']);
  for (const row of [claude, codex, opencode]) {
    assert.equal(row.capabilities.sandboxed, true, `${row.entry} is sandboxed`);
    assert.equal(row.capabilities.network, 'allow');
    assert.ok(row.capabilities.writable.includes(box.workspace), `${row.entry} writes the workspace`);
  }
  assert.ok(claude.capabilities.allow.includes('api.anthropic.com:443'), claude.capabilities.allow.join());
  assert.ok(claude.capabilities.writable.includes(join(box.home, '.claude')));
  assert.ok(codex.capabilities.allow.includes('api.openai.com:443'), codex.capabilities.allow.join());
  assert.ok(codex.capabilities.writable.includes(join(box.home, '.codex')));

  await waitForScreen(d, claude.id, ['Claude Code', CLAUDE_MAIN_SCREEN], { timeout: 60000 });
  await waitForScreen(d, codex.id, [/Codex/], { timeout: 60000 });
  await waitForScreen(d, opencode.id, [/Ask anything|opencode/i], { timeout: 90000 });
  // Their directories in HOME were there for them to write (made when missing).
  assert.ok(existsSync(join(box.home, '.codex')), 'codex kept its home directory on the machine');
});
