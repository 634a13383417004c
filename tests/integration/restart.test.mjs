// Sessions outlive the daemon (issue 12): each lives in its own host process, so a daemon
// that crashes, stops with --keep-sessions or restarts (`wharf restart`) loses nothing: the
// next daemon on the same state dir takes every session over with its id, name, place,
// screen and key, and typing goes on. A host that crashes ends only its own session.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { hostsOf, startDaemon, waitFor, wharfBin } from '../support/daemon.mjs';
import { httpGet, isSanitized, openWs, runWharf, sessionMembers, stopDaemon, within, procStat, cmdline } from '../support/ws_client.mjs';
import { renderSnapshot, visibleState } from '../support/window_screen.mjs';

// The cgroup v2 directory a process is in, when it is a session's (pty/session_cgroup).
function sessionCgroupDir(pid) {
  const own = readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n').find((l) => l.startsWith('0::'))?.slice(3);
  if (!own?.includes('wharf-session-')) return null;
  const mount = readFileSync('/proc/self/mountinfo', 'utf8').split('\n')
    .map((l) => l.split(' - ')).find(([, tail]) => tail?.startsWith('cgroup2 '))?.[0].split(' ')[4];
  return mount ? join(mount, own) : null;
}

function wharf(d, args) {
  return runWharf([...args, '--state-dir', d.stateDir]);
}

