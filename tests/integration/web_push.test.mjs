// Web Push from the real daemon (app/web_push_channel.hpp, server/push_routes.hpp,
// docs/api.md "Web Push"). A local HTTP server stands in for the browser's push service;
// the "browser" is a P-256 key pair and an auth secret made here in Node, as a browser
// makes them. What a push service and a browser would check, this test checks with code
// that is not wharf's: the body decrypts with the http_ece package (RFC 8291 aes128gcm)
// to the session's title and address, and the VAPID token (RFC 8292) verifies with
// Node's crypto against the key GET /api/push handed out, for the push service's origin.
// Refusals: no key, a foreign Origin, an endpoint wharf must not post to, keys of the
// wrong size, a body that is not JSON, the wrong method; a push service answering 410
// makes wharf forget that browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import crypto from 'node:crypto';
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { startDaemon, waitFor } from '../support/daemon.mjs';

const ece = createRequire(import.meta.url)('http_ece');

async function api(d, method, path, body, headers = {}) {
  const res = await fetch(`${d.origin}${path}`, {
    method,
    headers: { 'X-Wharf-Key': d.key, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, json, text };
}

// The push service: records every POST and answers with `reply.status`.
async function startPushService() {
  const received = [];
  const reply = { status: 201 };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(reply.status).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { received, reply, origin, close: () => new Promise((resolve) => server.close(resolve)) };
}

// A browser's side of a subscription.
function browser(endpoint) {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return {
    ecdh, auth,
    subscription: { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
  };
}

function verifyVapid(authorization, publicKey, audience) {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(authorization ?? '');
  assert.ok(m, `Authorization is "vapid t=..., k=...": ${authorization}`);
  const [, token, k] = m;
  assert.equal(k, publicKey, 'k is the key the page subscribed with');
  const [h, c, s] = token.split('.');
  assert.deepEqual(JSON.parse(Buffer.from(h, 'base64url')), { typ: 'JWT', alg: 'ES256' });
  const claims = JSON.parse(Buffer.from(c, 'base64url'));
  assert.equal(claims.aud, audience, 'aud is the push service\'s origin');
  const now = Date.now() / 1000;
  assert.ok(claims.exp > now && claims.exp <= now + 24 * 3600, `exp within 24 h: ${claims.exp}`);
  assert.match(claims.sub, /^(mailto:|https:)/);
  const point = Buffer.from(k, 'base64url');
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const good = crypto.verify('sha256', Buffer.from(`${h}.${c}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  assert.ok(good, 'the ES256 signature verifies with the VAPID public key');
}

test('the VAPID key is made once, kept 0600, and handed to the page', async (t) => {
  const d = await startDaemon();
  t.after(() => d.stop());
  const r = await api(d, 'GET', '/api/push');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.enabled, true);
  assert.equal(r.json.subscriptions, 0);
  const point = Buffer.from(r.json.public_key, 'base64url');
  assert.equal(point.length, 65);
  assert.equal(point[0], 4, 'an uncompressed P-256 point, as applicationServerKey takes it');
  const file = join(d.stateDir, 'vapid.json');
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).public, r.json.public_key);
  assert.equal((await api(d, 'GET', '/api/push', undefined, { 'X-Wharf-Key': 'wrong' })).status, 401);
});

test('subscriptions: kept per endpoint, refused when they cannot be pushed to', async (t) => {
  const d = await startDaemon();
  t.after(() => d.stop());
  const a = browser('https://push.example.com/send/a');
  let r = await api(d, 'POST', '/api/push/subscriptions', a.subscription);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.subscriptions, 1);
  r = await api(d, 'POST', '/api/push/subscriptions', browser('https://push.example.com/send/a').subscription);
  assert.equal(r.json.subscriptions, 1, 'the same endpoint replaces its entry');
  const file = join(d.stateDir, 'push-subscriptions.json');
  assert.equal(statSync(file).mode & 0o777, 0o600);

  const refused = [
    [{ ...a.subscription, endpoint: 'http://push.example.com/x' }, 400, /https/],
    [{ ...a.subscription, endpoint: 'https://user:pw@push.example.com/x' }, 400, /endpoint/],
    [{ ...a.subscription, keys: { ...a.subscription.keys, p256dh: a.subscription.keys.p256dh.slice(0, 40) } }, 400, /p256dh/],
    [{ ...a.subscription, keys: { ...a.subscription.keys, auth: 'c2hvcnQ' } }, 400, /auth/],
    [{ endpoint: 'https://push.example.com/x' }, 400, /keys/],
  ];
  for (const [body, status, message] of refused) {
    r = await api(d, 'POST', '/api/push/subscriptions', body);
    assert.equal(r.status, status, r.text);
    assert.equal(r.json.ok, false);
    assert.match(r.json.error.message, message);
  }
  r = await api(d, 'POST', '/api/push/subscriptions', 'not json');
  assert.equal(r.status, 400);
  r = await api(d, 'PUT', '/api/push/subscriptions', a.subscription);
  assert.equal(r.status, 405);
  assert.equal(r.json.error.code, 'bad_method');
  r = await api(d, 'POST', '/api/push/subscriptions', a.subscription, { Origin: 'https://evil.example' });
  assert.equal(r.status, 403, 'a change from a foreign page');
  r = await api(d, 'POST', '/api/push/subscriptions', a.subscription, { 'X-Wharf-Key': 'nope' });
  assert.equal(r.status, 401);
  assert.equal((await api(d, 'GET', '/api/push')).json.subscriptions, 1, 'no refusal kept anything');

  r = await api(d, 'DELETE', '/api/push/subscriptions', { endpoint: a.subscription.endpoint });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.removed, true);
  r = await api(d, 'DELETE', '/api/push/subscriptions', { endpoint: a.subscription.endpoint });
  assert.equal(r.json.removed, false);
  assert.equal((await api(d, 'GET', '/api/push')).json.subscriptions, 0);
});

test('more than 50 browsers are refused, not evicted', async (t) => {
  const d = await startDaemon();
  t.after(() => d.stop());
  const one = browser('https://push.example.com/0').subscription;
  for (let i = 0; i < 50; i += 1) {
    const r = await api(d, 'POST', '/api/push/subscriptions', { ...one, endpoint: `https://push.example.com/${i}` });
    assert.equal(r.status, 200, r.text);
  }
  const r = await api(d, 'POST', '/api/push/subscriptions', { ...one, endpoint: 'https://push.example.com/50' });
  assert.equal(r.status, 429);
  assert.equal(r.json.error.code, 'limit_reached');
});

test('a waiting session is pushed, encrypted for the browser and signed; 410 forgets it', async (t) => {
  const push = await startPushService();
  t.after(() => push.close());
  const d = await startDaemon();
  t.after(() => d.stop());
  const status = await api(d, 'GET', '/api/push');
  const b = browser(`${push.origin}/push/device-1?token=abc`);
  assert.equal((await api(d, 'POST', '/api/push/subscriptions', b.subscription)).status, 200);

  let r = await api(d, 'POST', '/api/v1/sessions', { shell: 'bash' });
  assert.equal(r.status, 201, r.text);
  const id = r.json.session;
  r = await api(d, 'POST', `/api/v1/sessions/${id}/notify`, { state: 'waiting' });
  assert.equal(r.status, 200, r.text);
  await waitFor(() => push.received.length >= 1, { timeout: 10000, what: 'a push at the stand-in push service' });

  const sent = push.received[0];
  assert.equal(sent.method, 'POST');
  assert.equal(sent.url, '/push/device-1?token=abc');
  assert.equal(sent.headers['content-encoding'], 'aes128gcm');
  assert.equal(sent.headers.urgency, 'high', 'waiting is urgent');
  assert.ok(Number(sent.headers.ttl) > 0 && Number(sent.headers.ttl) <= 86400, `TTL ${sent.headers.ttl}`);
  verifyVapid(sent.headers.authorization, status.json.public_key, push.origin);
  assert.equal(sent.body.readUInt32BE(16), 4096, 'record size 4096');
  const plain = ece.decrypt(sent.body, { version: 'aes128gcm', privateKey: b.ecdh, authSecret: b.auth });
  const msg = JSON.parse(plain.toString('utf8'));
  assert.equal(msg.session, id);
  assert.equal(msg.kind, 'waiting');
  assert.equal(msg.url, `/#session=${id}`);
  assert.equal(typeof msg.title, 'string');
  assert.ok(msg.title.length > 0, 'a title');

  // The push service says this browser is gone: wharf forgets it. (Another session: the
  // first one's next notification waits out its debounce.)
  push.reply.status = 410;
  r = await api(d, 'POST', '/api/v1/sessions', { shell: 'bash' });
  assert.equal(r.status, 201, r.text);
  r = await api(d, 'POST', `/api/v1/sessions/${r.json.session}/notify`, { state: 'finished' });
  assert.equal(r.status, 200, r.text);
  await waitFor(async () => (await api(d, 'GET', '/api/push')).json.subscriptions === 0,
    { timeout: 10000, what: 'the gone subscription to be removed' });
  assert.equal(push.received.length, 2);
  assert.equal(push.received[1].headers.urgency, 'normal', 'finished is not urgent');
  assert.doesNotMatch(readFileSync(join(d.stateDir, 'push-subscriptions.json'), 'utf8'), /device-1/);
});
