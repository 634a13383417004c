// After `kill -9` of the daemon and of every session host (what a power cut does; a
// daemon's crash alone keeps the sessions: see restart.test.mjs): the sessions' processes
// end with their PTY (they get SIGHUP when the master closes), the next start on the same
// state dir records the sessions that were live as `interrupted` in STATE_DIR/wharf.db
// (mode 0600), and the database never holds what was typed or printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { hostsOf, startDaemon, waitFor, wharfBin, sanitizerOptions } from '../support/daemon.mjs';
import { attachedWindow, stopDaemon, sessionMembers, describeProcs, killSession, within } from '../support/ws_client.mjs';

// Starts `wharf serve` on an existing state dir (daemon.mjs always makes a fresh one);
// resolves once the URL line is printed.
async function serveOn(stateDir) {
  const child = spawn(wharfBin, ['serve', '--port', '0', '--state-dir', stateDir], {
    cwd: stateDir,
    env: { ...sanitizerOptions(), PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, WHARF_KEY: randomBytes(16).toString('hex') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (x) => { stdout += x; });
  child.stderr.on('data', (x) => { stderr += x; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  await waitFor(() => stdout.includes('\n') || child.exitCode !== null, { timeout: 15000, what: 'the URL line of the restarted daemon' });
  assert.ok(stdout.includes('\n'), `the restarted daemon printed no URL; stderr:\n${stderr}`);
  return { child, exited, get stderr() { return stderr; } };
}

// The sessions table, read with Python's sqlite3 (read-only, so it neither checkpoints
// nor removes the write-ahead log).
function storedSessions(db) {
  const script = `
import json, sqlite3, sys
con = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)
con.row_factory = sqlite3.Row
rows = [dict(r) for r in con.execute('SELECT * FROM sessions ORDER BY run_id, session_id')]
print(json.dumps(rows))
`;
  const r = spawnSync('python3', ['-c', script, db], { encoding: 'utf8' });
  assert.equal(r.status, 0, `python3 sqlite3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// The raw bytes of the database and its companion files (-wal, -shm, -journal).
function databaseFiles(stateDir) {
  return ['wharf.db', 'wharf.db-wal', 'wharf.db-shm', 'wharf.db-journal']
    .map((name) => join(stateDir, name))
    .filter((p) => existsSync(p));
}

function assertNoneOf(stateDir, secrets, when) {
  const files = databaseFiles(stateDir);
  assert.ok(files.some((f) => f.endsWith('wharf.db')), `${when}: wharf.db exists`);
  for (const f of files) {
    const bytes = readFileSync(f);
    for (const s of secrets) {
      for (const enc of ['utf8', 'utf16le']) {
        assert.equal(bytes.indexOf(Buffer.from(s, enc)), -1, `${when}: ${f} contains ${JSON.stringify(s)} (${enc})`);
      }
    }
  }
}

test('kill -9 of the daemon and its hosts: the session\'s processes end with the PTY, the next start marks the session interrupted, and the database (0600) holds nothing typed or printed', async (t) => {
  const d = await startDaemon();
  t.after(() => stopDaemon(d).catch(() => {}));
  const { ws, attached } = await attachedWindow(t, d);
  const typed = `typed${randomBytes(6).toString('hex')}`;
  const printed = randomBytes(6).toString('hex');
  // Typed: a no-op carrying one marker; printed: a marker only the shell computes.
  let from = ws.textLength;
  ws.type(`: ${typed}; echo P$((6*7))-${printed.slice(0, 6)}-$((1+1))${printed.slice(6)}\r`);
  await ws.waitForOutput(`P42-${printed.slice(0, 6)}-2${printed.slice(6)}`, { from });
  // A background job and a foreground one, as a user would leave them.
  from = ws.textLength;
  ws.type('sleep 1001 & sleep 1000\r');
  const members = await waitFor(() => {
    const m = sessionMembers(attached.pid);
    return m.filter((p) => p.comm === 'sleep').length === 2 ? m : null;
  }, { what: 'the shell with a background and a foreground sleep' });
  t.after(() => killSession(attached.pid));
  assert.ok(members.length >= 3, describeProcs(members));
  const secrets = [typed, printed, `P42-${printed.slice(0, 6)}-2${printed.slice(6)}`, printed.slice(0, 6), printed.slice(6)];
  assertNoneOf(d.stateDir, secrets, 'while the daemon runs');

  const hosts = hostsOf(d.stateDir);
  assert.equal(hosts.length, 1, 'one session, one host');
  d.child.kill('SIGKILL');
  const { signal } = await within(d.exited, 10000, 'the daemon to die');
  assert.equal(signal, 'SIGKILL');
  for (const host of hosts) process.kill(host, 'SIGKILL');
  // The PTY master closed with the host: the shell and its jobs get SIGHUP and end.
  await waitFor(() => sessionMembers(attached.pid).length === 0, { timeout: 10000, what: 'every process of the session to end after the daemon died' })
    .catch((e) => { e.message += `\nsurvivors:\n${describeProcs(sessionMembers(attached.pid))}`; throw e; });
  assertNoneOf(d.stateDir, secrets, 'after kill -9');

  const db = join(d.stateDir, 'wharf.db');
  const crashed = storedSessions(db).find((r) => r.session_id === attached.session);
  assert.equal(crashed?.status, 'running', `before the restart the store still says running: ${JSON.stringify(crashed)}`);
  t.diagnostic(`database files: ${databaseFiles(d.stateDir).map((f) => `${f.slice(d.stateDir.length + 1)} ${statSync(f).size} B`).join(', ')}`);
  const again = await serveOn(d.stateDir);
  t.after(async () => {
    if (again.child.exitCode === null && again.child.signalCode === null) again.child.kill('SIGKILL');
    await again.exited;
  });
  // begin_run() marks the sessions earlier runs left live before the URL is printed.
  const rows = storedSessions(db);
  const row = rows.find((r) => r.session_id === attached.session);
  assert.ok(row, `the session is recorded: ${JSON.stringify(rows)}`);
  assert.equal(row.status, 'interrupted', JSON.stringify(row));
  assert.equal(rows.filter((r) => r.status === 'running' || r.status === 'ending').length, 0, `nothing is left live: ${JSON.stringify(rows)}`);
  for (const f of databaseFiles(d.stateDir)) {
    assert.equal(statSync(f).mode & 0o777, 0o600, `${f} is owner-only`);
  }
  assert.equal(statSync(db).mode & 0o777, 0o600, 'wharf.db is 0600');
  for (const [k, v] of Object.entries(row)) {
    if (typeof v === 'string') for (const s of secrets) assert.ok(!v.includes(s), `column ${k} holds ${s}`);
  }
  assertNoneOf(d.stateDir, secrets, 'after the restart');

  again.child.kill('SIGTERM');
  const stopped = await within(again.exited, 20000, 'the restarted daemon to stop');
  assert.deepEqual(stopped, { code: 0, signal: null }, again.stderr);
  assertNoneOf(d.stateDir, secrets, 'after a clean stop');
});
