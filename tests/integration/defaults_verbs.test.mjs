// `wharf cwd`, `wharf rename` and `wharf reorder` on a real daemon (issue 14), their
// refusals, the same operations over REST, and the default entry and directory kept
// across a restart of the daemon on the same state dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { openWs, runWharf, stopDaemon } from '../support/ws_client.mjs';

function workspaceFor(t) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'wharf-verbs-')));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const workspace = join(root, 'ws');
  for (const dir of ['apps/api', 'docs']) mkdirSync(join(workspace, dir), { recursive: true });
  mkdirSync(join(root, 'outside'));
  const config = join(root, 'config.toml');
  writeFileSync(config, '[actions.idle]\nargv = ["sh", "-c", "exec sleep 600"]\ninteractive = true\n');
  return { root, workspace, config };
}

const wharf = (d, args, options) => runWharf([...args, '--state-dir', d.stateDir], options);

async function names(d) {
  const r = await wharf(d, ['ls', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).map((s) => s.name);
}

async function start(d, name) {
  const r = await wharf(d, ['new', '--action', 'idle', '--name', name]);
  assert.equal(r.code, 0, r.stderr);
  return Number(r.stdout.trim());
}

test('wharf cwd shows and moves the default directory; refuses what a start would refuse', async (t) => {
  const s = workspaceFor(t);
  const d = await startDaemon({ args: ['--config', s.config, '--workspace', s.workspace] });
  t.after(() => stopDaemon(d));

  let r = await wharf(d, ['cwd']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), s.workspace, 'at first: the workspace');

  r = await wharf(d, ['cwd', 'apps/api'], { cwd: s.workspace });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), `new sessions now start in ${join(s.workspace, 'apps/api')}`);
  r = await wharf(d, ['cwd']);
  assert.equal(r.stdout.trim(), join(s.workspace, 'apps/api'));
  // The page's view of the same default: one path.
  const status = await (await fetch(`${d.origin}/api/status`, { headers: { 'X-Wharf-Key': d.key } })).json();
  assert.equal(status.default_cwd, 'apps/api');
  // A new session with no directory starts there.
  const id = await start(d, 'where');
  const row = JSON.parse((await wharf(d, ['ls', '--json'])).stdout).find((x) => x.id === id);
  assert.equal(row.cwd, join(s.workspace, 'apps/api'));

  for (const [dir, pattern] of [[join(s.workspace, 'nope'), /not an existing directory/], [join(s.root, 'outside'), /outside|inside the workspace|workspace/i]]) {
    r = await wharf(d, ['cwd', dir]);
    assert.equal(r.code, 1, `${dir}: ${r.stdout}`);
    assert.match(r.stderr, pattern);
  }
  r = await wharf(d, ['cwd']);
  assert.equal(r.stdout.trim(), join(s.workspace, 'apps/api'), 'a refusal moves nothing');
  r = await wharf(d, ['cwd', 'a', 'b']);
  assert.equal(r.code, 2, 'two directories: a usage error');
});

