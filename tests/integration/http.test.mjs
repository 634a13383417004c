// HTTP surface of `wharf serve`: key on every route that carries state, none on static
// assets, the Host allow-list, security headers, path traversal, and no key in the logs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startDaemon } from '../support/daemon.mjs';
import { httpGet, stopDaemon, tryUpgrade, openWs, rawHttp, statusCodes, killSession } from '../support/ws_client.mjs';

let d;
const wrongKey = randomBytes(16).toString('hex');

before(async () => { d = await startDaemon(); });
after(async () => { if (d) await stopDaemon(d); });

function assertRefusalPage(res, what) {
  assert.equal(res.status, 403, `${what}: status`);
  assert.match(res.headers['content-type'] ?? '', /text\/html/, `${what}: content-type`);
  assert.match(res.body, /wharf open/, `${what}: the refusal page says where the current URL is found`);
  assert.ok(!res.body.includes(d.key), `${what}: the refusal page must not contain the key`);
}

test('the printed URL names 127.0.0.1, the bound port and the pinned key', () => {
  assert.match(d.url, /^http:\/\/127\.0\.0\.1:\d+\/\?k=[0-9a-f]{32}$/);
  assert.ok(d.port > 0 && d.port < 65536);
  assert.equal(d.key.length, 32);
});

test('GET / without a key or with a wrong key is 403 with a page pointing to `wharf open`', async () => {
  assertRefusalPage(await httpGet(d, '/'), 'no key');
  assertRefusalPage(await httpGet(d, `/?k=${wrongKey}`), 'wrong key');
  assertRefusalPage(await httpGet(d, '/?k='), 'empty key');
  assertRefusalPage(await httpGet(d, `/?k=${d.key.slice(0, 31)}`), 'truncated key');
  assertRefusalPage(await httpGet(d, `/?k=${d.key}0`), 'key with an extra character');
  assertRefusalPage(await httpGet(d, `/?k=${d.key.toUpperCase()}x`), 'key in other case plus junk');
});

test('GET /?k=KEY is 200 HTML with no-referrer, a restrictive CSP and no CORS header', async () => {
  const res = await httpGet(d, `/?k=${d.key}`);
  assert.equal(res.status, 200);
  assert.match(res.headers['content-type'] ?? '', /^text\/html/);
  assert.match(res.body, /<html|<!doctype html/i);
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
  const csp = res.headers['content-security-policy'] ?? '';
  assert.ok(csp.includes("default-src 'none'"), `CSP has default-src 'none': ${csp}`);
  assert.ok(csp.includes("frame-ancestors 'none'"), `CSP has frame-ancestors 'none': ${csp}`);
  assert.equal(res.headers['access-control-allow-origin'], undefined);
  // Even when a foreign origin asks.
  const cross = await httpGet(d, `/?k=${d.key}`, { headers: { Origin: 'http://evil.example' } });
  assert.equal(cross.headers['access-control-allow-origin'], undefined);
});

test('the page is also served for Host localhost:PORT', async () => {
  const res = await httpGet(d, `/?k=${d.key}`, { host: `localhost:${d.port}` });
  assert.equal(res.status, 200);
});

test('static assets need no key and are served as JavaScript', async () => {
  const main = await httpGet(d, '/static/main.js');
  assert.equal(main.status, 200);
  assert.match(main.headers['content-type'] ?? '', /javascript/);
  assert.ok(main.body.length > 0);
  const xterm = await httpGet(d, '/static/vendor/xterm/xterm.mjs');
  assert.equal(xterm.status, 200);
  assert.match(xterm.headers['content-type'] ?? '', /javascript/);
  assert.ok(xterm.body.length > 10000, 'the vendored xterm module is the real library');
  assert.equal(main.headers['access-control-allow-origin'], undefined);
});

