// `wharf history` (docs/hosts.md): past and present sessions read straight from
// STATE_DIR/wharf.db, read-only, while the daemon runs, after it was killed outright and
// after the next start marked what it left live as `interrupted`; crashed and re-attached
// sessions; `wharf history ID --screen` (the final screen kept in STATE_DIR/screens); and
// the one-line refusal when there is no database yet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { hostsOf, startDaemon, waitFor, wharfBin, sanitizerOptions } from '../support/daemon.mjs';
import { openWs, runWharf, stopDaemon, killSession, within } from '../support/ws_client.mjs';

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

async function history(stateDir, args = [], env = {}) {
  const r = await runWharf(['history', '--state-dir', stateDir, ...args], { env });
  assert.equal(r.code, 0, `wharf history ${args.join(' ')} failed:\n${r.stderr}`);
  return r;
}

async function historyJson(stateDir, args = []) {
  const r = await history(stateDir, ['--json', ...args]);
  return JSON.parse(r.stdout);
}

async function newSession(stateDir, name) {
  const r = await runWharf(['new', '--state-dir', stateDir, '--name', name]);
  assert.equal(r.code, 0, `wharf new --name ${name}: ${r.stderr}`);
  const id = Number(r.stdout.trim());
  assert.ok(Number.isInteger(id) && id > 0, `wharf new printed ${JSON.stringify(r.stdout)}`);
  return id;
}