async function listed(d) {
  const r = await wharf(d, ['ls', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

async function screenText(d, id) {
  const r = await wharf(d, ['read-screen', String(id), '--json', '--scrollback', '100']);
  assert.equal(r.code, 0, r.stderr);
  const screen = JSON.parse(r.stdout);
  return { lines: screen.lines, cursor: screen.cursor, alternate: screen.alternate_screen, title: screen.title };
}

// What a fresh window is shown of session `id`, rendered by the page's own emulator.
async function freshWindowScreen(d, id) {
  const ws = await openWs(d);
  try {
    await ws.attach({ session: id });
    return visibleState(await renderSnapshot(ws.lastSnapshot));
  } finally {
    ws.close();
  }
}

async function killDaemon(d) {
  d.child.kill('SIGKILL');
  await within(d.exited, 10000, 'the daemon to die');
}

// A shell session with a marker on its screen and a full-screen program in another (the
// alternate screen, a title, the cursor placed), the second renamed and moved first.
async function twoSessions(t, d) {
  const ws = await openWs(d);
  t.after(() => ws.close());
  const shell = await ws.newSession({ shell: 'bash' });
  assert.equal(shell.type, 'attached', JSON.stringify(shell));
  await ws.waitForPrompt();
  let from = ws.textLength;
  ws.type('for i in 1 2 3; do echo "row-$i-$((i*7))"; done\r');
  await ws.waitForOutput('row-3-21', { from });
  const full = await ws.newSession({ shell: 'bash', name: 'full' });
  await ws.waitForPrompt();
  from = ws.textLength;
  ws.type("printf '\\033]2;the-title\\007\\033[?1049h\\033[H\\033[2J\\033[1;31mALT\\033[0m-%s\\033[5;9H' $((40+2)); read x\r");
  await ws.waitForOutput('ALT\x1b[0m-42', { from });
  const reordered = await ws.request({ type: 'reorder', order: [full.session, shell.session] }, (m) => m.type === 'sessions' && m.sessions[0]?.id === full.session);
  assert.equal(reordered.sessions.length, 2);
  return { ws, shell, full };
}

describe('sessions outlive the daemon', { concurrency: 2 }, () => {
  test('kill -9 of the daemon: the next one takes every session over (ids, names, order, screens), with the same key; typing goes on; a stop then ends them all', async (t) => {
    const d1 = await startDaemon({ key: null });
    const stateDir = d1.stateDir;
    const { ws, shell, full } = await twoSessions(t, d1);
    // A question nobody has seen yet is still lit after the restart.
    const notified = await wharf(d1, ['notify', 'waiting', '--session', String(shell.session)]);
    assert.equal(notified.code, 0, notified.stderr);
    await ws.waitForMessage((m) => m.type === 'sessions' && m.sessions.some((x) => x.id === shell.session && x.activity === 'waiting'));
    const before = {
      list: (await listed(d1)).map((s) => ({ id: s.id, name: s.name, pid: s.pid })),
      screens: [await screenText(d1, shell.session), await screenText(d1, full.session)],
      windows: [await freshWindowScreen(d1, shell.session), await freshWindowScreen(d1, full.session)],
    };
    assert.deepEqual(before.list.map((s) => s.name), ['full', `bash ${shell.session}`]);
    const hosts = hostsOf(stateDir);
    assert.equal(hosts.length, 2, 'one host per session');
    for (const host of hosts) {
      const argv0 = cmdline(host)[0];
      assert.match(argv0, /^wharf-host: \d+ /, 'ps shows the host by session');
      assert.notEqual(procStat(host).session, procStat(d1.child.pid).session, 'a host is in a process session of its own');
      assert.notEqual(procStat(host).ppid, d1.child.pid, 'a host is not the daemon\'s child');
    }

    await killDaemon(d1);
    ws.close();
    assert.deepEqual(hostsOf(stateDir).sort(), hosts.sort(), 'the hosts outlive the daemon');
    for (const s of before.list) assert.ok(sessionMembers(s.pid).length > 0, `session ${s.id} still runs`);

    const d2 = await startDaemon({ stateDir, key: null });
    t.after(() => stopDaemon(d2));
    assert.equal(d2.key, d1.key, 'a restart that keeps the sessions keeps the key');
    const after = {
      list: (await listed(d2)).map((s) => ({ id: s.id, name: s.name, pid: s.pid })),
      screens: [await screenText(d2, shell.session), await screenText(d2, full.session)],
      windows: [await freshWindowScreen(d2, shell.session), await freshWindowScreen(d2, full.session)],
    };
    assert.deepEqual(after.list, before.list, 'same ids, names, order and programs');
    assert.deepEqual(after.screens, before.screens, 'read-screen gives the same screens');
    assert.deepEqual(after.windows, before.windows, 'a fresh window is shown the same screens');
    assert.equal(after.screens[1].alternate, true);
    assert.equal(after.screens[1].title, 'the-title');

    // Input reaches the programs; the first window back drives.
    const w2 = await openWs(d2);
    t.after(() => w2.close());
    assert.equal(w2.hello.keeps_sessions, false, 'without --keep-sessions a stop ends them');
    assert.equal(w2.lastSessions.find((x) => x.id === shell.session)?.activity, 'waiting', 'its activity came back');
    const attached = await w2.attach({ session: shell.session });
    assert.equal(attached.driver, true, 'drivers are elected again');
    const from = w2.textLength;
    w2.type('echo "after-$((20+3))"\r');
    await w2.waitForOutput('after-23', { from });
    const fresh = await w2.newSession({ shell: 'bash' });
    assert.ok(fresh.session > full.session, `a new session gets a new id (${fresh.session})`);

    // SIGTERM (no --keep-sessions) ends every session, its host with it.
    const pids = (await listed(d2)).map((s) => s.pid);
    const stopped = await stopDaemon(d2);
    assert.equal(stopped.code, 0);
    for (const pid of pids) await waitFor(() => sessionMembers(pid).length === 0, { timeout: 5000, what: `session of ${pid} ended` });
    await waitFor(() => hostsOf(stateDir).length === 0, { timeout: 5000, what: 'no host left' });
  });

  test('--keep-sessions: Ctrl-C leaves the sessions running and says so to every window; a program that exits meanwhile is recorded with its real status', async (t) => {
    const d1 = await startDaemon({ key: null, args: ['--keep-sessions'] });
    const stateDir = d1.stateDir;
    const ws = await openWs(d1);
    t.after(() => ws.close());
    assert.equal(ws.hello.keeps_sessions, true, 'the hello says a stop keeps the sessions');
    const kept = await ws.newSession({ shell: 'bash' });
    await ws.waitForPrompt();
    const leaving = await ws.newSession({ shell: 'bash', name: 'leaving' });
    await ws.waitForPrompt();
    let from = ws.textLength;
    ws.type('sleep 1; exit 7\r');
    await ws.waitForOutput('exit 7', { from });
    const n = ws.messages.length;
    d1.child.kill('SIGINT');
    const stopping = await ws.waitForMessage('stopping', { from: n });
    assert.equal(stopping.sessions_kept, true, 'windows are told the sessions are kept');
    assert.deepEqual(await within(d1.exited, 10000, 'the daemon to stop'), { code: 0, signal: null });
    assert.equal(hostsOf(stateDir).length, 2, 'both hosts run on');
    await waitFor(() => sessionMembers(leaving.pid).length === 0, { timeout: 10000, what: 'the leaving shell to exit while no daemon runs' });

    const d2 = await startDaemon({ stateDir, key: null });
    t.after(() => stopDaemon(d2));
    assert.equal(d2.key, d1.key);
    const list = await listed(d2);
    assert.deepEqual(list.map((s) => s.id), [kept.session], 'only the live session is taken over');
    await waitFor(() => hostsOf(stateDir).length === 1, { timeout: 5000, what: 'the exited session\'s host to let go once recorded' });
    const history = await wharf(d2, ['history', '--json']);
    assert.equal(history.code, 0, history.stderr);
    const rows = JSON.parse(history.stdout);
    const row = rows.find((r) => r.id === leaving.session && r.name === 'leaving');
    assert.ok(row, history.stdout);
    assert.equal(row.status, 'exited', JSON.stringify(row));
    assert.equal(row.exit_code, 7, JSON.stringify(row));
    const screen = await wharf(d2, ['history', String(leaving.session), '--screen']);
    assert.equal(screen.code, 0, screen.stderr);
    assert.match(screen.stdout, /sleep 1; exit 7/, 'its last screen was kept, from its host');
    const keptRow = rows.find((r) => r.id === kept.session && r.status === 'running');
    assert.ok(keptRow, `the kept session is still running in the store: ${history.stdout}`);
  });

  test('wharf restart: the daemon comes back on the same port with the same key; windows reconnect to the same sessions', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const ws = await openWs(d);
    t.after(() => ws.close());
    const s = await ws.newSession({ shell: 'bash' });
    await ws.waitForPrompt();
    let from = ws.textLength;
    ws.type('echo "mark-$((3*3))"\r');
    await ws.waitForOutput('mark-9', { from });
    const pidBefore = d.child.pid;
    const n = ws.messages.length;
    const r = await wharf(d, ['restart']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /restarted; 1 session\(s\) running/);
    const stopping = await ws.waitForMessage('stopping', { from: n });
    assert.equal(stopping.sessions_kept, true);
    await ws.waitForClose();
    assert.equal(d.child.exitCode, null, 'the daemon process goes on (it replaced its own image)');
    assert.equal(d.child.pid, pidBefore);

    const again = await openWs(d);
    t.after(() => again.close());
    const attached = await again.attach({ session: s.session });
    assert.equal(attached.session, s.session);
    assert.ok(again.lastSnapshot.text.includes('mark-9'), 'the screen is the one before the restart');
    from = again.textLength;
    again.type('echo "back-$((4*4))"\r');
    await again.waitForOutput('back-16', { from });
  });

  test('a host that dies ends only its session, recorded as crashed; the daemon and the other sessions go on', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const ws = await openWs(d);
    t.after(() => ws.close());
    const victim = await ws.newSession({ shell: 'bash', name: 'victim' });
    await ws.waitForPrompt();
    const other = await ws.newSession({ shell: 'bash' });
    await ws.waitForPrompt();
    const hostOf = (pid) => hostsOf(d.stateDir).find((h) => procStat(pid)?.ppid === h);
    const victimHost = hostOf(victim.pid);
    assert.ok(victimHost, 'the victim\'s host is found');
    const victimCgroup = sessionCgroupDir(victim.pid); // null where no cgroup could be made
    const watcher = await openWs(d);
    t.after(() => watcher.close());
    await watcher.attach({ session: victim.session });
    const n = watcher.messages.length;
    process.kill(victimHost, 'SIGSEGV');
    const exit = await watcher.waitForMessage('exit', { from: n });
    assert.equal(exit.session, victim.session);
    await waitFor(() => sessionMembers(victim.pid).length === 0, { timeout: 5000, what: 'the victim\'s shell to end with its terminal' });
    assert.deepEqual((await listed(d)).map((s) => s.id), [other.session]);
    const from = ws.textLength;
    ws.type('echo "alive-$((5*5))"\r');
    await ws.waitForOutput('alive-25', { from });
    const history = await wharf(d, ['history', '--json']);
    const row = JSON.parse(history.stdout).find((r) => r.id === victim.session);
    assert.equal(row?.status, 'crashed', history.stdout);
    assert.deepEqual(readdirSync(join(d.stateDir, 'hosts')).sort(), [`${other.session}.sock`], 'the dead host\'s socket is gone');
    if (victimCgroup) await waitFor(() => !existsSync(victimCgroup), { timeout: 5000, what: `its cgroup ${victimCgroup} removed` });
  });

  test('a host of another protocol version is reported and left running, and its id is never handed out', async (t) => {
    const stateDir = mkdtempSync(join(tmpdir(), 'wharf-test-'));
    mkdirSync(join(stateDir, 'hosts'), { mode: 0o700 });
    // A host as a later wharf might speak: it answers hello with its own version only.
    const greeted = [];
    const server = net.createServer((socket) => {
      socket.once('data', (hello) => {
        greeted.push(hello[0]);
        const body = Buffer.from(JSON.stringify({ protocol: 99, version: '9.9.9' }));
        const header = Buffer.alloc(5);
        header[0] = 3; // state
        header.writeUInt32LE(body.length, 1);
        socket.end(Buffer.concat([header, body]));
      });
    });
    await new Promise((done) => server.listen(join(stateDir, 'hosts', '5.sock'), done));
    t.after(() => server.close());
    const d = await startDaemon({ stateDir });
    t.after(() => stopDaemon(d));
    assert.deepEqual(greeted, [2], 'the daemon said hello');
    assert.match(d.stderr, /session 5 is left running: its host is wharf 9\.9\.9 \(host protocol 99; this wharf speaks 1\)/);
    assert.deepEqual(await listed(d), [], 'it is not taken over');
    const r = await wharf(d, ['new']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), '6', 'ids of sessions alive elsewhere are skipped');
    assert.ok(readdirSync(join(stateDir, 'hosts')).includes('5.sock'), 'its socket is left alone');
  });

  test('upgrade in place: the binary is replaced on disk, `wharf restart` runs the new one and keeps the sessions', async (t) => {
    const binDir = mkdtempSync(join(tmpdir(), 'wharf-bin-'));
    t.after(() => rmSync(binDir, { recursive: true, force: true }));
    const installed = join(binDir, 'wharf');
    copyFileSync(wharfBin, installed);
    chmodSync(installed, 0o755);
    const d = await startDaemon({ bin: installed, args: ['--assets', join(dirname(wharfBin), 'web')] });
    t.after(() => stopDaemon(d));
    const ws = await openWs(d);
    t.after(() => ws.close());
    const s = await ws.newSession({ shell: 'bash' });
    await ws.waitForPrompt();
    let from = ws.textLength;
    ws.type('echo "old-$((2*21))"\r');
    await ws.waitForOutput('old-42', { from });
    const before = statSync(`/proc/${d.child.pid}/exe`).ino;
    // A new build lands on the same path (a new file, as `make install` or a package writes it).
    copyFileSync(wharfBin, `${installed}.new`);
    chmodSync(`${installed}.new`, 0o755);
    renameSync(`${installed}.new`, installed);
    assert.match(readlinkSync(`/proc/${d.child.pid}/exe`), /\(deleted\)$/, 'the running daemon\'s binary was replaced');
    const r = await runWharf(['restart', '--state-dir', d.stateDir]);
    assert.equal(r.code, 0, r.stderr);
    const after = statSync(`/proc/${d.child.pid}/exe`).ino;
    assert.notEqual(after, before, 'the daemon runs the new binary');
    assert.equal(after, statSync(installed).ino);
    const again = await openWs(d);
    t.after(() => again.close());
    await again.attach({ session: s.session });
    assert.ok(again.lastSnapshot.text.includes('old-42'));
    from = again.textLength;
    again.type('echo "new-$((3*3))"\r');
    await again.waitForOutput('new-9', { from });
  });

  test('wharf key rotate: a new link; windows opened with the old key are told and closed, and the old key opens nothing', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const ws = await openWs(d);
    t.after(() => ws.close());
    const s = await ws.newSession({ shell: 'bash' });
    await ws.waitForPrompt();
    const n = ws.messages.length;
    const r = await wharf(d, ['key', 'rotate']);
    assert.equal(r.code, 0, r.stderr);
    const url = new URL(r.stdout.trim());
    const key = url.searchParams.get('k');
    assert.match(key, /^[0-9a-f]{32}$/);
    assert.notEqual(key, d.key);
    await ws.waitForMessage('key_rotated', { from: n });
    const closed = await ws.waitForClose();
    assert.equal(closed.code, 4003, JSON.stringify(closed));
    assert.equal((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } })).status, 401, 'the old key is refused');
    assert.equal((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': key } })).status, 200, 'the new key opens it');
    assert.equal((await wharf(d, ['open'])).stdout.trim(), url.href, 'wharf open gives the new link');
    const again = await openWs({ ...d, key });
    t.after(() => again.close());
    const attached = await again.attach({ session: s.session });
    assert.equal(attached.session, s.session, 'the sessions are untouched');
    const refused = await wharf(d, ['key']);
    assert.notEqual(refused.code, 0, 'the action is required');
  });

  test('a second wharf serve on the same state dir is refused before it touches anything: the first keeps its sessions, key and address', async (t) => {
    const d = await startDaemon({ key: null });
    t.after(() => stopDaemon(d));
    const ws = await openWs(d);
    t.after(() => ws.close());
    const s = await ws.newSession({ shell: 'bash' });
    await ws.waitForPrompt();
    const files = () => ['key', 'url'].map((f) => readFileSync(join(d.stateDir, f), 'utf8'));
    const before = files();
    const second = await runWharf(['serve', '--port', '0', '--state-dir', d.stateDir]);
    assert.notEqual(second.code, 0);
    assert.match(second.stderr, /another wharf is already running with the state dir/);
    assert.deepEqual(files(), before, 'key and url untouched');
    assert.equal(ws.closeInfo, null, 'the window is still connected');
    const from = ws.textLength;
    ws.type('echo "still-$((8*8))"\r');
    await ws.waitForOutput('still-64', { from });
    const history = JSON.parse((await wharf(d, ['history', '--json'])).stdout);
    assert.equal(history.find((r) => r.id === s.session)?.status, 'running');
    assert.deepEqual((await listed(d)).map((x) => x.id), [s.session]);
  });

  test('SIGHUP (its terminal closed) keeps the sessions for the next wharf; wharf open says when no daemon answers', async (t) => {
    const d1 = await startDaemon({ key: null });
    const ws = await openWs(d1);
    t.after(() => ws.close());
    const s = await ws.newSession({ shell: 'bash' });
    await ws.waitForPrompt();
    const n = ws.messages.length;
    d1.child.kill('SIGHUP');
    const stopping = await ws.waitForMessage('stopping', { from: n });
    assert.equal(stopping.sessions_kept, true);
    assert.deepEqual(await within(d1.exited, 10000, 'the daemon to stop'), { code: 0, signal: null });
    assert.ok(sessionMembers(s.pid).length > 0, 'the session runs on');
    assert.match(d1.stderr, /SIGHUP received .*leaving 1 session\(s\) running/);
    const open = await wharf(d1, ['open']);
    assert.equal(open.code, 1, 'no daemon answers');
    assert.match(open.stderr, /start one with `wharf serve`/);
    const d2 = await startDaemon({ stateDir: d1.stateDir, key: null });
    t.after(() => stopDaemon(d2));
    assert.deepEqual((await listed(d2)).map((x) => x.id), [s.session]);
    const again = await wharf(d2, ['open']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout.trim(), d2.url);
  });

  test('the last screen of an ended session is kept unless its entry says keep_screen = false', async (t) => {
    const stateDir = mkdtempSync(join(tmpdir(), 'wharf-test-'));
    mkdirSync(join(stateDir, 'config', 'wharf'), { recursive: true });
    writeFileSync(join(stateDir, 'config', 'wharf', 'config.toml'), [
      '[actions.loud]', 'argv = ["/bin/sh", "-c", "echo loud-$((20+1)); sleep 0.3; exit 3"]', 'interactive = true',
      '[actions.quiet]', 'argv = ["/bin/sh", "-c", "echo quiet-$((20+2)); sleep 0.3; exit 3"]', 'interactive = true', 'keep_screen = false', '',
    ].join('\n'));
    const d = await startDaemon({ stateDir });
    t.after(() => stopDaemon(d));
    const ids = {};
    for (const name of ['loud', 'quiet']) {
      const r = await wharf(d, ['new', '--action', name]);
      assert.equal(r.code, 0, r.stderr);
      ids[name] = r.stdout.trim();
    }
    await waitFor(async () => (await listed(d)).length === 0, { timeout: 10000, what: 'both actions to exit' });
    const loud = await wharf(d, ['history', ids.loud, '--screen']);
    assert.equal(loud.code, 0, loud.stderr);
    assert.match(loud.stdout, /^loud-21$/m);
    const quiet = await wharf(d, ['history', ids.quiet, '--screen']);
    assert.notEqual(quiet.code, 0);
    assert.match(quiet.stderr, /no final screen kept for session/);
  });

  // 50 rounds of 8 in make check; WHARF_LEAK_ROUNDS=125 for the 1,000 of docs/hosts.md.
  const rounds = Number(process.env.WHARF_LEAK_ROUNDS ?? 50);
  test(`create and end ${rounds * 8} sessions: no host, process, descriptor or memory left behind`, async (t) => {
    const d = await startDaemon({ args: ['--max-sessions', '8'] });
    t.after(() => stopDaemon(d));
    const ws = await openWs(d);
    t.after(() => ws.close());
    const fds = () => readdirSync(`/proc/${d.child.pid}/fd`).length;
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${d.child.pid}/status`, 'utf8'))[1]);
    const cycle = async (count) => {
      const started = [];
      for (let i = 0; i < count; i++) {
        const s = await ws.newSession({ shell: 'sh' }, { timeout: 20000 });
        assert.equal(s.type, 'attached', JSON.stringify(s));
        started.push(s);
      }
      for (const s of started) ws.send({ type: 'end', session: s.session });
      await waitFor(async () => (await listed(d)).length === 0, { timeout: 20000, what: 'every session ended' });
    };
    await cycle(8); // warm-up: allocations that stay for the daemon's life
    await waitFor(() => hostsOf(d.stateDir).length === 0, { timeout: 5000, what: 'no host after the warm-up' });
    const base = { fds: fds(), rss: rss() };
    for (let round = 0; round < rounds; round++) await cycle(8);
    await waitFor(() => hostsOf(d.stateDir).length === 0, { timeout: 10000, what: 'no host left' });
    await waitFor(() => fds() <= base.fds, { timeout: 5000, what: `descriptors back to ${base.fds}` });
    const grown = rss() - base.rss;
    t.diagnostic(`${rounds * 8} sessions: descriptors ${base.fds} -> ${fds()}, RSS ${base.rss} -> ${rss()} KiB`);
    // A sanitizer's allocator keeps freed memory in quarantine: its RSS says nothing.
    if (!isSanitized(d.child.pid)) assert.ok(grown < 4096, `RSS grew by ${grown} KiB over ${rounds * 8} sessions`);
    assert.deepEqual(readdirSync(join(d.stateDir, 'hosts')), [], 'no socket left');
  });
});
