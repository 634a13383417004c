// An agent's own permission dialog as a decision (docs/agents.md, "Permission dialogs"):
// a stand-in named `claude` on the daemon's PATH (so the catalog's built-in claude entry
// runs it) draws Claude Code's dialog and reads one key. The dialog becomes a pending
// decision with source "prompt"; approving types the dialog's own "1", denying its Esc;
// a dialog answered at the terminal withdraws its decision and nothing more is typed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { runWharf, stopDaemon } from '../support/ws_client.mjs';

const DIALOG = [
  '╭──────────────────────────────────────────────╮',
  '│ Bash command                                 │',
  '│                                              │',
  '│   git push origin main                       │',
  '│                                              │',
  '│ Do you want to proceed?                      │',
  '│ ❯ 1. Yes                                     │',
  '│   2. No, and tell Claude what to do differently (esc) │',
  '╰──────────────────────────────────────────────╯',
].join('\\n');

function setup(t) {
  const root = mkdtempSync(join(tmpdir(), 'wharf-prompts-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const bin = join(root, 'bin');
  const workspace = join(root, 'ws');
  mkdirSync(bin);
  mkdirSync(workspace);
  // Draws the dialog, reads one key, says which (as octal, so Esc is visible), waits.
  writeFileSync(join(bin, 'claude'), `#!/bin/sh
printf '${DIALOG}\\n'
stty raw -echo
k=$(dd bs=1 count=1 2>/dev/null | od -An -c | tr -d ' ')
stty sane
printf '\\033[2J\\033[Hchose[%s]\\n' "$k"
exec sleep 600
`);
  chmodSync(join(bin, 'claude'), 0o755);
  return { root, bin, workspace };
}

async function daemonFor(t, s) {
  const d = await startDaemon({ args: ['--workspace', s.workspace], env: { PATH: `${s.bin}:${process.env.PATH}` } });
  t.after(() => stopDaemon(d));
  return d;
}

const wharf = (d, args) => runWharf([...args, '--state-dir', d.stateDir]);

async function pending(d) {
  const r = await wharf(d, ['decisions', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const parsed = JSON.parse(r.stdout);
  return Array.isArray(parsed) ? parsed : parsed.decisions;
}

async function screen(d, id) {
  const r = await wharf(d, ['read-screen', '-t', id]);
  return r.stdout;
}

async function started(d) {
  const r = await wharf(d, ['new', '--agent', 'claude']);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim();
}

test("claude's dialog becomes a decision; approving types its 1, denying its Esc", { timeout: 90000 }, async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  for (const [answer, typed] of [['approve', '1'], ['deny', '033']]) {
    const id = await started(d);
    let list = [];
    await waitFor(async () => (list = (await pending(d)).filter((x) => String(x.session) === id)).length === 1,
      { timeout: 15000, interval: 200, what: 'the dialog as a decision' });
    assert.equal(list[0].source, 'prompt');
    assert.match(list[0].what, /Bash command: git push origin main/);
    const r = await wharf(d, ['decisions', answer, String(list[0].id)]);
    assert.equal(r.code, 0, r.stderr);
    await waitFor(async () => (await screen(d, id)).includes(`chose[${typed}]`),
      { timeout: 10000, interval: 200, what: `the ${answer} key typed` });
    await waitFor(async () => (await pending(d)).every((x) => String(x.session) !== id), { what: 'the decision gone' });
  }
});

test('a dialog answered at the terminal withdraws its decision; nothing more is typed', { timeout: 60000 }, async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const id = await started(d);
  let list = [];
  await waitFor(async () => (list = await pending(d)).length === 1, { timeout: 15000, interval: 200, what: 'the decision' });
  assert.equal((await wharf(d, ['send-keys', '-t', id, '1'])).code, 0);
  await waitFor(async () => (await screen(d, id)).includes('chose[1]'), { what: 'the key typed at the terminal' });
  await waitFor(async () => (await pending(d)).length === 0, { timeout: 5000, interval: 200, what: 'the decision withdrawn' });
  const late = await wharf(d, ['decisions', 'approve', String(list[0].id)]);
  assert.notEqual(late.code, 0, 'a withdrawn decision cannot be answered');
});
