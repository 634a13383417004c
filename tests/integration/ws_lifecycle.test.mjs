// The life of a session seen from its WebSocket clients: the program exiting on its own
// (or by a signal) is reported, with its code, to every window attached to it and only to
// them; the windows stay connected (detached) and a later attach starts a fresh session
// only when asked to; output is relayed complete and in order under flow control; a
// handshake that never completes, and a window that answers no ping, are dropped.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { openWs, attachedWindow, stopDaemon, killSession, sessionPrograms, httpGet, within, procStat } from '../support/ws_client.mjs';

async function status(d) {
  return JSON.parse((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } })).body);
}

// Every test has its own daemon, so they run side by side.
describe('session lifecycle over WebSocket', { concurrency: 4 }, () => {
  test('`exit 7` sends exit (code 7, no signal, next) to every window attached to that session and only them; the windows stay open and detached; a new session needs start', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const a = await attachedWindow(t, d);
    const watchers = [];
    for (let i = 0; i < 2; i += 1) {
      const w = await openWs(d);
      t.after(() => w.close());
      const at = await w.attach({ session: a.attached.session });
      assert.equal(at.session, a.attached.session);
      assert.equal(at.driver, false);
      watchers.push(w);
    }
    // A window on another session (started with `new`) hears about the end only through
    // the sessions list.
    const other = await openWs(d);
    t.after(() => other.close());
    const o = await other.newSession();
    assert.equal(o.type, 'attached', JSON.stringify(o));
    t.after(() => killSession(o.pid));
    assert.notEqual(o.session, a.attached.session);
    await other.waitForPrompt();

    const marks = [a.ws, ...watchers, other].map((w) => w.messages.length);
    a.ws.type('exit 7\r');
    const exits = [];
    for (const [i, w] of [a.ws, ...watchers].entries()) {
      const exit = await w.waitForMessage('exit', { from: marks[i] });
      exits.push(exit);
      assert.equal(exit.session, a.attached.session);
      assert.equal(exit.code, 7);
      assert.equal(exit.signal, null);
      assert.equal(exit.next, o.session, 'next: the other live session (its only neighbour)');
    }
    assert.deepEqual(exits[1], exits[0]);
    assert.deepEqual(exits[2], exits[0]);
    // The program's end is not a stop: every window stays connected, attached to nothing.
    await waitFor(() => sessionPrograms(d).length === 1, { what: 'the exited shell reaped' });
    const gone = await other.waitForMessage((m) => m.type === 'sessions' && m.sessions.length === 1, { from: marks[3] });
    assert.equal(gone.sessions[0].id, o.session);
    for (const w of [a.ws, ...watchers, other]) {
      assert.ok(w.isOpen, `window ${w.window} is still connected`);
      assert.equal(w.closeInfo, null);
    }
    for (const w of [a.ws, ...watchers]) assert.equal(w.attached, null, 'attached to nothing after exit');
    assert.ok(!other.messages.slice(marks[3]).some((m) => m.type === 'exit'), 'a window on another session gets no exit');

    // The exited session is gone; attaching lands on the remaining one.
    assert.equal((await status(d)).sessions, 1);
    const back = await a.ws.attach();
    assert.equal(back.session, o.session);
    // End that one too: now nothing is live, reconnecting starts nothing, `start` does.
    const n = a.ws.messages.length;
    other.send({ type: 'end' });
    await a.ws.waitForMessage('exit', { from: n, timeout: 15000 });
    await waitFor(() => sessionPrograms(d).length === 0, { what: 'every session reaped' });
    const none = await watchers[0].tryAttach({});
    assert.deepEqual({ type: none.type, reason: none.reason, session: none.session }, { type: 'detached', reason: 'no_sessions', session: null });
    assert.deepEqual(sessionPrograms(d), [], 'attach without start started nothing');
    const fresh = await watchers[0].attach({ start: true });
    t.after(() => killSession(fresh.pid));
    assert.ok(fresh.session > o.session, `a new id, never reused: ${fresh.session} after ${a.attached.session} and ${o.session}`);
    assert.notEqual(fresh.pid, a.attached.pid);
    assert.equal(fresh.driver, true);
    await watchers[0].waitForPrompt();
    const from = watchers[0].textLength;
    watchers[0].type('echo fresh-$((8*8))\r');
    await watchers[0].waitForOutput('fresh-64', { from });
  });

  test('an ack of output received before `exit`, arriving after it, is not refused (the client could not know)', async (t) => {
    // The page acknowledges output once its terminal has processed it, so the ack for the
    // last bytes a program printed before exiting is often on the wire when `exit` is
    // sent. docs/protocol.md: `ack` is the running total since the last `attached`, and
    // `error` means a request was refused; a conforming client must not be refused.
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws, attached } = await attachedWindow(t, d, { autoAck: false });
    ws.sendAck();
    const n = ws.messages.length;
    ws.type('echo bye-$((6*7)); exit 7\r');
    await ws.waitForMessage('exit', { from: n });
    const total = ws.totalBytes; // every binary byte since `attached`, the snapshot included
    assert.ok(total > 0);
    assert.ok(ws.output.includes('bye-42'));
    const m = ws.messages.length;
    ws.ws.send(JSON.stringify({ type: 'ack', bytes: total }));
    await ws.request({ type: 'ping' }, 'pong');
    assert.deepEqual(ws.messages.slice(m).filter((x) => x.type === 'error'), [], `the late ack was refused (session ${attached.session})`);
  });

  test('a program killed by a signal is reported with the signal\'s name and a null code; the window stays open', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws, attached } = await attachedWindow(t, d);
    const n = ws.messages.length;
    ws.type('kill -KILL $$\r');
    const exit = await ws.waitForMessage('exit', { from: n });
    assert.equal(exit.session, attached.session);
    assert.equal(exit.code, null);
    assert.equal(typeof exit.signal, 'string');
    assert.match(exit.signal, /KILL/);
    assert.equal(exit.next, null, 'no other session to land on');
    await ws.request({ type: 'ping' }, 'pong');
    assert.ok(ws.isOpen);
    assert.equal(procStat(attached.pid)?.state ?? 'gone', 'gone', 'the shell was reaped');
  });

  test('output is relayed in order, and complete when the window keeps up (4 MiB through the PTY)', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    // The window acknowledges as it reads (flow control), so it normally gets every byte
    // live. If this process is starved long enough for 1 MiB to go unacknowledged, the
    // daemon skips it ahead with a snapshot instead: then every live stretch must still
    // be complete and in order, and the end must arrive.
    const { ws } = await attachedWindow(t, d);
    const from = ws.textLength;
    const snapshotsBefore = ws.snapshotCount;
    // 65,536 numbered lines of 64 bytes; the shell prints them, the client must get them all.
    ws.type("seq -f '%063g' 1 65536; echo total-$((1<<16))\r");
    await ws.waitForText('total-65536', { from, timeout: 30000 });
    const resyncs = ws.snapshots.filter((x) => x.liveOffset >= from).map((x) => x.liveOffset - from);
    assert.equal(resyncs.length, ws.snapshotCount - snapshotsBefore);
    const live = ws.outputFrom(from);
    const cuts = [0, ...resyncs, live.length];
    const stretches = [];
    for (let i = 0; i + 1 < cuts.length; i += 1) {
      const lines = live.slice(cuts[i], cuts[i + 1]).match(/(?<!\d)\d{63}(?=\r\n)/g) ?? [];
      for (let k = 1; k < lines.length; k += 1) {
        if (Number(lines[k]) !== Number(lines[k - 1]) + 1) assert.fail(`live stretch ${i}: line ${lines[k]} follows ${lines[k - 1]}`);
      }
      stretches.push(lines);
    }
    if (resyncs.length === 0) {
      const lines = stretches[0];
      assert.equal(lines.length, 65536, 'every line arrived');
      assert.equal(Number(lines[0]), 1);
      assert.equal(Number(lines[lines.length - 1]), 65536);
    } else {
      t.diagnostic(`the window fell behind ${resyncs.length} time(s) and was resynchronised; live stretches: ${stretches.map((l) => l.length ? `${Number(l[0])}..${Number(l[l.length - 1])}` : 'empty').join(', ')}`);
      assert.equal(Number(stretches[0][0]), 1, 'the first stretch starts at line 1');
    }
    assert.ok(ws.isOpen);
    assert.deepEqual(ws.messages.filter((m) => m.type === 'error'), [], 'no ack was refused');
  });

  test('a WebSocket handshake that never completes is dropped within a few seconds, and starts nothing', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const sock = net.connect(d.port, '127.0.0.1');
    t.after(() => sock.destroy());
    await new Promise((resolve, reject) => { sock.once('connect', resolve); sock.once('error', reject); });
    const ended = new Promise((resolve) => sock.once('close', resolve));
    sock.on('data', () => {});
    sock.on('error', () => {});
    // A valid upgrade request, minus the blank line that ends it.
    sock.write(`GET /ws?k=${d.key} HTTP/1.1\r\nHost: 127.0.0.1:${d.port}\r\nOrigin: ${d.origin}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n`);
    const started = performance.now();
    await within(ended, 10000, 'the daemon to drop a handshake left incomplete');
    assert.ok(performance.now() - started < 10000);
    assert.deepEqual(sessionPrograms(d), []);
  });

  test('a window that answers no ping for the window timeout is dropped; its session goes on', async (t) => {
    const d = await startDaemon({ args: ['--window-timeout', '10'] });
    t.after(() => stopDaemon(d));
    const { ws: gone, attached } = await attachedWindow(t, d);
    const observer = await openWs(d);
    t.after(() => observer.close());
    const windowsOn = () => observer.lastSessions?.find((s) => s.id === attached.session)?.windows;
    await waitFor(() => windowsOn() === 1, { what: 'the window counted on its session' });
    const started = performance.now();
    gone.pause(); // a dead network: nothing read, no ping answered
    await waitFor(() => windowsOn() === 0, { timeout: 30000, what: 'the silent window to be dropped' });
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds >= 9, `dropped after ${seconds.toFixed(1)} s, before the 10 s timeout`);
    gone.resume();
    await waitFor(() => gone.closeInfo, { what: 'the dropped window to see its socket close' });
    // The session lives on: a new window attaches to it and it still runs commands.
    const back = await openWs(d);
    t.after(() => back.close());
    assert.equal((await back.attach({ session: attached.session })).session, attached.session);
    await back.run('true');
  });
});
