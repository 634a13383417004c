// Paired devices (docs/remote.md, "Pairing a phone"): a `?k=` page visit is traded for a
// device cookie and a clean address; the cookie opens the page, the API and the WebSocket;
// devices.json holds only hashes; devices survive a restart and a key rotation; a revoked
// device is refused at once and its open WebSocket closes; pairing codes work once, expire
// and are throttled when guessed; `wharf devices` and `wharf pair` say what they did.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { httpGet, openWs, runWharf, stopDaemon } from '../support/ws_client.mjs';

// The device cookie of a trade's Set-Cookie, as a browser would send it back.
function deviceCookie(res, port) {
  const set = [res.headers['set-cookie'] ?? []].flat();
  const line = set.find((c) => c.startsWith(`wharf_${port}=`));
  assert.ok(line, `a Set-Cookie for wharf_${port}: ${JSON.stringify(set)}`);
  return { line, pair: line.split(';')[0], token: line.split(';')[0].split('=')[1] };
}

async function trade(d, query = '') {
  // As a browser navigates: only a navigation (Sec-Fetch-Mode) becomes a device.
  const res = await httpGet(d, `/?k=${d.key}${query}`, {
    headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36', 'Sec-Fetch-Mode': 'navigate' },
  });
  assert.equal(res.status, 303, `the trade answers 303: ${res.body}`);
  return { res, cookie: deviceCookie(res, d.port) };
}

