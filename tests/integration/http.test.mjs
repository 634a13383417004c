// HTTP surface of `wharf serve`: key on every route that carries state (in any of its
// forms), none on static assets or the health probe, the Host allow-list, JSON refusals
// with their statuses for programs, security headers, path traversal, no key in the logs
// whatever form it came in, and a daemon that survives running out of descriptors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { startDaemon, waitFor, wharfBin } from '../support/daemon.mjs';
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

test('GET /?k=KEY is traded for a device cookie (303, no-referrer); the page is 200 HTML with no-referrer, a restrictive CSP and no CORS header', async () => {
  const traded = await httpGet(d, `/?k=${d.key}`, { headers: { 'Sec-Fetch-Mode': 'navigate' } });
  assert.equal(traded.status, 303);
  assert.equal(traded.headers.location, '/');
  assert.equal(traded.headers['referrer-policy'], 'no-referrer');
  const cookie = traded.headers['set-cookie'][0].split(';')[0];
  const res = await httpGet(d, '/', { headers: { Cookie: cookie } });
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
  const res = await httpGet(d, '/', { host: `localhost:${d.port}`, headers: { 'X-Wharf-Key': d.key } });
  assert.equal(res.status, 200);
  assert.equal((await httpGet(d, `/?k=${d.key}`, { host: `localhost:${d.port}` })).status, 200);
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
  assert.equal((await httpGet(d, '/api/status')).status, 401);
  assert.equal((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': wrongKey } })).status, 401);
  assert.equal((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': '' } })).status, 401);
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

test('a foreign or missing Host is refused even with a valid key: 403 for a name, 421 for another address or port', async () => {
  // A name could be rebound to 127.0.0.1 (403); localhost or an IP literal that is not
  // this server is misdirected (421). `PORT0` is out of range or another port.
  const hosts = [
    [`evil.example:${d.port}`, [403]],
    ['127.0.0.1:1', [421]],
    [`127.0.0.1:${d.port}0`, [403, 421]],
    ['127.0.0.1', [421]],
    ['localhost', [421]],
    [`evil.example`, [403]],
    [`localhost.evil.example:${d.port}`, [403]],
    [`127.0.0.1.evil.example:${d.port}`, [403]],
    [`127.0.0.1:${d.port}@evil.example`, [403]],
  ];
  for (const [host, statuses] of hosts) {
    const page = await httpGet(d, `/?k=${d.key}`, { host });
    assert.ok(statuses.includes(page.status), `page with Host ${host}: ${page.status}`);
    assert.ok(!page.body.includes(d.key), `refusal for Host ${host} contains the key`);
    const api = await httpGet(d, '/api/status', { host, headers: { 'X-Wharf-Key': d.key } });
    assert.equal(api.status, page.status, `/api/status with Host ${host}`);
    assert.match(api.headers['content-type'] ?? '', /application\/json/, `/api/status with Host ${host}`);
    assert.match(JSON.parse(api.body).error.code, /^(bad_host|misdirected)$/);
    const asset = await httpGet(d, '/static/main.js', { host });
    assert.equal(asset.status, page.status, `/static/main.js with Host ${host}`);
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

// ---------------------------------------------------------------------------------------
// Refusals, statuses and credentials for programs (issue 16).

// The code of a JSON refusal, after checking its shape: {"ok": false, "error": {code, message}}.
function refusalCode(res, what) {
  assert.match(res.headers['content-type'] ?? '', /^application\/json/, `${what}: a JSON refusal, not ${res.headers['content-type']}: ${res.body}`);
  const body = JSON.parse(res.body);
  assert.equal(body.ok, false, what);
  assert.equal(typeof body.error?.code, 'string', `${what}: error.code in ${res.body}`);
  assert.equal(typeof body.error?.message, 'string', `${what}: error.message in ${res.body}`);
  assert.ok(!res.body.includes(d.key), `${what}: the refusal contains the key`);
  return body.error.code;
}

// A raw response: its status, lower-cased headers and body.
function parseRaw(raw) {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, end < 0 ? raw.length : end).split('\r\n');
  const status = Number((head[0].match(/^HTTP\/1\.[01] (\d{3})/) ?? [])[1]);
  const headers = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, body: end < 0 ? '' : raw.slice(end + 4) };
}

test('every refusal on /api and /mcp is JSON {error: {code, message}} with its status, never a page', async () => {
  const key = { 'X-Wharf-Key': d.key };
  const json = { ...key, 'Content-Type': 'application/json' };
  const cases = [
    ['GET /api/status, no key', '/api/status', {}, 401, 'no_key'],
    ['GET /api/status, wrong key', '/api/status', { headers: { 'X-Wharf-Key': wrongKey } }, 401, 'wrong_key'],
    ['GET /api/v1/sessions, wrong ?k=', `/api/v1/sessions?k=${wrongKey}`, {}, 401, 'wrong_key'],
    ['GET /api/v1/sessions, wrong Bearer', '/api/v1/sessions', { headers: { Authorization: `Bearer ${wrongKey}` } }, 401, 'wrong_key'],
    ['POST /mcp, no key', '/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }, 401, 'no_key'],
    ['POST /api/upload, no key', '/api/upload', { method: 'POST', body: 'x' }, 401, 'no_key'],
    ['foreign Origin on a change', '/api/v1/sessions/1/keys', { method: 'POST', headers: { ...json, Origin: 'http://evil.example' }, body: '{"keys":["a"]}' }, 403, 'bad_origin'],
    ['foreign Origin on /mcp', '/mcp', { method: 'POST', headers: { ...json, Origin: 'http://evil.example' }, body: '{}' }, 403, 'bad_origin'],
    ['rebindable Host', '/api/status', { headers: key, host: `evil.example:${d.port}` }, 403, 'bad_host'],
    ['another port', '/mcp', { method: 'POST', headers: json, host: '127.0.0.1:1', body: '{}' }, 421, 'misdirected'],
    ['unknown /api route', '/api/nothing', { headers: key }, 404, 'not_found'],
    ['unknown /api/v1 route', '/api/v1/nothing', { headers: key }, 404, 'not_found'],
    ['wrong method', '/api/v1/sessions', { method: 'PUT', headers: key }, 405, 'bad_method'],
    ['GET /mcp', '/mcp', { headers: key }, 405, 'bad_method'],
    ['non-numeric id', '/api/v1/sessions/abc/screen', { headers: key }, 400, 'bad_argument'],
    ['id out of range', '/api/v1/sessions/99999999999999999999/screen', { headers: key }, 400, 'bad_argument'],
    ['id zero', '/api/v1/sessions/0', { method: 'DELETE', headers: key }, 400, 'bad_argument'],
    ['well-formed id of no session', '/api/v1/sessions/999/screen', { headers: key }, 404, 'no_session'],
  ];
  for (const [what, path, opts, status, code] of cases) {
    const res = await httpGet(d, path, opts);
    assert.equal(res.status, status, `${what}: ${res.body}`);
    assert.equal(refusalCode(res, what), code, what);
    if (status === 401) assert.equal(res.headers['www-authenticate'], 'Bearer realm="wharf"', what);
    if (status === 405) assert.ok(res.headers.allow, `${what}: Allow`);
  }
});

test('over-long headers get 431 and over-long bodies 413, both JSON, and the client reads them', async () => {
  // 20 KiB of header against a 16 KiB limit, on the API and on the page.
  for (const path of ['/api/status', '/']) {
    const raw = await rawHttp(d, `GET ${path} HTTP/1.1\r\nHost: ${d.host}\r\nX-Wharf-Key: ${d.key}\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    const res = parseRaw(raw);
    assert.equal(res.status, 431, `${path}: ${raw.slice(0, 200)}`);
    assert.equal(refusalCode(res, `431 on ${path}`), 'headers_too_large');
  }
  // A body over the 1 MiB API limit, announced by Content-Length and then sent: the
  // refusal arrives whole although the client is still sending.
  const body = Buffer.alloc(2 * 1024 * 1024, 0x20);
  const big = await httpGet(d, '/api/v1/run', { method: 'POST', headers: { 'X-Wharf-Key': d.key, 'Content-Type': 'application/json' }, body, timeout: 15000 });
  assert.equal(big.status, 413, big.body);
  assert.equal(refusalCode(big, '413'), 'too_large');
  // Without the key, 64 KiB is the limit, and the refusal for the key comes first when
  // the body fits.
  const noKey = await httpGet(d, '/api/v1/run', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: Buffer.alloc(100 * 1024, 0x20), timeout: 15000 });
  assert.equal(noKey.status, 413);
  assert.equal(refusalCode(noKey, '413 without the key'), 'too_large');
});

test('Authorization: Bearer KEY is accepted like X-Wharf-Key, on /api and /mcp', async () => {
  const res = await httpGet(d, '/api/status', { headers: { Authorization: `Bearer ${d.key}` } });
  assert.equal(res.status, 200, res.body);
  assert.equal(typeof JSON.parse(res.body).sessions, 'number');
  const sessions = await httpGet(d, '/api/v1/sessions', { headers: { Authorization: `bearer ${d.key}` } });
  assert.equal(sessions.status, 200, sessions.body);
  const mcp = await httpGet(d, '/mcp', {
    method: 'POST',
    headers: { Authorization: `Bearer ${d.key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bearer', version: '1' } } }),
  });
  assert.equal(mcp.status, 200, mcp.body);
  assert.equal(JSON.parse(mcp.body).id, 1);
  // A wrong Bearer is not rescued by a right X-Wharf-Key: every credential sent must hold.
  const mixed = await httpGet(d, '/api/status', { headers: { Authorization: `Bearer ${wrongKey}`, 'X-Wharf-Key': d.key } });
  assert.equal(mixed.status, 401);
});

test('GET /api/v1/health answers without the key and tells only the version', async () => {
  const res = await httpGet(d, '/api/v1/health');
  assert.equal(res.status, 200, res.body);
  const body = JSON.parse(res.body);
  assert.deepEqual(Object.keys(body).sort(), ['ok', 'version']);
  assert.equal(body.ok, true);
  const status = JSON.parse((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } })).body);
  assert.equal(body.version, status.version);
  assert.equal((await httpGet(d, '/api/v1/health', { host: `evil.example:${d.port}` })).status, 403, 'the Host rule still holds');
});

// A valid PNG of `side` x `side` random pixels (random, so it does not compress): a
// real image larger than the 64 KiB a request without the key may send.
function randomPng(side) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows = [];
  for (let y = 0; y < side; y++) rows.push(Buffer.from([0]), randomBytes(side * 3));
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('an upload authenticated by ?k= or Bearer gets the same size limit as one with X-Wharf-Key', async () => {
  const png = randomPng(200); // about 120 KB
  assert.ok(png.length > 64 * 1024, `the image is over 64 KiB: ${png.length}`);
  const forms = [
    ['X-Wharf-Key', '/api/upload?name=big.png', { 'X-Wharf-Key': d.key }],
    ['?k=', `/api/upload?name=big.png&k=${d.key}`, {}],
    ['Bearer', '/api/upload?name=big.png', { Authorization: `Bearer ${d.key}` }],
  ];
  for (const [what, path, headers] of forms) {
    const res = await httpGet(d, path, { method: 'POST', headers: { 'Content-Type': 'image/png', ...headers }, body: png, timeout: 15000 });
    assert.equal(res.status, 200, `${what}: ${res.body}`);
    assert.equal(JSON.parse(res.body).bytes, png.length, what);
  }
  // Over the upload limit (20 MiB by default) the header alone is refused, in every form.
  for (const [what, path, headers] of forms) {
    const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    const raw = await rawHttp(d, `POST ${path} HTTP/1.1\r\nHost: ${d.host}\r\n${extra}Content-Length: ${20 * 1024 * 1024 + 1}\r\n\r\n`);
    const res = parseRaw(raw);
    assert.equal(res.status, 413, `${what}: ${raw.slice(0, 200)}`);
    assert.equal(refusalCode(res, `413 upload by ${what}`), 'too_large');
  }
});

test('POST /api/v1/sessions answers 201 Created with the new session\'s Location', async (t) => {
  const headers = { 'X-Wharf-Key': d.key, 'Content-Type': 'application/json' };
  const res = await httpGet(d, '/api/v1/sessions', { method: 'POST', headers, body: JSON.stringify({ shell: 'bash' }), timeout: 15000 });
  assert.equal(res.status, 201, res.body);
  const body = JSON.parse(res.body);
  t.after(() => killSession(body.pid));
  assert.equal(body.ok, true);
  assert.equal(res.headers.location, `/api/v1/sessions/${body.session}`);
  const ended = await httpGet(d, res.headers.location, { method: 'DELETE', headers: { 'X-Wharf-Key': d.key }, timeout: 15000 });
  assert.equal(ended.status, 200, ended.body);
});

test('the key never reaches the log, whatever form or encoding a request carries it in', async (t) => {
  const v = await startDaemon({ args: ['--log-level', 'trace'] });
  t.after(() => stopDaemon(v));
  const other = randomBytes(16).toString('hex');
  const enc = [...v.key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
  const targets = [
    `/;k=${v.key}`,
    `/api/status;k=${v.key}`,
    `/%3fk=${v.key}`,
    `/%3Fk%3D${v.key}`,
    `/%253fk=${v.key}`,
    `/?K=${v.key}`,
    `/?k=${other}&k=${v.key}`,
    `/?k=${v.key}&k=${v.key}`,
    `/?k=${enc}`,
    `/api/v1/health?k=${v.key}`,
    `/api/v1/sessions?key=${v.key}`,
    `/static/main.js?k=${v.key}`,
    `/${v.key}`,
    `/nothing/${v.key.toUpperCase()}`,
    `/;K=${other}`,
  ];
  for (const target of targets) await httpGet(v, target);
  // Forms http.request will not send: a fragment, a space-split target, a bare CR.
  for (const target of [`/#k=${v.key}`, `/api/status#k=${v.key}`, `/?q=1#${v.key}`]) {
    await rawHttp(v, `GET ${target} HTTP/1.1\r\nHost: ${v.host}\r\nConnection: close\r\n\r\n`);
  }
  await rawHttp(v, `GET /?k=${v.key} HTTP/1.1\r\nHost: ${v.host}\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
  // A last request the daemon must have answered: what it logged before is written.
  assert.equal((await httpGet(v, '/api/status', { headers: { 'X-Wharf-Key': v.key } })).status, 200);
  for (const secret of [v.key, v.key.slice(0, 16), v.key.slice(16), v.key.toUpperCase().slice(0, 16), other, enc.slice(0, 30)])
    assert.ok(!v.stderr.includes(secret), `the log contains ${secret}:\n${v.stderr}`);
  assert.ok(v.stderr.includes('[redacted]'), `the log shows where a key was taken out:\n${v.stderr.slice(-3000)}`);
});

// utime + stime of a process, in seconds (/proc/PID/stat fields 14 and 15).
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / CLOCK_TICKS;
}
const CLOCK_TICKS = (() => {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  return Number(r.stdout.trim()) || 100;
})();

test('out of file descriptors, the daemon neither spins nor floods its log, refuses new connections with 503, and serves again once connections close', async (t) => {
  // The daemon under a hard limit of 64 descriptors (it cannot raise it): a shell script
  // that sets the limit and execs it, so the daemon keeps the script's pid.
  const dir = mkdtempSync(join(tmpdir(), 'wharf-fds-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const wrapper = join(dir, 'wharf-64');
  writeFileSync(wrapper, '#!/bin/sh\nulimit -n 64 || exit 99\nexec "$WHARF_REAL_BIN" "$@"\n', { mode: 0o755 });
  const v = await startDaemon({ bin: wrapper, env: { WHARF_REAL_BIN: wharfBin } });
  t.after(() => stopDaemon(v));
  const limit = readFileSync(`/proc/${v.child.pid}/limits`, 'utf8').match(/Max open files\s+(\d+)/)[1];
  assert.equal(limit, '64', 'the daemon runs under the low limit');
  assert.equal((await httpGet(v, '/api/status', { headers: { 'X-Wharf-Key': v.key } })).status, 200);

  // 100 connections that send nothing: the first few dozen take the descriptors left,
  // the rest wait in the listen queue.
  const sockets = [];
  const received = [];
  await Promise.all(Array.from({ length: 100 }, (_, i) => new Promise((resolve, reject) => {
    const sock = net.connect(v.port, '127.0.0.1');
    received[i] = '';
    sock.setEncoding('latin1');
    sock.on('data', (chunk) => { received[i] += chunk; });
    sock.on('error', () => {});
    sock.once('connect', resolve);
    sock.once('error', reject);
    sockets.push(sock);
  })));
  t.after(() => { for (const s of sockets) s.destroy(); });
  await waitFor(() => /out of file descriptors|too many open files/i.test(v.stderr), { timeout: 10000, what: 'the daemon to run out of descriptors' });

  // Two seconds of the daemon's life while it is out of descriptors.
  const window = 2;
  const cpu0 = cpuSeconds(v.child.pid);
  const log0 = v.stderr.length;
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, window * 1000)); // a measurement window, not a wait for a condition
  const elapsed = (performance.now() - started) / 1000;
  const cpuShare = (cpuSeconds(v.child.pid) - cpu0) / elapsed;
  const logBytes = v.stderr.length - log0;
  t.diagnostic(`out of descriptors for ${elapsed.toFixed(2)} s: ${(cpuShare * 100).toFixed(1)}% of one core, ${logBytes} bytes of log`);
  // It should use next to nothing (nothing happens); a spinning accept loop took 25% of a
  // core on a loaded machine and 63% on an idle one.
  assert.ok(cpuShare < 0.1, `the daemon used ${(cpuShare * 100).toFixed(1)}% of a core while out of descriptors`);
  assert.ok(logBytes < 4096, `the daemon logged ${logBytes} bytes in ${elapsed.toFixed(2)} s:\n${v.stderr.slice(-2000)}`);
  assert.ok(v.stderr.length < 64 * 1024, `the whole log is ${v.stderr.length} bytes`);
  const refused = received.filter((r) => r.startsWith('HTTP/1.1 503 ')).length;
  t.diagnostic(`${refused} of 100 connections were answered 503`);
  assert.ok(refused > 0, 'connections beyond the limit are answered 503, not left hanging');
  const answer = received.find((r) => r.startsWith('HTTP/1.1 503 '));
  assert.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code, 'unavailable');

  // Once the connections close, the daemon answers again.
  for (const s of sockets) s.destroy();
  const back = performance.now();
  await waitFor(async () => {
    try { return (await httpGet(v, '/api/status', { headers: { 'X-Wharf-Key': v.key }, timeout: 1000 })).status === 200; } catch { return false; }
  }, { timeout: 15000, interval: 100, what: 'the API to answer again' });
  t.diagnostic(`answering again ${performance.now() - back} ms after the connections closed`);
});

test('a refusal is logged with why and from which peer; page files that went fine are not', async (t) => {
  const v = await startDaemon();
  t.after(() => stopDaemon(v));
  assert.equal((await httpGet(v, '/api/status')).status, 401);
  assert.equal((await httpGet(v, '/api/status', { headers: { 'X-Wharf-Key': 'f'.repeat(32) } })).status, 401);
  const raw = await rawHttp(v, `GET /api/status HTTP/1.1\r\nHost: ${v.host}\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
  assert.match(raw, /^HTTP\/1\.1 431/);
  assert.equal((await httpGet(v, '/static/main.js')).status, 200);
  await waitFor(() => /refused \(431\)/.test(v.stderr), { what: 'the 431 logged' });
  assert.match(v.stderr, /GET \/api\/status -> 401 no_key \(from 127\.0\.0\.1:\d+\)/);
  assert.match(v.stderr, /GET \/api\/status -> 401 wrong_key \(from 127\.0\.0\.1:\d+\)/);
  assert.match(v.stderr, /request from 127\.0\.0\.1:\d+ refused \(431\)/);
  assert.ok(!/static\/main\.js/.test(v.stderr), `a page file that went fine is debug detail:\n${v.stderr}`);
});
