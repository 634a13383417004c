// One window drives a session, the others watch (issue 3): a watcher's input is refused
// with not_driver and never reaches the program, its size changes nothing, it can take the
// session over, the window that lost it is told and can take it back, and when the driver
// goes away a watcher is promoted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startDaemon } from '../support/daemon.mjs';
import { openWs, attachedWindow, stopDaemon } from '../support/ws_client.mjs';

// Types `echo NAME-<id>-$((50+8))`; returns the typed and the printed form of the marker
// (they differ, so the echo of the typed line never matches the printed one).
function typeMarker(w, name) {
  const id = randomBytes(4).toString('hex');
  w.type(`echo ${name}-${id}-$((50+8))\r`);
  return { typed: `${name}-${id}-$((50+8))`, printed: `${name}-${id}-58`, id };
}

// Sends input from a window that is not driving; resolves with the not_driver error.
async function refusedInput(w, text) {
  const n = w.messages.length;
  w.type(text);
  const err = await w.waitForMessage('error', { from: n, what: 'the error for a watcher\'s input' });
  assert.equal(err.code, 'not_driver', JSON.stringify(err));
  assert.equal(typeof err.message, 'string');
  assert.ok(err.message.length > 0);
  return err;
}

describe('driver and watchers', { concurrency: 3 }, () => {
  test('a second window watches: its input is refused (not_driver) and never reaches the shell; take-over works both ways', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws: a, attached } = await attachedWindow(t, d);
    assert.equal(attached.driver, true);
    const b = await openWs(d);
    t.after(() => b.close());
    const bAt = await b.attach();
    assert.equal(bAt.session, attached.session);
    assert.equal(bAt.driver, false, 'the second window is a watcher');
    const list = await b.waitForMessage((m) => m.type === 'sessions' && m.sessions[0]?.windows === 2);
    assert.equal(list.sessions[0].driver, a.window, 'the list names the first window as the driver');

    // The watcher types: refused, and the shell never sees it.
    const stray = { id: randomBytes(4).toString('hex') };
    await refusedInput(b, `echo watcher-${stray.id}\r`);
    // A round trip through the shell from the driver: anything typed before it would have
    // been echoed (or run) by now.
    await a.run('true');
    const check = await a.run('echo checked');
    assert.equal(check.trim(), 'checked');
    for (const w of [a, b]) {
      assert.ok(!w.output.includes(`watcher-${stray.id}`), `window ${w.window} output shows the watcher's input`);
    }
    const fresh = await openWs(d);
    t.after(() => fresh.close());
    await fresh.attach();
    assert.ok(!fresh.lastSnapshot.text.includes(`watcher-${stray.id}`), 'the screen shows the watcher\'s input');

    // The watcher takes over.
    const na = a.messages.length;
    const nb = b.messages.length;
    b.send({ type: 'take' });
    const gained = await b.waitForMessage('driver', { from: nb });
    assert.deepEqual({ session: gained.session, driver: gained.driver }, { session: attached.session, driver: true });
    const lost = await a.waitForMessage('driver', { from: na });
    assert.deepEqual(lost, { type: 'driver', session: attached.session, driver: false, by: b.window });
    const listed = await a.waitForMessage((m) => m.type === 'sessions' && m.sessions[0]?.driver === b.window, { from: na });
    assert.equal(listed.sessions[0].id, attached.session);

    // Now the first window's input is refused and the second's accepted.
    const lostMarker = randomBytes(4).toString('hex');
    await refusedInput(a, `echo first-${lostMarker}\r`);
    let from = b.textLength;
    const ok = typeMarker(b, 'second');
    await b.waitForOutput(ok.printed, { from });
    await a.waitForOutput(ok.printed, { what: 'the watcher (first window) sees the driver\'s output' });
    assert.ok(!a.output.includes(`first-${lostMarker}`) && !b.output.includes(`first-${lostMarker}`), 'the refused input reached the shell');

    // The first window takes it back.
    const na2 = a.messages.length;
    const nb2 = b.messages.length;
    a.send({ type: 'take' });
    assert.equal((await a.waitForMessage('driver', { from: na2 })).driver, true);
    const lost2 = await b.waitForMessage('driver', { from: nb2 });
    assert.deepEqual(lost2, { type: 'driver', session: attached.session, driver: false, by: a.window });
    await refusedInput(b, 'echo nope\r');
    from = a.textLength;
    const back = typeMarker(a, 'first-again');
    await a.waitForOutput(back.printed, { from });
    // Taking what you already drive changes nothing and is not an error.
    const na3 = a.messages.length;
    a.send({ type: 'take' });
    await a.request({ type: 'ping' }, 'pong');
    assert.ok(!a.messages.slice(na3).some((m) => m.type === 'error'), JSON.stringify(a.messages.slice(na3)));
  });

  test('a watcher\'s size changes nothing; the driver\'s is the PTY size', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws: a } = await attachedWindow(t, d, { query: '&cols=100&rows=30' });
    const b = await openWs(d, { query: '&cols=60&rows=10' });
    t.after(() => b.close());
    const bAt = await b.attach();
    assert.deepEqual({ cols: bAt.cols, rows: bAt.rows }, { cols: 100, rows: 30 }, 'a watcher attaching does not resize');
    const nb = b.messages.length;
    const na = a.messages.length;
    b.send({ type: 'resize', cols: 70, rows: 12 });
    await b.request({ type: 'ping' }, 'pong');
    assert.ok(!a.messages.slice(na).some((m) => m.type === 'size'), 'no size change reached the driver');
    assert.ok(!b.messages.slice(nb).some((m) => m.type === 'size'));
    assert.equal((await a.run('stty size')).trim(), '30 100');
    // The driver resizes: every window is told.
    const nb2 = b.messages.length;
    a.send({ type: 'resize', cols: 90, rows: 25 });
    const size = await b.waitForMessage('size', { from: nb2 });
    assert.deepEqual({ cols: size.cols, rows: size.rows }, { cols: 90, rows: 25 });
    assert.equal((await a.run('stty size')).trim(), '25 90');
  });

  test('detach: the window watches nothing (detached, requested), its input and take get no_session, the driver lease passes on, the session goes on', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws: a, attached } = await attachedWindow(t, d);
    const b = await openWs(d);
    t.after(() => b.close());
    await b.attach();
    const nb = b.messages.length;
    const reply = await a.request({ type: 'detach' }, (m) => m.type === 'detached');
    assert.deepEqual(reply, { type: 'detached', session: attached.session, reason: 'requested' });
    assert.equal((await b.waitForMessage('driver', { from: nb })).driver, true, 'the remaining window drives now');
    const n = a.messages.length;
    a.type('echo from-nowhere\r');
    assert.equal((await a.waitForMessage('error', { from: n })).code, 'no_session');
    const m = a.messages.length;
    a.send({ type: 'take' });
    assert.equal((await a.waitForMessage('error', { from: m })).code, 'no_session');
    // Nothing reaches a detached window, and the session goes on.
    const before = a.totalBytes;
    const from = b.textLength;
    b.type('echo still-here-$((3*3))\r');
    await b.waitForOutput('still-here-9', { from });
    await a.request({ type: 'ping' }, 'pong');
    assert.equal(a.totalBytes, before, 'a detached window is sent no output');
    const list = await a.waitForMessage((x) => x.type === 'sessions' && x.sessions[0]?.windows === 1 && x.sessions[0]?.driver === b.window);
    assert.equal(list.sessions[0].id, attached.session);
  });

  test('when the driver disconnects the watcher is promoted (driver: true) and its input goes in', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws: a, attached } = await attachedWindow(t, d);
    const b = await openWs(d);
    t.after(() => b.close());
    assert.equal((await b.attach()).driver, false);
    const c = await openWs(d);
    t.after(() => c.close());
    assert.equal((await c.attach()).driver, false);
    const nb = b.messages.length;
    const nc = c.messages.length;
    await a.drop();
    // Exactly one of the watchers is promoted; the other keeps watching.
    const promoted = await Promise.any([b, c].map((w, i) => w.waitForMessage('driver', { from: [nb, nc][i] }).then((m) => ({ w, m }))));
    assert.deepEqual({ session: promoted.m.session, driver: promoted.m.driver }, { session: attached.session, driver: true });
    const other = promoted.w === b ? c : b;
    const list = await other.waitForMessage((m) => m.type === 'sessions' && m.sessions[0]?.driver === promoted.w.window);
    assert.equal(list.sessions[0].windows, 2);
    assert.ok(!other.messages.slice(other === b ? nb : nc).some((m) => m.type === 'driver' && m.driver === true), 'only one window drives');
    const from = promoted.w.textLength;
    const mk = typeMarker(promoted.w, 'promoted');
    await promoted.w.waitForOutput(mk.printed, { from });
    await refusedInput(other, 'echo still-watching\r');
  });
});
