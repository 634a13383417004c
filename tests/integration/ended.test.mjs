// What an ended session leaves, over the protocol and the CLI: a program that ends by
// itself with a failure keeps an ended tab (the `ended` list of every window's `sessions`
// message) with its status and its last screen (`ended_screen`), until any window closes
// it (`dismiss`) or `[page] ended_auto_close` passes; a clean exit and an end someone
// asked for leave nothing behind; `wharf history ID --screen` shows the same screen.
// `wharf serve --listen` prints every address it can be reached at. Every wait has a
// deadline; nothing sleeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startDaemon, waitFor, wharfBin, sanitizerOptions } from '../support/daemon.mjs';
import { openWs, runWharf, stopDaemon } from '../support/ws_client.mjs';

function configFor(t, extra = '') {
  const dir = mkdtempSync(join(tmpdir(), 'wharf-ended-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'config.toml');
  // `fails` ends at once, as a failed start does: its host must still see it end even
  // when the program is gone before the host watches for SIGCHLD.
  writeFileSync(config, [
    '[actions.fails]', 'argv = ["/bin/sh", "-c", "echo not logged in; exit 1"]', 'interactive = true',
    '[actions.clean]', 'argv = ["/bin/sh", "-c", "echo all done; sleep 0.3; exit 0"]', 'interactive = true',
    '[actions.killed]', 'argv = ["/bin/sh", "-c", "echo going; sleep 0.3; kill -TERM $$"]', 'interactive = true',
    '[actions.idle]', 'argv = ["/bin/sh", "-c", "exec sleep 600"]', 'interactive = true',
    extra,
  ].join('\n'));
  return config;
}

const lastList = (conn) => conn.messages.filter((m) => m.type === 'sessions').at(-1);
const endedIds = (conn) => (lastList(conn)?.ended ?? []).map((e) => e.id);

test('a failed session stays as an ended tab with its last screen until a window closes it', async (t) => {
  const d = await startDaemon({ args: ['--config', configFor(t)] });
  t.after(() => stopDaemon(d));
  const a = await openWs(d);
  const b = await openWs(d);
  const idle = await a.newSession({ kind: 'action', entry: 'idle' });
  assert.equal(idle.type, 'attached');
  await b.attach({ session: idle.session });

  // A starts the failing program and watches it go.
  const from = a.messages.length;
  const started = await a.newSession({ kind: 'action', entry: 'fails' });
  assert.equal(started.type, 'attached', JSON.stringify(started));
  const id = started.session;
  const exit = await a.waitForMessage((m) => m.type === 'exit' && m.session === id, { from, timeout: 30000, what: 'the exit' });
  assert.equal(exit.code, 1);
  assert.equal(exit.kept, true, 'the exit says the tab stays');
  // Every window's list carries it, with what the page needs to say what happened.
  for (const w of [a, b]) {
    const list = await w.waitForMessage((m) => m.type === 'sessions' && (m.ended ?? []).some((e) => e.id === id), { timeout: 30000, what: 'the ended entry' });
    const e = list.ended.find((x) => x.id === id);
    assert.equal(e.program, 'fails');
    assert.equal(e.code, 1);
    assert.equal(e.signal, null);
    assert.equal(e.crashed, false);
    assert.ok(e.ended >= e.created && e.ended - e.created < 10000, `ended soon after it started: ${JSON.stringify(e)}`);
    assert.ok(!list.sessions.some((s) => s.id === id), 'no longer a live session');
  }
  // Any window can ask for its last screen.
  const screen = await b.request({ type: 'ended_screen', session: id }, (m) => m.type === 'ended_screen' || m.type === 'error');
  assert.equal(screen.type, 'ended_screen', JSON.stringify(screen));
  assert.match(screen.screen, /not logged in/);
  assert.equal(screen.ended.code, 1);
  // The CLI shows the same screen.
  const history = await runWharf(['history', String(id), '--screen', '--state-dir', d.stateDir]);
  assert.equal(history.code, 0, history.stderr);
  assert.match(history.stdout, /not logged in/);

  // Closed from B: gone for both; closing again, or asking for it, is refused.
  const closing = b.messages.length;
  b.send({ type: 'dismiss', session: id });
  for (const w of [a, b]) {
    await w.waitForMessage((m) => m.type === 'sessions' && !(m.ended ?? []).some((e) => e.id === id), { from: w === b ? closing : 0, what: 'the ended tab gone' });
  }
  await waitFor(() => !endedIds(a).includes(id), { what: 'A\'s last list without it' });
  const again = await b.request({ type: 'dismiss', session: id }, 'error');
  assert.equal(again.code, 'no_session');
  const gone = await b.request({ type: 'ended_screen', session: id }, 'error');
  assert.equal(gone.code, 'no_session');
  const bad = await b.request({ type: 'dismiss' }, 'error');
  assert.equal(bad.code, 'bad_field');
  await a.close();
  await b.close();
});

test('a clean exit and an end someone asked for leave no ended tab; a signal does', async (t) => {
  const d = await startDaemon({ args: ['--config', configFor(t)] });
  t.after(() => stopDaemon(d));
  const a = await openWs(d);
  const clean = await a.newSession({ kind: 'action', entry: 'clean' });
  const cleanExit = await a.waitForMessage((m) => m.type === 'exit' && m.session === clean.session, { timeout: 30000 });
  assert.equal(cleanExit.code, 0);
  assert.equal(cleanExit.kept, false);
  const idle = await a.newSession({ kind: 'action', entry: 'idle' });
  a.send({ type: 'end', session: idle.session });
  const endExit = await a.waitForMessage((m) => m.type === 'exit' && m.session === idle.session, { timeout: 30000 });
  assert.equal(endExit.kept, false, 'an end that was asked for is not a failure to keep');
  const killed = await a.newSession({ kind: 'action', entry: 'killed' });
  const killedExit = await a.waitForMessage((m) => m.type === 'exit' && m.session === killed.session, { timeout: 30000 });
  assert.equal(killedExit.signal, 'SIGTERM');
  assert.equal(killedExit.kept, true);
  const list = await a.waitForMessage((m) => m.type === 'sessions' && (m.ended ?? []).length > 0, { timeout: 30000 });
  assert.deepEqual(list.ended.map((e) => e.id), [killed.session], 'only the killed one stays');
  assert.equal(list.ended[0].signal, 'SIGTERM');
  await a.close();
});

test('[page] ended_auto_close closes an ended tab by itself', async (t) => {
  const d = await startDaemon({ args: ['--config', configFor(t, '[page]\nended_auto_close = 1')] });
  t.after(() => stopDaemon(d));
  const a = await openWs(d);
  const started = await a.newSession({ kind: 'action', entry: 'fails' });
  await a.waitForMessage((m) => m.type === 'sessions' && (m.ended ?? []).some((e) => e.id === started.session), { timeout: 30000, what: 'the ended tab' });
  const shown = performance.now();
  await waitFor(() => !endedIds(a).includes(started.session) && lastList(a) !== undefined, { timeout: 10000, what: 'the tab to close by itself' });
  assert.ok(performance.now() - shown >= 500, 'not at once');
  await a.close();
});

// ---- the addresses `wharf serve` prints ------------------------------------------------

function serve(t, listen) {
  const stateDir = mkdtempSync(join(tmpdir(), 'wharf-listen-'));
  const child = spawn(wharfBin, ['serve', '--port', '0', '--listen', listen, '--state-dir', stateDir], {
    cwd: stateDir,
    env: { ...sanitizerOptions(), PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER,
      WHARF_KEY: randomBytes(16).toString('hex'), XDG_CONFIG_HOME: join(stateDir, 'config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (x) => { out.stdout += x; });
  child.stderr.on('data', (x) => { out.stderr += x; });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(stateDir, { recursive: true, force: true });
  });
  return out;
}

// The URL lines, once the daemon logged that it serves (it prints them before).
async function printed(out) {
  await waitFor(() => /wharf serving/.test(out.stderr), { timeout: 15000, what: 'the daemon to serve' });
  return out.stdout.trim().split('\n');
}

test('--listen 0.0.0.0 prints every IPv4 address it is reachable at, loopback first', async (t) => {
  const lines = await printed(serve(t, '0.0.0.0'));
  const urls = lines.map((l) => new URL(l));
  const port = urls[0].port;
  const key = urls[0].searchParams.get('k');
  const expected = ['127.0.0.1', ...Object.values(networkInterfaces()).flat()
    .filter((i) => i.family === 'IPv4' && i.address !== '127.0.0.1').map((i) => i.address)];
  assert.deepEqual(urls.map((u) => u.hostname), [...new Set(expected)], `the lines: ${lines.join(' | ')}`);
  for (const u of urls) {
    assert.equal(u.port, port);
    assert.equal(u.searchParams.get('k'), key);
    // Each one really opens wharf (the Host rule takes any literal on a wildcard).
    const res = await fetch(`${u.origin}/api/status`, { headers: { 'X-Wharf-Key': key }, signal: AbortSignal.timeout(5000) });
    assert.equal(res.status, 200, `${u.href}: ${res.status}`);
  }
});

test('--listen with one address prints that address only', async (t) => {
  const lines = await printed(serve(t, '127.0.0.1'));
  assert.equal(lines.length, 1, lines.join(' | '));
  assert.equal(new URL(lines[0]).hostname, '127.0.0.1');
});