async function api(d, path, { cookie, method = 'GET', body, headers = {} } = {}) {
  const res = await httpGet(d, path, {
    method,
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  let json = null;
  try { json = JSON.parse(res.body); } catch { /* a page */ }
  return { ...res, json };
}

const wharf = (d, args) => runWharf([...args, '--state-dir', d.stateDir]);

describe('paired devices', { concurrency: 2 }, () => {
  test('a ?k= visit is traded: 303 to the same address without k (other parameters kept) and an HttpOnly, SameSite=Strict, Path=/ device cookie', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { res, cookie } = await trade(d, '&toolbar=1');
    assert.equal(res.headers.location, '/?toolbar=1');
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.match(cookie.line, /; HttpOnly(;|$)/);
    assert.match(cookie.line, /; SameSite=Strict(;|$)/);
    assert.match(cookie.line, /; Path=\/(;|$)/);
    assert.match(cookie.line, /; Max-Age=\d{7,}/);
    assert.doesNotMatch(cookie.line, /Secure/, 'plain http: no Secure');
    assert.match(cookie.token, /^[0-9a-f]{64}$/);
    assert.ok(!res.body.includes(d.key) && !res.headers.location.includes(d.key));
    // A bare key: the clean address is the path alone.
    const navigate = { 'Sec-Fetch-Mode': 'navigate' };
    const bare = await httpGet(d, `/?k=${d.key}`, { headers: navigate });
    assert.equal(bare.headers.location, '/');
    // A script fetching the keyed address (no Sec-Fetch-Mode) gets the page, no device.
    const script = await httpGet(d, `/?k=${d.key}`);
    assert.equal(script.status, 200);
    assert.equal(script.headers['set-cookie'], undefined);
    // A wrong key trades nothing.
    const wrong = await httpGet(d, `/?k=${'0'.repeat(32)}`);
    assert.equal(wrong.status, 403);
    assert.equal(wrong.headers['set-cookie'], undefined);
    // A navigation another site started gets a page that moves on from our origin (a
    // Strict cookie would not survive its redirect), with the cookie all the same.
    const cross = await httpGet(d, `/?k=${d.key}&toolbar=1`, { headers: { ...navigate, 'Sec-Fetch-Site': 'cross-site' } });
    assert.equal(cross.status, 200);
    assert.match(cross.body, /http-equiv="refresh" content="0;url=\/\?toolbar=1"/);
    deviceCookie(cross, d.port);
    // With the device cookie, a ?k= visit only cleans the address: no second device.
    const again = await httpGet(d, `/?k=${d.key}`, { headers: { Cookie: cookie.pair } });
    assert.equal(again.status, 303);
    assert.equal(again.headers['set-cookie'], undefined);
    const list = await api(d, '/api/v1/devices', { cookie: cookie.pair });
    assert.equal(list.json.devices.length, 3, JSON.stringify(list.json));
    assert.equal(list.json.devices[0].name, 'Chrome on Linux');
    assert.equal(list.json.devices[0].current, true);
    assert.equal(list.json.devices[1].current, false);
  });

  test('the cookie alone opens the page, the API and the WebSocket; the Origin rule still holds; devices.json keeps only a hash (0600)', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { cookie } = await trade(d);
    const page = await httpGet(d, '/', { headers: { Cookie: cookie.pair } });
    assert.equal(page.status, 200);
    assert.match(page.body, /<!doctype html>/i);
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.equal((await httpGet(d, '/')).status, 403, 'no cookie, no key: refused');
    assert.equal((await httpGet(d, '/', { headers: { Cookie: `wharf_${d.port}=${'a'.repeat(64)}` } })).status, 403, 'a made-up token is refused');
    // Another daemon's cookie name (another port) is not ours.
    assert.equal((await httpGet(d, '/', { headers: { Cookie: `wharf_${d.port + 1}=${cookie.token}` } })).status, 403);
    const status = await api(d, '/api/status', { cookie: cookie.pair });
    assert.equal(status.status, 200);
    // A state change from a foreign page is refused even with the cookie.
    const foreign = await api(d, '/api/v1/devices/pair', { cookie: cookie.pair, method: 'POST', body: {}, headers: { Origin: 'http://evil.example' } });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json.error.code, 'bad_origin');
    const ws = await openWs(d, { path: '/ws', headers: { Cookie: cookie.pair } });
    t.after(() => ws.close());
    assert.equal(ws.messages[0].type, 'hello');
    await assert.rejects(openWs(d, { path: '/ws', headers: { Cookie: cookie.pair }, origin: 'http://evil.example' }), 'a foreign Origin is refused with the cookie too');

    const file = join(d.stateDir, 'devices.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(cookie.token), 'the token itself is never stored');
    assert.ok(text.includes(createHash('sha256').update(cookie.token).digest('hex')), 'its SHA-256 is');
  });

  test('devices survive a restart; a key rotation leaves them (and their windows) alone', async (t) => {
    const d1 = await startDaemon({ key: null });
    const { cookie } = await trade(d1);
    d1.child.kill('SIGTERM');
    await d1.exited;
    const d2 = await startDaemon({ stateDir: d1.stateDir, port: d1.port, key: null });
    t.after(() => stopDaemon(d2));
    assert.equal((await httpGet(d2, '/', { headers: { Cookie: cookie.pair } })).status, 200, 'the cookie still opens the page after a restart');
    const ws = await openWs(d2, { path: '/ws', headers: { Cookie: cookie.pair } });
    t.after(() => ws.close());
    const rotated = await wharf(d2, ['key', 'rotate']);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.equal((await httpGet(d2, '/', { headers: { Cookie: cookie.pair } })).status, 200, 'the cookie opens the page after a key rotation');
    assert.equal((await api(d2, '/api/status', { cookie: cookie.pair })).status, 200);
    assert.ok(ws.isOpen, 'the cookie\'s window stays open through the rotation');
    assert.ok(!ws.messages.some((m) => m.type === 'key_rotated'));
  });

  test('revoking a device refuses its cookie at once and closes its open WebSocket; other devices stay', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { cookie: phone } = await trade(d);
    const { cookie: laptop } = await trade(d);
    const ws = await openWs(d, { path: '/ws', headers: { Cookie: phone.pair } });
    const other = await openWs(d, { path: '/ws', headers: { Cookie: laptop.pair } });
    t.after(() => other.close());
    const keyWs = await openWs(d);
    t.after(() => keyWs.close());
    const list = await wharf(d, ['devices', '--json']);
    const devices = JSON.parse(list.stdout);
    assert.equal(devices.length, 2);
    const before = performance.now();
    const revoked = await wharf(d, ['devices', 'revoke', String(devices[0].id)]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, new RegExp(`device ${devices[0].id} revoked`));
    const closed = await ws.waitForClose({ timeout: 3000 });
    assert.ok(performance.now() - before < 3000);
    assert.equal(closed.code, 4004, `close code: ${JSON.stringify(closed)}`);
    assert.ok(ws.messages.some((m) => m.type === 'device_revoked'));
    assert.equal((await httpGet(d, '/', { headers: { Cookie: phone.pair } })).status, 403);
    assert.equal((await api(d, '/api/status', { cookie: phone.pair })).status, 401);
    await assert.rejects(openWs(d, { path: '/ws', headers: { Cookie: phone.pair } }));
    assert.ok(other.isOpen && keyWs.isOpen, 'the other device and the key\'s window stay');
    assert.equal((await httpGet(d, '/', { headers: { Cookie: laptop.pair } })).status, 200);
    const again = await wharf(d, ['devices', 'revoke', String(devices[0].id)]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no paired device has id/);
    const bad = await wharf(d, ['devices', 'revoke', 'x']);
    assert.equal(bad.code, 2);
  });

  test('a pairing link works once, for one device; a bad one gets a page saying so; `wharf pair` prints the link', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const printed = await wharf(d, ['pair', '--name', 'test phone']);
    assert.equal(printed.code, 0, printed.stderr);
    const url = printed.stdout.trim().split('\n').pop();
    assert.match(url, new RegExp(`^http://[^/]+:${d.port}/pair/[23456789A-HJKMNP-TV-Z]{10}$`));
    assert.ok(!printed.stdout.includes(d.key), 'the pairing link is not the key');
    assert.match(printed.stderr, /works once, until \d\d:\d\d/);
    const path = new URL(url).pathname;
    // A HEAD (a link preview) does not spend it.
    assert.equal((await httpGet(d, path, { method: 'HEAD' })).status, 405);
    const first = await httpGet(d, path);
    assert.equal(first.status, 303);
    assert.equal(first.headers.location, '/');
    const cookie = deviceCookie(first, d.port);
    assert.match(cookie.line, /HttpOnly; SameSite=Strict/);
    assert.equal((await httpGet(d, '/', { headers: { Cookie: cookie.pair } })).status, 200);
    const second = await httpGet(d, path);
    assert.equal(second.status, 404, 'single use');
    assert.match(second.body, /This pairing link does not work/);
    assert.equal(second.headers['set-cookie'], undefined);
    const listed = await wharf(d, ['devices']);
    assert.match(listed.stdout, /^ID\tPAIRED/);
    assert.match(listed.stdout, /\ttest phone\n/);
    // Codes come from the page too, through the same operation, and need the key or a device.
    const refused = await api(d, '/api/v1/devices/pair', { method: 'POST', body: {} });
    assert.equal(refused.status, 401);
    const viaApi = await api(d, '/api/v1/devices/pair', { method: 'POST', body: {}, cookie: cookie.pair });
    assert.equal(viaApi.status, 200);
    assert.match(viaApi.json.qr_svg, /^<svg [^>]*viewBox="0 0 \d+ \d+"/);
    assert.ok(viaApi.json.expires > Date.now() / 1000 + 500);
  });

  test('unknown codes are refused, and guessing is throttled for everyone (expiry: tests/unit/core/pairing_codes_test.cpp)', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const made = await api(d, '/api/v1/devices/pair', { method: 'POST', body: {}, headers: { 'X-Wharf-Key': d.key } });
    const code = made.json.code;
    for (let i = 0; i < 10; i++) {
      const res = await httpGet(d, `/pair/ABCDEFGH${String(i).padStart(2, '2').replace(/[01]/g, '3')}`);
      assert.equal(res.status, 404, `guess ${i}`);
    }
    const throttled = await httpGet(d, `/pair/${code}`);
    assert.equal(throttled.status, 429, 'after ten bad codes every try waits, a good one too');
    assert.ok(Number(throttled.headers['retry-after']) > 0);
    assert.match(throttled.body, /Too many wrong pairing links/);
    assert.equal(throttled.headers['set-cookie'], undefined);
    assert.equal((await httpGet(d, '/pair/not-a-code')).status, 429);
  });
});