test('path traversal under /static never reaches the key file or the system', async () => {
  const paths = [
    '/static/../key',
    '/static/%2e%2e/key',
    '/static/%2E%2E/key',
    '/static/..%2fkey',
    '/static/%2e%2e%2fkey',
    '/static/vendor/../../key',
    '/static/../../../../../../../../etc/passwd',
    '/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/static/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/static/%2fetc%2fpasswd',
    '/static//etc/passwd',
    '/static/....//....//....//etc/passwd',
    '/static/..\\..\\..\\..\\etc\\passwd',
    `/static/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2f${d.stateDir.slice(1).replaceAll('/', '%2f')}%2fkey`,
    `/static/../../../../../../../..${d.stateDir}/key`,
  ];
  for (const p of paths) {
    const res = await httpGet(d, p);
    assert.ok([400, 403, 404].includes(res.status), `${p}: status ${res.status} (expected 400/403/404)`);
    assert.ok(!res.body.includes(d.key), `${p}: body contains the key`);
    assert.ok(!/root:.*:0:0:/.test(res.body), `${p}: body contains /etc/passwd`);
  }
});

test('/api/status demands the key and answers JSON with version and sessions', async () => {
  assert.equal((await httpGet(d, '/api/status')).status, 403);
  assert.equal((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': wrongKey } })).status, 403);
  assert.equal((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': '' } })).status, 403);
  const res = await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } });
  assert.equal(res.status, 200);
  assert.match(res.headers['content-type'] ?? '', /application\/json/);
  const body = JSON.parse(res.body);
  assert.equal(typeof body.version, 'string');
  assert.ok(body.version.length > 0);
  assert.equal(typeof body.sessions, 'number');
  assert.equal(body.sessions, 0, 'no session before any WebSocket attached');
  assert.equal(res.headers['access-control-allow-origin'], undefined);
  assert.ok(!res.body.includes(d.key));
});

test('an unknown route is 404', async () => {
  assert.equal((await httpGet(d, `/no-such-route?k=${d.key}`)).status, 404);
  assert.equal((await httpGet(d, '/api/no-such-route', { headers: { 'X-Wharf-Key': d.key } })).status, 404);
  assert.equal((await httpGet(d, '/static/no-such-file.js')).status, 404);
});

test('a foreign or missing Host is refused with 403 even with a valid key', async () => {
  const hosts = [
    `evil.example:${d.port}`,
    '127.0.0.1:1',
    `127.0.0.1:${d.port}0`,
    '127.0.0.1',
    'localhost',
    `evil.example`,
    `localhost.evil.example:${d.port}`,
    `127.0.0.1.evil.example:${d.port}`,
    `127.0.0.1:${d.port}@evil.example`,
  ];
  for (const host of hosts) {
    const page = await httpGet(d, `/?k=${d.key}`, { host });
    assert.equal(page.status, 403, `page with Host ${host}`);
    assert.ok(!page.body.includes(d.key), `refusal for Host ${host} contains the key`);
    const api = await httpGet(d, '/api/status', { host, headers: { 'X-Wharf-Key': d.key } });
    assert.equal(api.status, 403, `/api/status with Host ${host}`);
    const asset = await httpGet(d, '/static/main.js', { host });
    assert.equal(asset.status, 403, `/static/main.js with Host ${host}`);
  }
  const noHost = await httpGet(d, `/?k=${d.key}`, { setHost: false });
  assert.equal(noHost.status, 403, 'page without a Host header');
  const noHostApi = await httpGet(d, '/api/status', { setHost: false, headers: { 'X-Wharf-Key': d.key } });
  assert.equal(noHostApi.status, 403, '/api/status without a Host header');
});

test('the Host rule holds for every request of a kept-alive connection', async () => {
  const good = `127.0.0.1:${d.port}`;
  const req = (host, extra = '') => `GET /api/status HTTP/1.1\r\nHost: ${host}\r\nX-Wharf-Key: ${d.key}\r\n${extra}\r\n`;
  // Pipelined on one connection: good, foreign, good (last one closes).
  const pipelined = await rawHttp(d, req(good) + req(`evil.example:${d.port}`) + req(good, 'Connection: close\r\n'));
  const codes = statusCodes(pipelined);
  assert.equal(codes[0], 200, `first (good Host): ${codes}`);
  assert.equal(codes[1], 403, `second (foreign Host) on the same connection: ${codes}`);
  assert.ok(codes.length === 2 || codes[2] === 200, `third: ${codes}`);
});

test('a request with two Host headers is refused (RFC 9112 3.2), whichever comes first', async () => {
  const good = `127.0.0.1:${d.port}`;
  for (const hosts of [[`evil.example:${d.port}`, good], [good, `evil.example:${d.port}`]]) {
    const raw = await rawHttp(d, `GET /api/status HTTP/1.1\r\nHost: ${hosts[0]}\r\nHost: ${hosts[1]}\r\nX-Wharf-Key: ${d.key}\r\nConnection: close\r\n\r\n`);
    const [code] = statusCodes(raw);
    assert.ok(code === 400 || code === 403, `two Host headers ${hosts.join(' + ')}: ${code}`);
    assert.ok(!raw.includes('"sessions"'), 'no status for a request with two Host headers');
  }
});

test('the key never appears in the logs, whatever was requested', async () => {
  // Requests carrying the key in the URL: accepted, refused for Host, refused WebSocket.
  await httpGet(d, `/?k=${d.key}`);
  await httpGet(d, `/?k=${d.key}`, { host: 'evil.example:1' });
  await httpGet(d, `/no-such-route?k=${d.key}`);
  await httpGet(d, `/?k=${wrongKey}`);
  await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } });
  await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': wrongKey } });
  const refused = await tryUpgrade(d, { origin: 'http://evil.example' });
  assert.equal(refused.upgraded, false);
  const refusedWrongKey = await tryUpgrade(d, { key: wrongKey, origin: d.origin });
  assert.equal(refusedWrongKey.upgraded, false);
  const ws = await openWs(d);
  await ws.close();
  // A last request the daemon must have answered, so anything it logs about the ones
  // before is already written.
  assert.equal((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } })).status, 200);
  assert.ok(!d.stderr.includes(d.key), `stderr contains the key:\n${d.stderr}`);
  assert.ok(!d.stderr.includes(d.key.slice(0, 16)), `stderr contains half of the key:\n${d.stderr}`);
  assert.ok(!d.stderr.includes(wrongKey), `stderr contains the wrong key that was tried:\n${d.stderr}`);
});

