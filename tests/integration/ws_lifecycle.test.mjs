// The life of a session seen from its WebSocket clients: the program exiting on its own
// (or by a signal) is reported to every window and closes them normally, the next
// connection starts a fresh session, output is relayed complete and in order, and a
// handshake that never completes is dropped.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { openWs, stopDaemon, killSession, childrenOf, httpGet, within } from '../support/ws_client.mjs';

// Attaches a window; the first one waits for the shell's prompt (later windows get no
// replay of it in protocol 1).
async function attach(t, d, { first = true } = {}) {
  const ws = await openWs(d);
  t.after(() => ws.close());
  const { ready } = await ws.handshake();
  t.after(() => killSession(ready.pid));
  if (first) await ws.waitForPrompt();
  return { ws, ready };
}

// Every test has its own daemon, so they run side by side.
describe('session lifecycle over WebSocket', { concurrency: 4 }, () => {
  test('a program that exits by itself sends exit (with its code) to every window, closes them with 1000, and the next connection starts a new session', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const a = await attach(t, d);
    const b = await attach(t, d, { first: false });
    assert.equal(b.ready.session, a.ready.session);
    const n = a.ws.messages.length;
    a.ws.type('exit 3\r');
    for (const { ws } of [a, b]) {
      const exit = await ws.waitForMessage('exit', { from: ws === a.ws ? n : 0 });
      assert.equal(exit.session, a.ready.session);
      assert.equal(exit.code, 3);
      assert.equal(exit.signal, null);
      const closed = await ws.waitForClose();
      assert.equal(closed.code, 1000);
    }
    await waitFor(() => childrenOf(d.child.pid).length === 0, { what: 'the shell reaped' });
    const status = JSON.parse((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } })).body);
    assert.equal(status.sessions, 0, 'the ended session is gone from the count');

    const c = await attach(t, d);
    assert.notEqual(c.ready.session, a.ready.session, 'a new session, not the ended one');
    assert.notEqual(c.ready.pid, a.ready.pid);
    const from = c.ws.textLength;
    c.ws.type('echo fresh-$((8*8))\r');
    await c.ws.waitForOutput('fresh-64', { from });
  });

  test('a program killed by a signal is reported with the signal\'s name and a null code', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws, ready } = await attach(t, d);
    const n = ws.messages.length;
    ws.type('kill -KILL $$\r');
    const exit = await ws.waitForMessage('exit', { from: n });
    assert.equal(exit.session, ready.session);
    assert.equal(exit.code, null);
    assert.equal(typeof exit.signal, 'string');
    assert.match(exit.signal, /KILL/);
    assert.equal((await ws.waitForClose()).code, 1000);
  });

  test('output is relayed complete and in order (4 MiB through the PTY)', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws } = await attach(t, d);
    const from = ws.textLength;
    // 65,536 numbered lines of 64 bytes; the shell prints them, the client must get them all.
    ws.type("seq -f '%063g' 1 65536; echo total-$((1<<16))\r");
    const out = await ws.waitForOutput('total-65536', { from, timeout: 30000 });
    const lines = out.match(/(?<!\d)\d{63}(?=\r\n)/g) ?? [];
    assert.equal(lines.length, 65536, 'every line arrived');
    for (let i = 0; i < lines.length; i += 1) {
      if (Number(lines[i]) !== i + 1) assert.fail(`line ${i + 1} is ${lines[i]}`);
    }
    assert.ok(ws.isOpen);
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
    const started = Date.now();
    await within(ended, 10000, 'the daemon to drop a handshake left incomplete');
    assert.ok(Date.now() - started < 10000);
    assert.deepEqual(childrenOf(d.child.pid), []);
  });
});