test('wharf rename and wharf reorder move what every window sees; refusals name the problem', async (t) => {
  const s = workspaceFor(t);
  const d = await startDaemon({ args: ['--config', s.config, '--workspace', s.workspace] });
  t.after(() => stopDaemon(d));
  const a = await start(d, 'alpha');
  const b = await start(d, 'beta');
  const c = await start(d, 'gamma');
  const ws = await openWs(d);
  t.after(() => ws.close());
  await ws.waitForMessage((m) => m.type === 'sessions' && m.sessions.length === 3);

  let n = ws.messages.length;
  let r = await wharf(d, ['rename', String(b), 'build']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(await names(d), ['alpha', 'build', 'gamma']);
  await ws.waitForMessage((m) => m.type === 'sessions' && m.sessions.some((x) => x.name === 'build'), { from: n });
  r = await wharf(d, ['rename', '-t', 'build', '']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(await names(d), ['alpha', `idle ${b}`, 'gamma'], 'an empty name restores the default');

  n = ws.messages.length;
  r = await wharf(d, ['reorder', String(c), '1']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(await names(d), ['gamma', 'alpha', `idle ${b}`]);
  const seen = await ws.waitForMessage((m) => m.type === 'sessions', { from: n });
  assert.deepEqual(seen.sessions.map((x) => x.id), [c, a, b], 'windows get the new order');
  r = await wharf(d, ['reorder', '-t', 'gamma', '3']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(await names(d), ['alpha', `idle ${b}`, 'gamma']);

  // Refusals: unknown session, a position past the end, a bad name; nothing moves.
  r = await wharf(d, ['rename', '99', 'x']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /99/);
  r = await wharf(d, ['reorder', 'nosuch', '1']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /nosuch/);
  r = await wharf(d, ['reorder', String(a), '4']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /from 1 to 3/);
  r = await wharf(d, ['reorder', String(a), '0']);
  assert.equal(r.code, 2, 'position 0: a usage error');
  r = await wharf(d, ['reorder', String(a), 'first']);
  assert.equal(r.code, 2, 'a position that is no number: a usage error');
  assert.match(r.stderr, /^wharf: position: 'first' is not a whole number from 1 to 10000/);
  r = await wharf(d, ['rename', String(a), 'x'.repeat(65)]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /64/);
  r = await wharf(d, ['rename', String(a)]);
  assert.equal(r.code, 2, 'no name: a usage error');
  r = await wharf(d, ['rename', String(a), 'two', 'words']);
  assert.equal(r.code, 2, 'two names: a usage error');
  assert.match(r.stderr, /^wharf: rename takes one name/);
  r = await wharf(d, ['reorder', String(a)]);
  assert.equal(r.code, 2, 'no position: a usage error');
  assert.deepEqual(await names(d), ['alpha', `idle ${b}`, 'gamma'], 'refusals change nothing');

  // The same operations over REST (/api/v1), the path MCP takes too.
  const post = (path, body) => fetch(`${d.origin}/api/v1/${path}`, {
    method: 'POST', headers: { 'X-Wharf-Key': d.key, 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  let res = await post(`sessions/${a}/name`, { name: 'rest' });
  assert.equal(res.status, 200, await res.text());
  res = await post(`sessions/${a}/position`, { position: 2 });
  assert.equal(res.status, 200, await res.text());
  assert.deepEqual(await names(d), [`idle ${b}`, 'rest', 'gamma']);
  res = await post(`sessions/${a}/position`, { position: 9 });
  assert.equal(res.status, 400);
  res = await post('sessions/77/name', { name: 'x' });
  assert.equal(res.status, 404);
});

test('the default entry and directory survive a restart of the daemon (stop/start and wharf restart)', async (t) => {
  const s = workspaceFor(t);
  const stateDir = mkdtempSync(join(tmpdir(), 'wharf-test-'));
  const args = ['--config', s.config, '--workspace', s.workspace];
  const d1 = await startDaemon({ args, stateDir });
  let r = await wharf(d1, ['agent', 'action:idle']);
  assert.equal(r.code, 0, r.stderr);
  r = await wharf(d1, ['cwd', join(s.workspace, 'docs')]);
  assert.equal(r.code, 0, r.stderr);
  const kept = JSON.parse(readFileSync(join(stateDir, 'defaults.json'), 'utf8'));
  assert.deepEqual(kept, { entry: 'action:idle', cwd: 'docs' });

  d1.child.kill('SIGTERM');
  await d1.exited;
  const d2 = await startDaemon({ args, stateDir });
  t.after(() => stopDaemon(d2));
  r = await wharf(d2, ['agent']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^idle \(action\)/, 'the default entry is kept');
  r = await wharf(d2, ['cwd']);
  assert.equal(r.stdout.trim(), join(s.workspace, 'docs'), 'the default directory is kept');

  // `wharf restart` repeats the old command line; the kept choice still wins.
  r = await wharf(d2, ['cwd', join(s.workspace, 'apps/api')]);
  assert.equal(r.code, 0, r.stderr);
  r = await wharf(d2, ['restart']);
  assert.equal(r.code, 0, r.stderr);
  const after = await waitFor(async () => {
    const x = await wharf(d2, ['cwd']);
    return x.code === 0 ? x.stdout.trim() : null;
  }, { timeout: 15000, what: 'the restarted daemon to answer' });
  assert.equal(after, join(s.workspace, 'apps/api'));
  const status = await waitFor(async () => {
    try {
      const res = await fetch(`${d2.origin}/api/status`, { headers: { 'X-Wharf-Key': d2.key } });
      return res.ok ? res.json() : null;
    } catch { return null; }
  }, { what: '/api/status after the restart' });
  assert.equal(status.default_agent, 'idle');
  assert.equal(status.default_kind, 'action');
});

test('a damaged defaults file is ignored with a warning; the config decides', async (t) => {
  const s = workspaceFor(t);
  const stateDir = mkdtempSync(join(tmpdir(), 'wharf-test-'));
  writeFileSync(join(stateDir, 'defaults.json'), '{not json');
  const d = await startDaemon({ args: ['--config', s.config, '--workspace', s.workspace], stateDir });
  t.after(() => stopDaemon(d));
  const r = await wharf(d, ['cwd']);
  assert.equal(r.stdout.trim(), s.workspace);
  await waitFor(() => /defaults.*ignored|ignored.*defaults/i.test(d.stderr) || /kept default/i.test(d.stderr), { what: 'a warning about the file' });
});

test('only what a person moved is kept: the other default keeps following the config file', async (t) => {
  const s = workspaceFor(t);
  const stateDir = mkdtempSync(join(tmpdir(), 'wharf-test-'));
  writeFileSync(s.config, `[sessions]\ndirectory = "docs"\n${readFileSync(s.config, 'utf8')}`);
  const args = ['--config', s.config, '--workspace', s.workspace];
  const d1 = await startDaemon({ args, stateDir });
  let r = await wharf(d1, ['agent', 'action:idle']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(readFileSync(join(stateDir, 'defaults.json'), 'utf8')), { entry: 'action:idle' });
  d1.child.kill('SIGTERM');
  await d1.exited;
  // The operator moves the directory in the config; the next daemon follows it.
  writeFileSync(s.config, readFileSync(s.config, 'utf8').replace('directory = "docs"', 'directory = "apps/api"'));
  const d2 = await startDaemon({ args, stateDir });
  t.after(() => stopDaemon(d2));
  r = await wharf(d2, ['cwd']);
  assert.equal(r.stdout.trim(), join(s.workspace, 'apps/api'), 'the config\'s new directory');
  r = await wharf(d2, ['agent']);
  assert.match(r.stdout, /^idle \(action\)/, 'the moved entry is kept');
});
