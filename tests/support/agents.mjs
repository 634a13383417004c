// Helpers for the tests that drive the real agent CLIs (Claude Code, Codex, opencode;
// installed by `make agents` into tests/agents, found through WHARF_AGENT_BIN_DIR): a
// daemon whose PATH holds them, with a temporary HOME and workspace of its own; homes
// prepared the way a machine where Claude Code has been used looks; a realistic Claude
// Code transcript; and the leader process of a session as /proc shows it.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startDaemon, waitFor } from './daemon.mjs';
import { cmdline, environOf, runWharf, stopDaemon } from './ws_client.mjs';

export const AGENTS = ['claude', 'codex', 'opencode'];

// What Claude Code's main screen shows once it is ready for a message, offline: the foot
// line is wharf's status line (`wharf status-line`, docs/agents.md), which begins with
// the model and always carries the conversation's cost, $0.00 with no request made.
export const CLAUDE_MAIN_SCREEN = '$0.00';

export const agentBinDir = resolve(process.env.WHARF_AGENT_BIN_DIR
  ?? fileURLToPath(new URL('../agents/node_modules/.bin/', import.meta.url)));

// Throws (the test fails, never skips) unless the three agent CLIs are installed: `make
// check` installs them, so their absence is a broken setup, not an optional feature.
export function requireAgents() {
  const missing = AGENTS.filter((name) => !existsSync(join(agentBinDir, name)));
  if (missing.length) {
    throw new Error(`the agent CLIs ${missing.join(', ')} are not in ${agentBinDir} `
      + '(WHARF_AGENT_BIN_DIR): run `make agents` (make check does it) to install them');
  }
}

// What every agent session of these tests is given through the config's machine layer:
// no self-update of the pinned binaries (a networked machine would otherwise let them
// replace themselves under tests/agents).
const NO_UPDATES = 'DISABLE_AUTOUPDATER = "1"\nOPENCODE_DISABLE_AUTOUPDATE = "1"\n';

// A temporary root holding `home` (empty) and `workspace` (with `dirs` made inside it).
// When the test ends, the daemons started on it stop first (each must exit 0), then the
// root is removed: no agent is left writing into a home that is being deleted. Paths are
// resolved (no symlinks), as the agents see them.
export function agentSandbox(t, { dirs = [] } = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'wharf-agents-')));
  const daemons = [];
  t.after(async () => {
    const stopped = await Promise.allSettled(daemons.map((d) => stopDaemon(d, 30000)));
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    const failed = stopped.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  });
  const home = join(root, 'home');
  const workspace = join(root, 'ws');
  mkdirSync(home);
  mkdirSync(workspace);
  const paths = {};
  for (const dir of dirs) {
    paths[dir] = join(workspace, dir);
    mkdirSync(paths[dir], { recursive: true });
  }
  const config = join(root, 'config.toml');
  writeFileSync(config, `[env]\n${NO_UPDATES}`);
  return { root, home, workspace, config, dirs: paths, daemons };
}

// A daemon started with the agents on its PATH and the sandbox's HOME (which the sessions
// and the conversation probe use), serving the sandbox's workspace. Stopped (and checked
// to exit 0) when the test ends, before the sandbox is removed.
export async function agentDaemon(box, { args = [], env = {} } = {}) {
  const d = await startDaemon({
    args: ['--config', box.config, '--workspace', box.workspace, ...args],
    env: { PATH: `${agentBinDir}:${process.env.PATH}`, HOME: box.home, ...env },
  });
  box.daemons.push(d);
  return d;
}

// `wharf ARGS --state-dir <the daemon's>`.
export function wharfOf(d, args, opts) {
  return runWharf([...args, '--state-dir', d.stateDir], opts);
}

