// Decisions routed to the user (docs/sandbox.md, "Decisions"), through the real flow: a
// sandboxed shell under the real bubblewrap runs `git push` to a local bare repository;
// the guard turns it into a pending decision that every door shows the same way (the
// page's `decisions` message, `wharf decisions`, /api/v1, MCP's list_decisions), that is
// answered from one door (the page's `decide`, the CLI, REST), runs once when approved,
// never reaches the remote when denied, expires when nobody answers, and is in the audit
// (`wharf history --json`) with who answered. Refusals: a second answer, an unknown id, a
// bad field, a program inside a session answering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { openWs, runWharf, stopDaemon, httpGet } from '../support/ws_client.mjs';

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', 'true']).status === 0;
const skip = !bwrapWorks && 'bubblewrap cannot run here';

const git = (args, cwd) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

// A workspace holding a clone whose origin is a bare repository beside it.
function setup(t, extraConfig = '') {
  const root = mkdtempSync(join(tmpdir(), 'wharf-decisions-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const workspace = join(root, 'ws');
  mkdirSync(workspace);
  const remote = join(workspace, 'remote.git');
  git(['init', '-q', '--bare', '-b', 'main', remote], root);
  const repo = join(workspace, 'repo');
  git(['init', '-q', '-b', 'main', repo], root);
  git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'first'], repo);
  git(['remote', 'add', 'origin', remote], repo);
  const config = join(root, 'config.toml');
  writeFileSync(config, `[sessions]\nsandbox = true\n${extraConfig}\n`);
  return { root, workspace, remote, repo, config };
}

async function daemonFor(t, s) {
  const d = await startDaemon({ args: ['--config', s.config, '--workspace', s.workspace] });
  t.after(() => stopDaemon(d));
  return d;
}

const wharf = (d, args, opts) => runWharf([...args, '--state-dir', d.stateDir], opts);