// The pid of each live session, from `wharf ls`, so cleanup can reach what a failure
// leaves behind.
async function livePids(stateDir) {
  const r = await runWharf(['ls', '--state-dir', stateDir, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return Object.fromEntries(JSON.parse(r.stdout).map((s) => [s.id, s.pid]));
}

const events = (row) => row.events.map((e) => e.event);

test('history shows exited, ended, running and, after kill -9 and a restart, interrupted sessions', async (t) => {
  const d = await startDaemon();
  t.after(() => stopDaemon(d).catch(() => {}));

  const keeper = await newSession(d.stateDir, 'keeper');
  const quitter = await newSession(d.stateDir, 'quitter');
  const survivor = await newSession(d.stateDir, 'survivor');
  const pids = await livePids(d.stateDir);
  for (const id of [keeper, quitter, survivor]) t.after(() => killSession(pids[id]));

  // `exit 3` typed into one session: it ends on its own.
  const ws = await openWs(d);
  t.after(() => ws.close());
  await ws.attach({ session: quitter });
  await ws.waitForPrompt();
  const mark = ws.messages.length;
  ws.type('exit 3\r');
  const exit = await ws.waitForMessage('exit', { from: mark, timeout: 15000 });
  assert.equal(exit.code, 3);

  // `wharf kill` ends another.
  const killed = await runWharf(['kill', '--state-dir', d.stateDir, String(keeper)]);
  assert.equal(killed.code, 0, killed.stderr);

  // Read while the daemon runs (and writes).
  const rows = await waitFor(async () => {
    const all = await historyJson(d.stateDir);
    const k = all.find((r) => r.id === keeper);
    return k && k.status === 'ended' ? all : null;
  }, { timeout: 15000, what: 'the killed session recorded as ended' });
  assert.equal(rows.length, 3, JSON.stringify(rows));
  assert.deepEqual(rows.map((r) => r.name), ['survivor', 'quitter', 'keeper'], 'newest first');
  const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
  const runId = byId[quitter].run;
  for (const r of rows) {
    assert.equal(r.run, runId, 'one daemon run');
    assert.equal(r.kind, 'shell');
    assert.equal(typeof r.entry, 'string');
    assert.equal(r.cwd, d.stateDir, 'sessions start in the workspace, the daemon\'s directory');
    assert.equal(r.creator, 'local', 'started from a terminal (core/ownership.hpp)');
    assert.equal(r.owner, undefined, 'one name for who started a session: creator, as in wharf ls');
    assert.ok(Array.isArray(r.env_names) && r.env_names.every((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n)), `names only: ${JSON.stringify(r.env_names)}`);
    assert.ok(Number.isInteger(r.created) && Math.abs(r.created - Date.now()) < 120000, `created ${r.created}`);
    assert.equal(r.started, undefined, 'times are milliseconds, as in wharf ls; no second form of the same moment');
    assert.equal(r.events[0].event, 'started');
    assert.equal(r.events[0].at, r.created);
    assert.equal(r.events[0].detail, null);
  }

  const q = byId[quitter];
  assert.equal(q.status, 'exited');
  assert.equal(q.exit_code, 3);
  assert.equal(q.signal, null);
  assert.ok(q.ended >= q.created, `ended ${q.ended}`);
  assert.ok(q.bytes_out > 0, 'the shell printed a prompt');
  assert.ok(q.bytes_in >= 'exit 3\r'.length, `bytes_in ${q.bytes_in}`);
  assert.equal(q.scrollback_truncated, false);
  assert.deepEqual(events(q), ['started', 'exited']);
  assert.equal(q.events[1].at, q.ended);

  const k = byId[keeper];
  assert.equal(k.status, 'ended');
  assert.ok(k.exit_code !== null || k.signal !== null, `how it ended: ${JSON.stringify(k)}`);
  assert.deepEqual(events(k), ['started', 'ended']);

  const s = byId[survivor];
  assert.equal(s.status, 'running');
  assert.equal(s.ended, null);
  assert.equal(s.exit_code, null);
  assert.deepEqual(events(s), ['started']);

  // --limit: the newest N.
  const one = await historyJson(d.stateDir, ['--limit', '1']);
  assert.deepEqual(one.map((r) => r.id), [survivor]);

  // The table: a header and one line per session, newest first, home shown as ~.
  const home = dirname(d.stateDir);
  const plain = (await history(d.stateDir, [], { HOME: home })).stdout;
  const lines = plain.trimEnd().split('\n');
  assert.equal(lines.length, 4, plain);
  for (const col of ['RUN', 'ID', 'NAME', 'ENTRY', 'STATUS', 'STARTED', 'DURATION', 'OUTPUT', 'CWD']) {
    assert.match(lines[0], new RegExp(`\\b${col}\\b`), `header has ${col}: ${lines[0]}`);
  }
  assert.match(lines[1], /\bsurvivor\b.*\brunning\b/, plain);
  assert.match(lines[2], /\bquitter\b.*\bexited 3\b/, plain);
  assert.match(lines[3], /\bkeeper\b.*\bended\b/, plain);
  const tilde = `~/${d.stateDir.slice(home.length + 1)}`;
  for (const line of lines.slice(1)) {
    assert.ok(line.endsWith(tilde), `cwd shortened to ${tilde}: ${line}`);
    assert.match(line, /\d{4}-\d\d-\d\d \d\d:\d\d/, `a local start time: ${line}`);
    assert.match(line, /\b\d+s\b|\b\d+m\d\ds\b/, `a duration: ${line}`);
  }
  assert.match(lines[2], /\b\d+(\.\d)? (B|KiB|MiB)\b/, `output bytes of the exited session: ${lines[2]}`);
  assert.ok(!lines[1].includes(' B ') && !lines[1].includes('KiB'), `a running session has no byte count yet: ${lines[1]}`);
  // The columns line up: every line's status starts where the header's STATUS does.
  const at = lines[0].indexOf('STATUS');
  for (const [i, word] of [[1, 'running'], [2, 'exited 3'], [3, 'ended']]) {
    assert.equal(lines[i].indexOf(word), at, `STATUS column of line ${i}:\n${plain}`);
  }

  // kill -9 of the daemon and of the session's host (a power cut; the daemon alone would
  // leave the session to the next one: restart.test.mjs): nothing records the end of
  // `survivor`; history still reads the file (its last commits only in the write-ahead
  // log) with no daemon running.
  const hosts = hostsOf(d.stateDir);
  d.child.kill('SIGKILL');
  assert.equal((await within(d.exited, 10000, 'the daemon to die')).signal, 'SIGKILL');
  for (const host of hosts) process.kill(host, 'SIGKILL');
  const afterCrash = await historyJson(d.stateDir);
  assert.equal(afterCrash.find((r) => r.id === survivor)?.status, 'running', 'the store cannot know yet');
  assert.deepEqual(afterCrash.map((r) => r.status), ['running', 'exited', 'ended']);

  // The next start marks it interrupted; history reads beside the new daemon.
  const again = await serveOn(d.stateDir);
  t.after(async () => {
    if (again.child.exitCode === null && again.child.signalCode === null) again.child.kill('SIGKILL');
    await again.exited;
  });
  const restarted = await historyJson(d.stateDir);
  assert.equal(restarted.length, 3, JSON.stringify(restarted));
  const s2 = restarted.find((r) => r.id === survivor && r.run === runId);
  assert.equal(s2.status, 'interrupted');
  assert.equal(s2.ended, null, 'a killed daemon recorded no stop time');
  assert.deepEqual(events(s2), ['started', 'interrupted']);
  assert.equal(restarted.find((r) => r.id === quitter).status, 'exited', 'what had ended stays as it was');
  assert.equal(restarted.find((r) => r.id === keeper).status, 'ended');
  const table = (await history(d.stateDir)).stdout;
  assert.match(table, /\bsurvivor\b.*\binterrupted\b/, table);

  again.child.kill('SIGTERM');
  assert.deepEqual(await within(again.exited, 20000, 'the restarted daemon to stop'), { code: 0, signal: null }, again.stderr);
});

test('history with no database yet: one line on stderr, exit 1, and nothing created', async (t) => {
  const empty = mkdtempSync(join(tmpdir(), 'wharf-history-'));
  t.after(() => rmSync(empty, { recursive: true, force: true }));
  for (const args of [[], ['--json']]) {
    const r = await runWharf(['history', '--state-dir', empty, ...args]);
    assert.equal(r.code, 1, `exit code; stderr: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `wharf: no history yet: ${join(empty, 'wharf.db')} does not exist\n`);
  }
  assert.deepEqual(readdirSync(empty), [], 'history created nothing');
  const missing = join(empty, 'not-made');
  const r = await runWharf(['history', '--state-dir', missing]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /no history yet/);
  assert.ok(!existsSync(missing), 'not even the state dir');
});

test('history of a database with no sessions says so, and --json is an empty array', async (t) => {
  const d = await startDaemon();
  t.after(() => stopDaemon(d));
  assert.deepEqual(await historyJson(d.stateDir), []);
  const r = await history(d.stateDir);
  assert.match(r.stdout, /^no sessions recorded yet in .*wharf\.db\n$/);
  const bad = await runWharf(['history', '--state-dir', d.stateDir, '--limit', '0']);
  assert.notEqual(bad.code, 0, '--limit must be positive');
});

test('the table replaces control characters, so a crafted directory cannot drive the terminal; --json keeps it exact', async (t) => {
  const d = await startDaemon();
  t.after(() => stopDaemon(d));
  const dir = join(d.stateDir, 'ev\x1b]0;pwned\x07il\nx');
  mkdirSync(dir);
  const r = await runWharf(['new', '--state-dir', d.stateDir, '--cwd', dir]);
  assert.equal(r.code, 0, r.stderr);
  const id = Number(r.stdout.trim());
  const pid = (await livePids(d.stateDir))[id];
  t.after(() => killSession(pid));
  const [row] = await historyJson(d.stateDir);
  assert.equal(row.cwd, dir);
  const plain = (await history(d.stateDir)).stdout;
  assert.ok(!/[\x00-\x09\x0b-\x1f\x7f]/.test(plain), `control characters in ${JSON.stringify(plain)}`);
  assert.equal(plain.trimEnd().split('\n').length, 2, plain);
  assert.ok(plain.includes('ev?]0;pwned?il?x'), plain);
});

// Rows as a daemon that re-attaches sessions from surviving hosts records them, written
// with Python's sqlite3 into a database a real daemon created: one session that run 2
// took over and whose host then died (crashed), one still running under run 2.
function recordTakeover(db) {
  const script = `
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.execute('PRAGMA foreign_keys = ON')
run1 = con.execute('SELECT max(id) FROM runs').fetchone()[0]
run2 = con.execute('INSERT INTO runs (started_at, stopped_at, pid) VALUES (2000000, 3000000, 1)').lastrowid
for sid, name, status in ((101, 'crasher', 'crashed'), (102, 'keeper', 'running')):
    con.execute("INSERT INTO sessions (run_id, session_id, name, entry, kind, program, cwd, owner, env_names, status, created_at) VALUES (?, ?, ?, 'bash', 'shell', '/bin/bash', '/srv', 'local', '[]', 'running', 1000000)", (run1, sid, name))
    con.execute("INSERT INTO session_events (run_id, session_id, at, event) VALUES (?, ?, 1000000, 'started')", (run1, sid))
    con.execute("INSERT INTO session_events (run_id, session_id, at, event, detail) VALUES (?, ?, 2000001, 'reattached', ?)", (run1, sid, str(run2)))
con.execute("UPDATE sessions SET status = 'crashed', ended_at = 2500000, bytes_out = 2048 WHERE run_id = ? AND session_id = 101", (run1,))
con.execute("INSERT INTO session_events (run_id, session_id, at, event) VALUES (?, 101, 2500000, 'crashed')", (run1,))
con.commit()
print(run1, run2)
`;
  const r = spawnSync('python3', ['-c', script, db], { encoding: 'utf8' });
  assert.equal(r.status, 0, `python3 sqlite3 failed: ${r.stderr}`);
  return r.stdout.trim().split(' ').map(Number);
}

test('history shows a crashed session and the runs that re-attached a session', async (t) => {
  // A real daemon makes the database; stopped without stop(), which would remove it.
  const d = await startDaemon();
  t.after(() => rmSync(d.stateDir, { recursive: true, force: true }));
  d.child.kill('SIGTERM');
  assert.deepEqual(await within(d.exited, 20000, 'the daemon to stop'), { code: 0, signal: null }, d.stderr);
  const [run1, run2] = recordTakeover(join(d.stateDir, 'wharf.db'));

  const rows = await historyJson(d.stateDir);
  const crasher = rows.find((r) => r.id === 101);
  assert.equal(crasher.run, run1, 'a re-attached session keeps the run that started it');
  assert.equal(crasher.status, 'crashed');
  assert.equal(crasher.exit_code, null);
  assert.equal(crasher.signal, null);
  assert.equal(crasher.ended, 2500000);
  assert.deepEqual(events(crasher), ['started', 'reattached', 'crashed']);
  assert.equal(crasher.events[1].detail, String(run2), 'the run that took it over');
  assert.equal(crasher.events[2].detail, null);
  const keeper = rows.find((r) => r.id === 102);
  assert.equal(keeper.status, 'running');
  assert.deepEqual(events(keeper), ['started', 'reattached']);

  const plain = (await history(d.stateDir)).stdout;
  const lines = plain.trimEnd().split('\n');
  const crashLine = lines.find((l) => /\bcrasher\b/.test(l));
  const keepLine = lines.find((l) => /\bkeeper\b/.test(l));
  assert.ok(crashLine.startsWith(`${run1}→${run2} `), `RUN shows both runs: ${crashLine}`);
  assert.match(crashLine, /\bcrashed\b/);
  assert.match(crashLine, /\b2\.0 KiB\b/, `the bytes relayed before the crash: ${crashLine}`);
  assert.match(crashLine, /\b25m00s\b/, `created to crashed: ${crashLine}`);
  assert.ok(keepLine.startsWith(`${run1}→${run2} `), keepLine);
  assert.match(keepLine, /\brunning\b/);
  const at = lines[0].indexOf('STATUS');
  assert.equal(crashLine.indexOf('crashed'), at, `STATUS column lines up:\n${plain}`);
  assert.equal(keepLine.indexOf('running'), at, `STATUS column lines up:\n${plain}`);
});

test('history ID --screen prints the final screen kept for a session; RUN:ID names a run; none kept says so', async (t) => {
  const d = await startDaemon();
  t.after(() => stopDaemon(d).catch(() => {}));
  const id = await newSession(d.stateDir, 'screened');
  const pid = (await livePids(d.stateDir))[id];
  t.after(() => killSession(pid));
  const [row] = await historyJson(d.stateDir);
  const screen = (args) => runWharf(['history', '--state-dir', d.stateDir, ...args]);

  let r = await screen([String(id), '--screen']);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, `wharf: no final screen kept for session ${id}: it is still running\n`);

  // What the daemon keeps when a session ends (app/final_screens.hpp), put there as it
  // would be; control characters in it must not reach the terminal.
  const dir = join(d.stateDir, 'screens');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, `${row.run}-${id}.txt`), '$ make\nok \x1b]0;pwned\x07done\n$ ', { mode: 0o600 });
  for (const spec of [String(id), `${row.run}:${id}`]) {
    r = await screen([spec, '--screen']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '$ make\nok ?]0;pwned?done\n$ \n', `wharf history ${spec} --screen`);
  }

  r = await screen(['99', '--screen']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, 'wharf: no session 99 in the history (`wharf history` lists them)\n');
  r = await screen([`${row.run + 1}:${id}`, '--screen']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /no session \d+:\d+ in the history/);

  // Usage errors: a session without --screen and the other way round, a malformed id,
  // and --screen with --json.
  for (const args of [[String(id)], ['--screen'], ['0', '--screen'], ['x:1', '--screen'], [`${row.run}:`, '--screen'], [String(id), '--screen', '--json']]) {
    r = await screen(args);
    assert.notEqual(r.code, 0, `wharf history ${args.join(' ')} succeeded:\n${r.stdout}`);
    assert.equal(r.stdout, '');
  }
});