test('even at --log-level trace the key never appears in the logs', async (t) => {
  const v = await startDaemon({ args: ['--log-level', 'trace'] });
  t.after(() => stopDaemon(v));
  await httpGet(v, `/?k=${v.key}`);
  await httpGet(v, `/?k=${v.key}`, { host: 'evil.example:1' });
  await httpGet(v, `/no-such-route?k=${v.key}`);
  await httpGet(v, '/api/status', { headers: { 'X-Wharf-Key': v.key } });
  await tryUpgrade(v, { origin: 'http://evil.example' });
  const ws = await openWs(v);
  const attached = await ws.attach({ start: true });
  await ws.waitForPrompt();
  const from = ws.textLength;
  ws.type('echo traced-$((1+1))\r');
  await ws.waitForOutput('traced-2', { from });
  await ws.close();
  killSession(attached.pid);
  assert.equal((await httpGet(v, '/api/status', { headers: { 'X-Wharf-Key': v.key } })).status, 200);
  assert.ok(v.stderr.length > 0);
  assert.ok(!v.stderr.includes(v.key), `stderr at trace level contains the key:\n${v.stderr}`);
  assert.ok(!v.stderr.includes(v.key.slice(0, 16)), `stderr at trace level contains half of the key:\n${v.stderr}`);
});