async function api(d, method, path, body) {
  const res = await fetch(`http://127.0.0.1:${d.port}/api/v1/${path}`, {
    method,
    headers: { 'X-Wharf-Key': d.key, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

async function newShell(d) {
  const r = await wharf(d, ['new', '--shell', 'bash']);
  assert.equal(r.code, 0, r.stderr);
  return Number(r.stdout.trim());
}

// Types a line into the session (the guard blocks until a decision, so no `wharf run`).
async function type(d, id, line) {
  const r = await wharf(d, ['send-text', '-t', String(id), '--submit', line]);
  assert.equal(r.code, 0, r.stderr);
}

async function pendingList(d) {
  const r = await wharf(d, ['decisions', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

async function waitForDecision(d, count = 1) {
  let list = [];
  await waitFor(async () => {
    list = await pendingList(d);
    return list.length >= count;
  }, { timeout: 20000, interval: 100, what: `${count} pending decision(s)` });
  return list;
}

const remoteHead = (s) => spawnSync('git', ['rev-parse', '--verify', '-q', 'refs/heads/main'], { cwd: s.remote, encoding: 'utf8' }).stdout.trim();

async function screen(d, id) {
  const r = await wharf(d, ['read-screen', '-t', String(id)]);
  return r.stdout;
}

test('a guarded push becomes one decision every door shows; a denial from the page never reaches the remote; an approval from the CLI runs it once', { skip, timeout: 120000 }, async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const ws = await openWs(d);
  t.after(() => ws.close());
  // A window hears the list when it connects, empty or not.
  const first = await ws.waitForMessage('decisions');
  assert.deepEqual(first.decisions, []);

  const id = await newShell(d);
  await type(d, id, `cd ${s.repo} && git push origin main; echo "push-status=$?"`);
  const [pending] = await waitForDecision(d);
  assert.equal(pending.session, id);
  assert.match(pending.what, /^git push/);
  assert.deepEqual(pending.argv, ['git', 'push', 'origin', 'main']);
  assert.equal(pending.cwd, s.repo);
  assert.equal(pending.source, 'guard');
  assert.equal(typeof pending.session_name, 'string');
  assert.ok(pending.session_name.length > 0);
  assert.ok(pending.expires_at_ms > pending.opened_at_ms);
  assert.equal(remoteHead(s), '', 'nothing reached the remote yet');

  // The same object through the page, REST and the session filter.
  const shown = await ws.waitForMessage((m) => m.type === 'decisions' && m.decisions.length === 1);
  assert.deepEqual(shown.decisions[0], pending);
  const rest = await api(d, 'GET', 'decisions');
  assert.equal(rest.status, 200);
  assert.deepEqual(rest.body.decisions, [pending]);
  assert.equal(rest.body.expiry_seconds, 600);
  assert.deepEqual((await api(d, 'GET', `sessions/${id}/decisions`)).body.decisions, [pending]);
  assert.equal((await api(d, "GET", `sessions/${id + 100}/decisions`)).status, 404);
  const mcp = await httpGet(d, '/mcp', {
    method: 'POST',
    headers: { 'X-Wharf-Key': d.key, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_decisions', arguments: {} } }),
  });
  assert.equal(mcp.status, 200, mcp.body);
  assert.deepEqual(JSON.parse(mcp.body).result.structuredContent.decisions, [pending]);

  // Denied from the page's card, with a note: the session's git fails with it.
  const from = ws.messages.length;
  ws.send({ type: 'decide', id: pending.id, approve: false, note: 'push a branch instead' });
  await ws.waitForMessage((m) => m.type === 'decisions' && m.decisions.length === 0, { from });
  await waitFor(async () => /push-status=[1-9]/.test(await screen(d, id)), { timeout: 20000, interval: 100, what: 'the denied push to fail' });
  assert.match(await screen(d, id), /push a branch instead/);
  assert.equal(remoteHead(s), '', 'a denied push never reaches the remote');

  // A second answer to the same decision, and an unknown one, are refused everywhere.
  let r = await wharf(d, ['decisions', 'approve', String(pending.id)]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /already answered \(denied\)/);
  const again = await api(d, 'POST', 'decisions/answer', { id: pending.id, approve: true });
  assert.equal(again.status, 409);
  assert.equal(again.body.error.code, 'already_answered');
  const unknown = await api(d, 'POST', 'decisions/answer', { id: 999, approve: true });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.code, 'no_decision');
  const bad = await api(d, 'POST', 'decisions/answer', { id: pending.id });
  assert.equal(bad.status, 400);
  const before = ws.messages.length;
  ws.send({ type: 'decide', id: 'x', approve: true });
  const error = await ws.waitForMessage('error', { from: before });
  assert.equal(error.code, 'bad_field');

  // Again, approved from the CLI: the real push runs once and the session sees its status.
  await type(d, id, 'git push origin main; echo "second-status=$?"');
  const [next] = await waitForDecision(d);
  assert.ok(next.id > pending.id);
  r = await wharf(d, ['decisions', 'approve', String(next.id)]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /approved/);
  await waitFor(async () => /second-status=0/.test(await screen(d, id)), { timeout: 20000, interval: 100, what: 'the approved push to finish' });
  assert.equal(remoteHead(s), git(['rev-parse', 'HEAD'], s.repo));
  assert.deepEqual(await pendingList(d), []);

  // A person types in the page's window too.
  const attached = await ws.attach({ session: id });
  assert.equal(attached.driver, true);
  ws.type('echo typed-from-window\r');
  await waitFor(async () => /typed-from-window\s/.test(await screen(d, id)), { timeout: 10000, interval: 100, what: 'the window\'s input' });

  // The audit: both decisions with who answered, the capabilities, the input's clients.
  r = await wharf(d, ['history', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const row = JSON.parse(r.stdout).find((h) => h.id === id);
  assert.equal(row.capabilities.sandboxed, true);
  assert.deepEqual(row.decisions.map((x) => [x.id, x.outcome, x.answered_by, x.note]), [
    [pending.id, 'denied', 'key', 'push a branch instead'],
    [next.id, 'approved', 'cli', ''],
  ]);
  assert.deepEqual(row.decisions[0].argv, ['git', 'push', 'origin', 'main']);
  assert.equal(row.egress_refusals, 0);
  // Two typed lines from the CLI within a minute are one row; the window is another
  // (newest first; the key opened it, so no device name).
  assert.deepEqual(row.inputs.map((x) => [x.client, x.label]), [['window', ''], ['cli', '']]);
});

test('a decision nobody answers expires, and a session that ends withdraws its own', { skip, timeout: 120000 }, async (t) => {
  const s = setup(t, '[sandbox]\ndecision_expiry_seconds = 10');
  const d = await daemonFor(t, s);
  const id = await newShell(d);
  await type(d, id, `cd ${s.repo} && git push origin main; echo "push-status=$?"`);
  const [pending] = await waitForDecision(d);
  assert.ok(pending.expires_at_ms - pending.opened_at_ms === 10000);
  await waitFor(async () => (await pendingList(d)).length === 0, { timeout: 20000, interval: 200, what: 'the decision to expire' });
  await waitFor(async () => /push-status=[1-9]/.test(await screen(d, id)), { timeout: 20000, interval: 100, what: 'the expired push to fail' });
  assert.equal(remoteHead(s), '');

  await type(d, id, 'git push origin main');
  const [open] = await waitForDecision(d);
  const r = await wharf(d, ['kill', String(id)]);
  assert.equal(r.code, 0, r.stderr);
  await waitFor(async () => (await pendingList(d)).length === 0, { timeout: 20000, interval: 100, what: 'the decision to be withdrawn' });
  const late = await api(d, 'POST', 'decisions/answer', { id: open.id, approve: true });
  assert.equal(late.body.error.code, 'already_answered');
  assert.equal(remoteHead(s), '');

  const history = JSON.parse((await wharf(d, ['history', '--json'])).stdout).find((h) => h.id === id);
  assert.deepEqual(history.decisions.map((x) => x.outcome), ['expired', 'withdrawn']);
});

test('a program inside a session may list but never answer a decision', { skip, timeout: 120000 }, async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const id = await newShell(d);
  await type(d, id, `cd ${s.repo} && git push origin main`);
  const [pending] = await waitForDecision(d);
  // An unsandboxed shell of the same daemon stands for an agent that tries to approve.
  const r = await wharf(d, ['new', '--shell', 'bash', '--no-sandbox']);
  assert.equal(r.code, 0, r.stderr);
  const helper = Number(r.stdout.trim());
  const run = await wharf(d, ['run', '-t', String(helper), '--timeout', '20', '-c',
    `${process.env.WHARF_BIN} decisions approve ${pending.id} --state-dir ${d.stateDir}; echo "answer-status=$?"`], { timeout: 30000 });
  assert.match(run.stdout, /may not answer decisions/);
  assert.match(run.stdout, /answer-status=1/);
  assert.equal((await pendingList(d)).length, 1, 'the decision still waits');
  assert.equal(remoteHead(s), '');
  const status = await httpGet(d, '/api/v1/decisions', { headers: { 'X-Wharf-Key': d.key } });
  assert.equal(status.status, 200);

  // The person denies it over REST; the audit names the door.
  const denied = await api(d, 'POST', 'decisions/answer', { id: pending.id, approve: false, note: 'no' });
  assert.equal(denied.status, 200, JSON.stringify(denied.body));
  assert.equal(denied.body.outcome, 'denied');
  assert.equal(denied.body.by, 'rest');
  const history = JSON.parse((await wharf(d, ['history', '--json'])).stdout).find((h) => h.id === id);
  assert.deepEqual(history.decisions.map((x) => [x.outcome, x.answered_by, x.note]), [['denied', 'rest', 'no']]);
});
