// Driving from two devices (issue 13): a driving window whose socket closes (a reload)
// keeps its lease for a short grace, reserved for the window token it attached with, so
// a watching phone is not handed the session by a desktop's reload. The same token back
// within the grace drives again, and the watcher never drove in between; a different
// token only watches; when the grace runs out the lease passes as it always did (the
// window attached longest); an explicit take during the grace wins at once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startDaemon } from '../support/daemon.mjs';
import { openWs, killSession, stopDaemon } from '../support/ws_client.mjs';

const token = () => randomBytes(16).toString('hex');

// A daemon whose driver grace is `ms` (config `[sessions] driver_grace_ms`).
async function daemonWithGrace(t, ms) {
  const dir = mkdtempSync(join(tmpdir(), 'wharf-grace-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'config.toml');
  writeFileSync(config, `[sessions]\ndriver_grace_ms = ${ms}\n`);
  const d = await startDaemon({ args: ['--config', config] });
  t.after(() => stopDaemon(d));
  return d;
}

// Window A (token ta) drives the session, window B (token tb) watches it.
async function driverAndWatcher(t, d) {
  const ta = token();
  const a = await openWs(d);
  t.after(() => a.close());
  const attached = await a.attach({ start: true, window_token: ta });
  t.after(() => killSession(attached.pid));
  assert.equal(attached.driver, true);
  await a.waitForPrompt();
  const b = await openWs(d);
  t.after(() => b.close());
  const bAt = await b.attach({ window_token: token() });
  assert.equal(bAt.driver, false);
  return { a, b, ta, session: attached.session };
}

function drove(w, from = 0) {
  return w.messages.slice(from).some((m) => (m.type === 'driver' || m.type === 'attached') && m.driver === true);
}

describe('driver grace', { concurrency: 3 }, () => {
  test('a driver that reconnects with its token within the grace drives again; the watcher never drove', async (t) => {
    const d = await daemonWithGrace(t, 60000);
    const { a, b, ta, session } = await driverAndWatcher(t, d);
    const nb = b.messages.length;
    await a.close();
    // The list still names the closed window as the driver: nobody else was promoted.
    const list = await b.waitForMessage((m) => m.type === 'sessions' && m.sessions[0]?.windows === 1, { from: nb });
    assert.equal(list.sessions[0].driver, a.window);
    // While the lease waits, the watcher's input is refused as before.
    const ne = b.messages.length;
    b.type('echo stray\r');
    assert.equal((await b.waitForMessage('error', { from: ne })).code, 'not_driver');

    const a2 = await openWs(d);
    t.after(() => a2.close());
    const back = await a2.attach({ session, window_token: ta });
    assert.equal(back.driver, true, 'the reloaded window drives again');
    await b.waitForMessage((m) => m.type === 'sessions' && m.sessions[0]?.driver === a2.window, { from: nb });
    assert.ok(!drove(b, nb), `the watcher was handed the session: ${JSON.stringify(b.messages.slice(nb))}`);
    const out = await a2.run('echo back-$((40+2))');
    assert.equal(out.trim(), 'back-42');
  });

  test('another token only watches during the grace; when the grace runs out the watcher attached longest drives', async (t) => {
    const grace = 1500;
    const d = await daemonWithGrace(t, grace);
    const { a, b, session } = await driverAndWatcher(t, d);
    const nb = b.messages.length;
    const closedAt = performance.now();
    await a.close();
    const stranger = await openWs(d);
    t.after(() => stranger.close());
    const sAt = await stranger.attach({ session, window_token: token() });
    assert.equal(sAt.driver, false, 'a different token does not get the kept lease');
    const bare = await openWs(d);
    t.after(() => bare.close());
    assert.equal((await bare.attach({ session })).driver, false, 'no token gets nothing either');
    const gained = await b.waitForMessage((m) => m.type === 'driver' && m.driver === true, { from: nb, timeout: grace + 10000 });
    assert.equal(gained.session, session);
    assert.ok(performance.now() - closedAt >= grace - 50, 'the lease passed before the grace ran out');
    assert.ok(!drove(stranger) && !drove(bare), 'the lease went to the window attached longest');
    // The window that comes back too late is a watcher.
    const late = await openWs(d);
    t.after(() => late.close());
    assert.equal((await late.attach({ session, window_token: token() })).driver, false);
  });

  test('an explicit take during the grace wins at once; the reloaded window then watches', async (t) => {
    const d = await daemonWithGrace(t, 60000);
    const { a, b, ta, session } = await driverAndWatcher(t, d);
    await a.close();
    const nb = b.messages.length;
    b.send({ type: 'take' });
    const gained = await b.waitForMessage('driver', { from: nb });
    assert.equal(gained.driver, true);
    const a2 = await openWs(d);
    t.after(() => a2.close());
    assert.equal((await a2.attach({ session, window_token: ta })).driver, false);
    const out = await b.run('echo taken-$((40+1))');
    assert.equal(out.trim(), 'taken-41');
  });

  test('a window that moves to another session by itself hands the lease on at once', async (t) => {
    const d = await daemonWithGrace(t, 60000);
    const { a, b, session } = await driverAndWatcher(t, d);
    const nb = b.messages.length;
    const other = await a.newSession({});
    assert.equal(other.type, 'attached', JSON.stringify(other));
    t.after(() => killSession(other.pid));
    assert.notEqual(other.session, session);
    assert.equal((await b.waitForMessage('driver', { from: nb })).driver, true);
  });

  test('a window token that is not 32 to 64 hex digits is refused and not echoed', async (t) => {
    const d = await daemonWithGrace(t, 60000);
    const w = await openWs(d);
    t.after(() => w.close());
    const reply = await w.tryAttach({ start: true, window_token: 'Secret-Not-Hex' });
    assert.equal(reply.type, 'error');
    assert.equal(reply.code, 'bad_field');
    assert.ok(!JSON.stringify(reply).includes('Secret-Not-Hex'));
  });
});
