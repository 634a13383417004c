// The WebSocket handshake: key, Host and Origin are checked before the upgrade, and a
// refused handshake starts nothing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { tryUpgrade, openWs, sessionPrograms, httpGet, stopDaemon, procStat, killSession } from '../support/ws_client.mjs';

// Every test has its own daemon, so they run side by side.
describe('WebSocket handshake checks', { concurrency: 3 }, () => {
  test('foreign origins, missing origin, a wrong Host and a missing or wrong key are refused with 403 before the upgrade, and no process is started', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const wrongKey = randomBytes(16).toString('hex');
    const attempts = [
      { what: 'origin on another port', origin: `http://127.0.0.1:${d.port === 65535 ? 1 : d.port + 1}` },
      { what: 'origin on another host', origin: `http://evil.example:${d.port}` },
      { what: 'origin localhost while Host is 127.0.0.1', origin: `http://localhost:${d.port}` },
      { what: 'origin with https scheme', origin: `https://127.0.0.1:${d.port}` },
      { what: 'origin without port', origin: 'http://127.0.0.1' },
      { what: 'origin that only starts like ours', origin: `http://127.0.0.1:${d.port}.evil.example` },
      { what: 'origin with our origin as a prefix of the port', origin: `http://127.0.0.1:${d.port}0` },
      { what: 'origin null', origin: 'null' },
      { what: 'no Origin header', origin: undefined },
      { what: 'empty Origin header', origin: '' },
      { what: 'no key', path: '/ws', origin: d.origin },
      { what: 'empty key', path: '/ws?k=', origin: d.origin },
      { what: 'wrong key', key: wrongKey, origin: d.origin },
      { what: 'key with an extra character', key: `${d.key}0`, origin: d.origin },
      { what: 'truncated key', key: d.key.slice(0, 31), origin: d.origin },
      { what: 'DNS rebinding: foreign Host with a matching Origin', origin: `http://evil.example:${d.port}`, headers: { Host: `evil.example:${d.port}` } },
      { what: 'foreign Host and our Origin', origin: d.origin, headers: { Host: `evil.example:${d.port}` } },
      { what: 'no Host header', origin: d.origin, setHost: false },
    ];
    for (const { what, ...opts } of attempts) {
      const r = await tryUpgrade(d, opts);
      assert.equal(r.upgraded, false, `${what}: the upgrade must be refused`);
      assert.equal(r.status, 403, `${what}: status`);
      assert.ok(!r.body.includes(d.key), `${what}: the refusal contains the key`);
    }
    // The daemon answered every refusal; a status request shows no session and the daemon
    // has no child process at all.
    const status = await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } });
    assert.equal(status.status, 200);
    assert.equal(JSON.parse(status.body).sessions, 0, 'no session after refused handshakes');
    assert.deepEqual(sessionPrograms(d), [], 'the daemon must have no child process after refused handshakes');
  });

  test('a WebSocket with key and Origin gets hello (protocol 2, its window id) then the sessions list, and starts nothing until it attaches', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    assert.deepEqual(sessionPrograms(d), []);
    const ws = await openWs(d);
    t.after(() => ws.close());
    const { hello, sessions } = await ws.handshake();
    assert.equal(ws.messages[0].type, 'hello', 'hello is the first message');
    assert.equal(hello.protocol, 2);
    assert.equal(typeof hello.server, 'string');
    assert.match(hello.server, /wharf/);
    assert.ok(Number.isInteger(hello.window) && hello.window > 0, `hello carries the window id: ${hello.window}`);
    assert.equal(sessions.type, 'sessions', 'the sessions list comes right after hello');
    assert.deepEqual(sessions.sessions, [], 'a fresh daemon has no session');
    // Connecting is not attaching: nothing runs yet.
    const idle = JSON.parse((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } })).body);
    assert.equal(idle.sessions, 0);
    assert.equal(idle.protocol, 2);
    assert.deepEqual(sessionPrograms(d), [], 'an open window alone starts nothing');

    const n = ws.messages.length;
    const attached = await ws.attach({ start: true });
    const replies = ws.messages.slice(n);
    const at = replies.indexOf(attached);
    assert.equal(replies[at + 1]?.type, 'snapshot', `the snapshot message follows attached: ${JSON.stringify(replies)}`);
    assert.equal(replies[at + 1].session, attached.session);
    assert.equal(replies[at + 1].bytes, ws.lastSnapshot.bytes.length, 'the binary frame after snapshot is `bytes` long');
    assert.ok(Number.isInteger(attached.session) && attached.session > 0, `attached carries a positive session id: ${attached.session}`);
    assert.equal(attached.driver, true, 'the window that started the session drives it');
    assert.ok(Number.isInteger(attached.pid) && attached.pid > 1, `attached carries the pid: ${attached.pid}`);
    assert.ok(Number.isInteger(attached.cols) && attached.cols >= 1 && attached.cols <= 500);
    assert.ok(Number.isInteger(attached.rows) && attached.rows >= 1 && attached.rows <= 300);
    t.after(() => killSession(attached.pid));
    await ws.waitForPrompt();
    // The pid is the daemon's child, leader of its own session and process group, with a
    // controlling terminal.
    const kids = await waitFor(() => { const k = sessionPrograms(d); return k.length ? k : null; }, { what: 'the session child' });
    assert.deepEqual(kids, [attached.pid]);
    const st = procStat(attached.pid);
    assert.ok(st, 'the session process exists');
    assert.equal(st.session, attached.pid, 'the child leads its own session');
    assert.equal(st.pgrp, attached.pid, 'the child leads its own process group');
    assert.notEqual(st.ttyNr, 0, 'the child has a controlling terminal');
    const status = JSON.parse((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } })).body);
    assert.equal(status.sessions, 1);
    assert.equal(status.attached, 1);
    // Every window (this one included) was told about the new session.
    const list = await ws.waitForMessage((m) => m.type === 'sessions' && m.sessions.length === 1 && m.sessions[0].driver !== null, { from: n, what: 'the list with the new session and its driver' });
    assert.equal(list.sessions[0].id, attached.session);
    assert.equal(list.sessions[0].driver, hello.window, 'the list names this window as the driver');
    assert.equal(list.sessions[0].windows, 1);
    assert.equal(list.sessions[0].status, 'running');
  });

  test('Host localhost:PORT with Origin http://localhost:PORT is accepted', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const ws = await openWs(d, { origin: `http://localhost:${d.port}`, headers: { Host: `localhost:${d.port}` } });
    t.after(() => ws.close());
    assert.equal(ws.hello.protocol, 2);
    const attached = await ws.attach({ start: true });
    t.after(() => killSession(attached.pid));
    assert.equal(attached.driver, true);
    await ws.waitForPrompt();
  });
});
