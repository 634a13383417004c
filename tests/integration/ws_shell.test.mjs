// A WebSocket with key and Origin drives a real login shell in a real PTY: echo round
// trip, a clean fd table and environment, resize and its clamps, refused control messages
// that leave the session going, the 64 KiB message bound, and several windows on one
// session.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { startDaemon, waitFor, wharfBin } from '../support/daemon.mjs';
import { openWs, attachedWindow, stopDaemon, fdTargets, environOf, cmdline, httpGet, procStat, within } from '../support/ws_client.mjs';

// A daemon plus one window that started (and drives) a session whose shell has printed
// its prompt.
async function shellSession(t, { env, cwd, query = '' } = {}) {
  const d = await startDaemon({ env, cwd });
  t.after(() => stopDaemon(d));
  const { ws, attached } = await attachedWindow(t, d, { query });
  return { d, ws, hello: ws.hello, attached };
}

// Every test has its own daemon, so they run side by side.
describe('a WebSocket driving a real shell', { concurrency: 4 }, () => {
  test('binary frames are typed into a real login shell, started in the daemon\'s directory: echo round trip', async (t) => {
    const cwd = mkdtempSync(join(tmpdir(), 'wharf-cwd-'));
    t.after(() => rmSync(cwd, { recursive: true, force: true }));
    const { ws, attached } = await shellSession(t, { cwd });
    const from = ws.textLength;
    ws.type('echo round-$((20+22))\r');
    await ws.waitForOutput('round-42', { from });
    // The program is the user's login shell, as a login shell, in the daemon's directory.
    const shell = userInfo().shell;
    assert.equal(realpathSync(readlinkSync(`/proc/${attached.pid}/exe`)), realpathSync(shell), 'the session runs the user\'s login shell');
    const argv = cmdline(attached.pid);
    // bash gets wharf's shell integration (docs/api.md): started with --init-file, whose
    // file reads the login profile because the session would have been a login shell.
    const integrated = argv.includes('--init-file') && environOf(attached.pid).includes('WHARF_SHELL_LOGIN=1');
    assert.ok(argv[0].startsWith('-') || argv.includes('-l') || argv.includes('--login') || integrated, `started as a login shell: ${JSON.stringify(argv)}`);
    assert.equal(readlinkSync(`/proc/${attached.pid}/cwd`), realpathSync(cwd));
    assert.equal((await ws.run('pwd -P')).trim(), realpathSync(cwd));
  });

  test('ping gets pong', async (t) => {
    const { ws } = await shellSession(t);
    const n = ws.messages.length;
    ws.send({ type: 'ping' });
    await ws.waitForMessage('pong', { from: n });
  });

  // Objects a process holds, as /proc/PID/fd shows them (path, pipe:[inode], socket:[inode]...).
  function heldObjects(pid) {
    return new Set(Object.values(fdTargets(pid)));
  }

  test('the shell holds only its tty (0, 1, 2 and its own dup) and nothing shared with the daemon', async (t) => {
    const { d, ws, attached } = await shellSession(t);
    const fds = fdTargets(attached.pid);
    const names = Object.keys(fds).map(Number).sort((a, b) => a - b);
    for (const fd of [0, 1, 2]) assert.ok(names.includes(fd), `fd ${fd} is open: ${JSON.stringify(fds)}`);
    const tty = fds['0'];
    assert.match(tty, /^\/dev\/pts\/\d+$/);
    assert.equal(fds['1'], tty);
    assert.equal(fds['2'], tty);
    assert.equal((await ws.run('tty')).trim(), tty);
    // First the precise diagnosis: nothing else the shell holds is something the daemon
    // opened, or a socket, event fd or PTY master. (Objects this test process holds too were
    // inherited by the daemon from us; the next test covers those on purpose.)
    const ours = heldObjects(process.pid);
    const daemonHolds = new Set([...heldObjects(d.child.pid)].filter((o) => !ours.has(o)));
    for (const [fd, target] of Object.entries(fds)) {
      if (target === tty) continue;
      assert.ok(!daemonHolds.has(target), `fd ${fd} of the shell (${target}) is shared with the daemon`);
      assert.ok(!/^(socket:|anon_inode:|\/dev\/ptmx|\/dev\/pts\/ptmx)/.test(target), `fd ${fd} of the shell is ${target}`);
      assert.ok(!target.startsWith(d.stateDir), `fd ${fd} of the shell is in the state dir: ${target}`);
    }
    // And nothing at all but the tty: 0, 1, 2 and the shell's own dup of it.
    for (const [fd, target] of Object.entries(fds)) assert.equal(target, tty, `fd ${fd} of the shell points to ${target}, not its tty`);
    assert.ok(names.length <= 4, `only 0, 1, 2 and one dup of the tty: ${JSON.stringify(fds)}`);
    // The same seen from inside, as the user would check it, and for a child of the shell.
    const listing = await ws.run('ls -l /proc/$$/fd');
    const inside = Object.fromEntries([...listing.matchAll(/\s(\d+) -> (.+)$/gm)].map((m) => [m[1], m[2].replace(/^'|'$/g, '')]));
    assert.deepEqual(Object.keys(inside).sort(), Object.keys(fds).sort(), `inside view:\n${listing}`);
    // A program the shell starts sees the same: its 0, 1, 2 on the tty, plus only the
    // directory it opened itself to list /proc/self/fd.
    const own = await ws.run('ls -l /proc/self/fd');
    const ownFds = [...own.matchAll(/\s(\d+) -> (.+)$/gm)].map((m) => [m[1], m[2].replace(/^'|'$/g, '')]);
    assert.ok(ownFds.length >= 3, `ls -l /proc/self/fd:\n${own}`);
    for (const [fd, target] of ownFds) {
      if (/^\/proc\/\d+\/fd$/.test(target)) continue;
      assert.equal(target, tty, `fd ${fd} of a program started by the shell -> ${target}\n${own}`);
    }
    assert.ok(ownFds.length <= 5, `ls -l /proc/self/fd:\n${own}`);
  });

  test('an fd the daemon inherited without close-on-exec does not reach the shell', async (t) => {
    // The daemon gets an extra pipe as fd 3, not close-on-exec, the way a careless parent
    // (a supervisor, a shell with a stray fd) would hand it one.
    const stateDir = mkdtempSync(join(tmpdir(), 'wharf-test-'));
    const key = randomBytes(16).toString('hex');
    const child = spawn(wharfBin, ['serve', '--port', '0', '--state-dir', stateDir], {
      cwd: stateDir, env: { PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, WHARF_KEY: key },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    t.after(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await within(exited, 20000, 'daemon exit').catch(() => child.kill('SIGKILL'));
      rmSync(stateDir, { recursive: true, force: true });
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (x) => { out += x; });
    child.stderr.on('data', (x) => { err += x; });
    await waitFor(() => out.includes('\n'), { timeout: 15000, what: `the URL line; stderr:\n${err}` });
    const port = Number(new URL(out.trim()).port);
    const stray = readlinkSync(`/proc/${child.pid}/fd/3`);
    assert.match(stray, /^(pipe|socket):/, 'the daemon holds the stray fd 3');
    const { ws, attached } = await attachedWindow(t, { port, key, origin: `http://127.0.0.1:${port}` });
    const held = Object.entries(fdTargets(attached.pid)).filter(([, target]) => target === stray);
    assert.deepEqual(held, [], `the shell holds the daemon's inherited fd 3 (${stray})`);
    const listing = await ws.run('ls -l /proc/$$/fd');
    assert.ok(!listing.includes(stray), `inside, the shell shows ${stray}:\n${listing}`);
  });

  test('the shell\'s environment is built from scratch: TERM and COLORTERM set, no key, no daemon variables', async (t) => {
    const canary = `canary-${randomBytes(4).toString('hex')}`;
    const secret = `secret-${randomBytes(8).toString('hex')}`;
    const { d, ws, attached } = await shellSession(t, { env: { WHARF_TEST_CANARY: canary, SECRET_TOKEN: secret } });
    const forbidden = [d.key, canary, secret, 'WHARF_KEY', 'WHARF_TEST_CANARY', 'SECRET_TOKEN'];
    // What the daemon handed to exec.
    const initial = environOf(attached.pid);
    assert.ok(initial.includes('TERM=xterm-256color'), `initial env: ${JSON.stringify(initial)}`);
    assert.ok(initial.includes('COLORTERM=truecolor'), `initial env: ${JSON.stringify(initial)}`);
    for (const f of forbidden) assert.ok(!initial.join('\n').includes(f), `initial environment contains ${f}`);
    for (const name of ['PATH', 'HOME']) assert.ok(initial.some((e) => e.startsWith(`${name}=`)), `initial env has ${name}`);
    // What the shell shows.
    const env = (await ws.run('env')).split('\n');
    assert.ok(env.includes('TERM=xterm-256color'), `env:\n${env.join('\n')}`);
    assert.ok(env.includes('COLORTERM=truecolor'), `env:\n${env.join('\n')}`);
    for (const f of forbidden) assert.ok(!env.join('\n').includes(f), `env shows ${f}`);
    // Nowhere in the whole terminal stream either.
    for (const f of [d.key, canary, secret]) assert.ok(!ws.output.includes(f), `terminal output contains ${f}`);
  });

  test('resize changes the PTY size (stty size) and is clamped to 1..500 x 1..300', async (t) => {
    const { ws } = await shellSession(t);
    const resize = async (cols, rows, expect) => {
      const n = ws.messages.length;
      ws.send({ type: 'resize', cols, rows });
      const size = await ws.waitForMessage('size', { from: n, what: `size after resize ${cols}x${rows}` });
      assert.equal(size.cols, expect.cols, `cols after ${cols}x${rows}`);
      assert.equal(size.rows, expect.rows, `rows after ${cols}x${rows}`);
      assert.equal((await ws.run('stty size')).trim(), `${expect.rows} ${expect.cols}`, `stty size after ${cols}x${rows}`);
    };
    await resize(120, 40, { cols: 120, rows: 40 });
    await resize(100000, 0, { cols: 500, rows: 1 });
    // Two columns at least (a wide character must fit in a row, as in xterm.js).
    await resize(0, 100000, { cols: 2, rows: 300 });
    await resize(-5, 7, { cols: 2, rows: 7 });
    await resize(501, 301, { cols: 500, rows: 300 });
    await resize(500, 300, { cols: 500, rows: 300 });
    await resize(1, 1, { cols: 2, rows: 1 });
    await resize(97, 31, { cols: 97, rows: 31 });
  });

  test('the size asked in the WebSocket URL is the new session\'s size', async (t) => {
    const { ws, attached } = await shellSession(t, { query: '&cols=132&rows=43' });
    assert.equal(attached.cols, 132);
    assert.equal(attached.rows, 43);
    assert.equal((await ws.run('stty size')).trim(), '43 132');
  });

  test('the size asked in the WebSocket URL is clamped', async (t) => {
    const { ws, attached } = await shellSession(t, { query: '&cols=9999&rows=0' });
    assert.equal(attached.cols, 500);
    assert.equal(attached.rows, 1);
    assert.equal((await ws.run('stty size')).trim(), '1 500');
  });

  test('refused control messages get the documented error codes and the session goes on', async (t) => {
    const { ws } = await shellSession(t, { query: '&cols=90&rows=30' });
    const cases = [
      ['{bad', 'bad_json'],
      ['', 'bad_json'],
      ['{"type":"resize","cols":80,', 'bad_json'],
      ['[1,2]', 'bad_message'],
      ['"resize"', 'bad_message'],
      ['42', 'bad_message'],
      ['null', 'bad_message'],
      ['{}', 'bad_message'],
      ['{"type":5}', 'bad_message'],
      ['{"type":null}', 'bad_message'],
      ['{"type":"nope"}', 'unknown_type'],
      ['{"type":"RESIZE","cols":80,"rows":24}', 'unknown_type'],
      ['{"type":"resize","cols":"80","rows":24}', 'bad_field'],
      ['{"type":"resize","cols":80.5,"rows":24}', 'bad_field'],
      ['{"type":"resize","cols":80,"rows":24.25}', 'bad_field'],
      ['{"type":"resize","cols":80}', 'bad_field'],
      ['{"type":"resize"}', 'bad_field'],
      ['{"type":"resize","cols":null,"rows":24}', 'bad_field'],
      ['{"type":"resize","cols":true,"rows":24}', 'bad_field'],
      ['{"type":"resize","cols":[80],"rows":24}', 'bad_field'],
      ['{"type":"attach","session":"1"}', 'bad_field'],
      ['{"type":"attach","start":"yes"}', 'bad_field'],
      ['{"type":"ack"}', 'bad_field'],
      ['{"type":"ack","bytes":"1"}', 'bad_field'],
      ['{"type":"ack","bytes":-1}', 'bad_field'],
      ['{"type":"rename","name":"x"}', 'bad_field'],
      ['{"type":"reorder"}', 'bad_field'],
      ['{"type":"reorder","order":"1"}', 'bad_field'],
      ['{"type":"end","session":999}', 'no_session'],
      ['{"type":"rename","session":999,"name":"x"}', 'no_session'],
    ];
    const before = ws.messages.length;
    for (const [text, code] of cases) {
      const n = ws.messages.length;
      ws.sendText(text);
      const err = await ws.waitForMessage((m) => m.type === 'error', { from: n, what: `error for ${JSON.stringify(text)}` });
      assert.equal(err.code, code, `error code for ${JSON.stringify(text)}`);
      assert.equal(typeof err.message, 'string', `error message for ${JSON.stringify(text)}`);
      assert.ok(err.message.length > 0);
    }
    assert.ok(ws.isOpen, 'the connection is still open');
    assert.ok(!ws.messages.some((m) => m.type === 'size'), 'no refused resize changed the size');
    assert.ok(!ws.messages.slice(before).some((m) => ['attached', 'detached', 'exit', 'snapshot'].includes(m.type)), 'no refused message attached, detached or ended anything');
    assert.equal(ws.lastSessions.length, 1);
    assert.equal(ws.lastSessions[0].name, `${ws.lastSessions[0].program} 1`, 'no refused rename renamed anything');
    assert.deepEqual(ws.nonJsonText, [], 'every text frame from the server is JSON');
    // The session goes on, at its original size.
    assert.equal((await ws.run('stty size')).trim(), '30 90');
    const from = ws.textLength;
    ws.type('echo still-$((6*7))\r');
    await ws.waitForOutput('still-42', { from });
    const n = ws.messages.length;
    ws.send({ type: 'ping' });
    await ws.waitForMessage('pong', { from: n });
  });

  for (const deflate of [false, true]) {
    test(`a client message over 64 KiB closes the connection with 1009, the session goes on${deflate ? ' (permessage-deflate offered)' : ''}`, async (t) => {
      const d = await startDaemon();
      t.after(() => stopDaemon(d));
      const { ws: ws1, attached } = await attachedWindow(t, d, { perMessageDeflate: deflate });
      ws1.type('x'.repeat(64 * 1024 + 1));
      const closed = await ws1.waitForClose();
      assert.equal(closed.code, 1009, `binary: ${JSON.stringify(closed)}`);

      const ws2 = await openWs(d, { perMessageDeflate: deflate });
      t.after(() => ws2.close());
      const r2 = await ws2.attach();
      assert.equal(r2.session, attached.session, 'the session survived the oversized message');
      ws2.sendText(JSON.stringify({ type: 'ping', pad: 'x'.repeat(64 * 1024) }));
      const closed2 = await ws2.waitForClose();
      assert.equal(closed2.code, 1009, `text: ${JSON.stringify(closed2)}`);

      const ws3 = await openWs(d, { perMessageDeflate: deflate });
      t.after(() => ws3.close());
      const r3 = await ws3.attach();
      assert.equal(r3.session, attached.session);
      assert.equal(r3.driver, true, 'with the other windows gone, the new window drives');
      const from = ws3.textLength;
      ws3.type('\x15echo after-$((40+2))\r');
      await ws3.waitForOutput('after-42', { from });
    });
  }

  test('an oversized message sent as many small fragments also closes with 1009', async (t) => {
    const { d, ws, attached } = await shellSession(t);
    // 17 fragments of 4 KiB: no frame is large, the message is 68 KiB.
    for (let i = 0; i < 17; i += 1) ws.ws.send(Buffer.alloc(4096, 'x'), { binary: true, fin: i === 16 });
    const closed = await ws.waitForClose();
    assert.equal(closed.code, 1009, JSON.stringify(closed));
    const ws2 = await openWs(d);
    t.after(() => ws2.close());
    const r2 = await ws2.attach();
    assert.equal(r2.session, attached.session);
    assert.equal(r2.driver, true, 'the window that was closed no longer drives');
    const from = ws2.textLength;
    ws2.type('\x15echo frag-$((30+3))\r');
    await ws2.waitForOutput('frag-33', { from });
  });

  test('a binary message of exactly 64 KiB is accepted and reaches the program intact', async (t) => {
    const { ws } = await shellSession(t);
    let from = ws.textLength;
    ws.type('stty -echo; echo go-$((1+1)); wc -c; echo counted-$((2+2)); stty echo\r');
    await ws.waitForOutput('go-2', { from });
    const line = `${'x'.repeat(63)}\n`;
    const big = Buffer.from(line.repeat(1024));
    assert.equal(big.length, 64 * 1024);
    from = ws.textLength;
    ws.ws.send(big, { binary: true });
    ws.type('\x04');
    const out = await ws.waitForOutput(/(\d+)\s+counted-4/, { from, timeout: 20000 });
    assert.equal(Number(out.match(/(\d+)\s+counted-4/)[1]), 64 * 1024);
    assert.ok(ws.isOpen);
  });

  test('a second WebSocket attaches to the same session as a watcher; closing the driver promotes it and ends nothing', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws: ws1, attached: r1 } = await attachedWindow(t, d);
    const ws2 = await openWs(d);
    t.after(() => ws2.close());
    const r2 = await ws2.attach(); // no start: it lands on the live session
    assert.equal(r2.session, r1.session);
    assert.equal(r2.pid, r1.pid);
    assert.equal(r2.driver, false, 'the second window watches');

    // Output of what the driver types reaches the watcher live.
    const from2 = ws2.textLength;
    ws1.type('echo both-$((5*5))\r');
    await ws1.waitForOutput('both-25');
    await ws2.waitForOutput('both-25', { from: from2 });

    // The driver goes away: the watcher is told it drives now, and its input goes in.
    const n2 = ws2.messages.length;
    await ws1.close();
    const promoted = await ws2.waitForMessage('driver', { from: n2, what: 'driver after the driving window closed' });
    assert.equal(promoted.session, r1.session);
    assert.equal(promoted.driver, true);
    const from = ws2.textLength;
    ws2.type('echo alone-$((7*7))\r');
    await ws2.waitForOutput('alone-49', { from });
    assert.ok(procStat(r1.pid), 'the shell still runs');
    assert.ok(!ws2.messages.some((m) => m.type === 'exit'));

    // With every window closed the session still goes on, and the next one attaches to it.
    await ws2.close();
    const status = JSON.parse((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } })).body);
    assert.equal(status.sessions, 1);
    const ws3 = await openWs(d);
    t.after(() => ws3.close());
    assert.equal(ws3.lastSessions.length, 1, 'the new window is told about the live session');
    assert.equal(ws3.lastSessions[0].id, r1.session);
    const r3 = await ws3.attach();
    assert.equal(r3.session, r1.session);
    assert.equal(r3.pid, r1.pid);
    assert.equal(r3.driver, true);
    assert.match(ws3.lastSnapshot.text, /alone-49/, 'its snapshot shows the screen as left');
    const p = await waitFor(() => procStat(r1.pid), { what: 'shell alive' });
    assert.notEqual(p.state, 'Z');
  });
});