export async function listSessions(d) {
  const r = await wharfOf(d, ['ls', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// `wharf new --agent NAME --cwd DIR ...`: the new session's row of `wharf ls --json`.
export async function startAgent(d, name, cwd, extra = []) {
  const r = await wharfOf(d, ['new', '--agent', name, '--cwd', cwd, ...extra]);
  assert.equal(r.code, 0, `wharf new --agent ${name}: ${r.stderr}`);
  const id = Number(r.stdout.trim());
  const row = (await listSessions(d)).find((s) => s.id === id);
  assert.ok(row, `session ${id} (${name}) is listed right after it started`);
  return row;
}

// The daemon's screen model of a session (`wharf read-screen ID --json`), or null once the
// session is gone.
export async function readScreen(d, id) {
  const r = await wharfOf(d, ['read-screen', String(id), '--json']);
  if (r.code !== 0) return null;
  const screen = JSON.parse(r.stdout);
  return { ...screen, text: screen.lines.join('\n') };
}

// Waits until every pattern (string or RegExp) is on the session's screen; resolves with
// the screen. Fails at once if the session ends first (saying how, from `wharf history`),
// and on timeout with the last screen read.
export async function waitForScreen(d, id, patterns, { timeout = 30000, what } = {}) {
  let last = null;
  const matches = (text) => patterns.every((p) => (typeof p === 'string' ? text.includes(p) : p.test(text)));
  const wanted = what ?? `${patterns.join(' and ')} on session ${id}`;
  try {
    return await waitFor(async () => {
      const screen = await readScreen(d, id);
      if (!screen) throw new Error(`session ${id} ended before showing ${wanted}: ${await howItEnded(d, id)}`);
      last = screen;
      return matches(last.text) ? last : null;
    }, { timeout, interval: 250, what: wanted });
  } catch (e) {
    e.message += `\nlast screen of session ${id}:\n${last ? last.text : '(none read)'}`;
    throw e;
  }
}

// A session's row of `wharf history --json`, as one line (status, exit code, signal).
export async function howItEnded(d, id) {
  const r = await wharfOf(d, ['history', '--json']);
  if (r.code !== 0) return `wharf history failed: ${r.stderr}`;
  const row = JSON.parse(r.stdout).find((x) => x.id === id);
  return row ? JSON.stringify({ status: row.status, exit_code: row.exit_code, signal: row.signal }) : 'not in the history';
}

// The session leader's argv, working directory and environment. An agent's entry point may
// re-exec itself, so argv is read again each time.
export function leader(pid) {
  return {
    argv: cmdline(pid),
    cwd: (() => { try { return readlinkSync(`/proc/${pid}/cwd`); } catch { return null; } })(),
    env: (() => { try { return environOf(pid); } catch { return []; } })(),
  };
}

export function isAlive(pid) {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

// Every live process whose environment says it runs with `home` as HOME (the daemon's and
// all its sessions' programs, and anything they left behind), with its argv.
export function processesWithHome(home) {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let env;
    try { env = environOf(Number(name)); } catch { continue; }
    if (!env.includes(`HOME=${home}`)) continue;
    const argv = cmdline(Number(name));
    if (argv && argv.length) out.push({ pid: Number(name), argv });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Claude Code's files

// Claude Code's folder for a directory's transcripts (~/.claude/projects/<name>): every
// UTF-16 unit that is not an ASCII letter or digit becomes '-' (the paths of these tests
// are far below the 200-character cut; src/app/conversation_probe.cpp has the rest).
export function claudeProjectDirName(directory) {
  assert.ok(directory.length <= 200, 'claudeProjectDirName: long paths are not handled here');
  return directory.replace(/[^A-Za-z0-9]/g, '-');
}

// ~/.claude.json as Claude Code leaves it once it has been used: onboarding done (offline,
// a fresh Claude cannot finish onboarding: it stops at "Unable to connect to Anthropic
// services" and exits), a theme chosen, and `trusted` directories accepted.
export function prepareClaudeHome(home, { trusted = [] } = {}) {
  const projects = Object.fromEntries(trusted.map((dir) => [dir, { hasTrustDialogAccepted: true }]));
  writeFileSync(join(home, '.claude.json'), JSON.stringify({
    hasCompletedOnboarding: true, theme: 'dark', numStartups: 3, projects,
  }, null, 2));
}

// A finished Claude Code conversation in `directory`, written where Claude Code 2.1 keeps
// it (~/.claude/projects/<folder>/<session id>.jsonl): a user message containing `marker`
// and the assistant's answer, in Claude's own transcript format. `claude --continue` in
// that directory opens it and shows both. Returns { file, sessionId }.
export function writeClaudeTranscript(home, directory, marker) {
  const folder = join(home, '.claude', 'projects', claudeProjectDirName(directory));
  mkdirSync(folder, { recursive: true });
  const sessionId = randomUUID();
  const userUuid = randomUUID();
  const assistantUuid = randomUUID();
  const common = { isSidechain: false, userType: 'external', cwd: directory, sessionId, version: '2.1.197', gitBranch: '' };
  const lines = [
    { parentUuid: null, ...common, type: 'user', message: { role: 'user', content: `Please repeat ${marker}` }, uuid: userUuid, timestamp: '2026-11-29T10:00:00.000Z' },
    {
      parentUuid: userUuid, ...common,
      message: {
        id: `msg_01${randomBytes(10).toString('hex')}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: `Repeated: ${marker}` }], stop_reason: 'end_turn', stop_sequence: null,
        usage: { input_tokens: 14, output_tokens: 9 },
      },
      requestId: `req_01${randomBytes(10).toString('hex')}`, type: 'assistant', uuid: assistantUuid, timestamp: '2026-11-29T10:00:03.000Z',
    },
  ];
  const file = join(folder, `${sessionId}.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return { file, sessionId };
}
