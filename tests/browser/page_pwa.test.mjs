// The page as an installable app in a real Chromium against the real daemon: the
// manifest and its icons are served and well formed, the page registers its service
// worker (on 127.0.0.1, a secure context), the worker keeps the shell without ever
// keeping the key (every cached URL and body is read back and searched for it), and a
// reload with the daemon stopped shows wharf's own curtain instead of Chromium's error
// page. Every wait has a deadline; nothing sleeps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { networkInterfaces } from 'node:os';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, screenshot,
} from '../support/page.mjs';
import { waitFor } from '../support/daemon.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

// Width and height from a PNG's IHDR, and proof the image data inflates (a real PNG).
function pngInfo(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const chunks = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') chunks.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  assert.ok(inflateSync(Buffer.concat(chunks)).length > width * height, 'the image data inflates');
  return { width, height };
}

// Every cached request of every cache, with its body as text, read inside the page.
function readCaches(page) {
  return page.evaluate(async () => {
    const out = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const response = await cache.match(request);
        out.push({ cache: name, url: request.url, body: await response.text() });
      }
    }
    return out;
  });
}

test('the manifest and its icons are served, and the page links them', async (t) => {
  const daemon = await ownDaemon(t);
  const res = await fetch(`${daemon.origin}/static/manifest.webmanifest`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/manifest+json');
  const manifest = await res.json();
  assert.equal(manifest.name, 'wharf');
  assert.ok(manifest.short_name);
  assert.equal(manifest.display, 'standalone');
  assert.equal(manifest.start_url, '/');
  assert.equal(manifest.scope, '/');
  assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/i);
  assert.match(manifest.background_color, /^#[0-9a-f]{6}$/i);
  assert.doesNotMatch(JSON.stringify(manifest), /[?&]k=/, 'the manifest holds no key');

  const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
  for (const size of [192, 512]) assert.ok(pngs.some((i) => i.sizes === `${size}x${size}` && i.purpose === 'any'), `a ${size} px icon`);
  assert.ok(pngs.some((i) => i.purpose === 'maskable'), 'a maskable icon');
  for (const icon of pngs) {
    const got = await fetch(new URL(icon.src, daemon.origin));
    assert.equal(got.status, 200, icon.src);
    assert.equal(got.headers.get('content-type'), 'image/png', icon.src);
    const { width, height } = pngInfo(Buffer.from(await got.arrayBuffer()));
    assert.equal(`${width}x${height}`, icon.sizes, icon.src);
  }
  const apple = await fetch(`${daemon.origin}/static/apple-touch-icon.png`);
  assert.equal(apple.status, 200);
  assert.deepEqual(pngInfo(Buffer.from(await apple.arrayBuffer())), { width: 180, height: 180 });

  // The worker's script may take the whole origin as its scope, and is always revalidated.
  const sw = await fetch(`${daemon.origin}/static/sw.js`);
  assert.equal(sw.status, 200);
  assert.match(sw.headers.get('content-type'), /^text\/javascript/);
  assert.equal(sw.headers.get('service-worker-allowed'), '/');
  assert.equal(sw.headers.get('cache-control'), 'no-cache');
  // No other static file gets to widen a worker's scope.
  assert.equal((await fetch(`${daemon.origin}/static/main.js`)).headers.get('service-worker-allowed'), null);

  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  const links = await page.evaluate(() => ({
    manifest: document.querySelector('link[rel=manifest]')?.getAttribute('href'),
    apple: document.querySelector('link[rel=apple-touch-icon]')?.getAttribute('href'),
    theme: document.querySelector('meta[name=theme-color]')?.content,
  }));
  assert.deepEqual(links, { manifest: '/static/manifest.webmanifest', apple: '/static/apple-touch-icon.png', theme: manifest.theme_color });
  // Chromium fetched and parsed the manifest under the page's policy (manifest-src).
  const cdp = await page.context().newCDPSession(page);
  const parsed = await cdp.send('Page.getAppManifest');
  assert.deepEqual(parsed.errors, [], 'Chromium parsed the manifest without errors');
  assert.match(parsed.url, /\/static\/manifest\.webmanifest$/);
  assertNoProblems(page);
});

test('the worker keeps the shell, never the key, and a reload without the daemon shows the curtain', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  assert.equal(scope, `${daemon.origin}/`);
  await waitFor(() => page.evaluate(() => document.documentElement.dataset.shell === 'kept'),
    { timeout: 15000, what: 'the worker to keep the shell' });
  assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null), 'the worker controls the page');

  const kept = await readCaches(page);
  const paths = kept.map((entry) => new URL(entry.url).pathname);
  for (const path of ['/', '/static/main.js', '/static/curtain.js', '/static/style.css', '/static/vendor/xterm/xterm.mjs', '/static/manifest.webmanifest', '/static/icon-192.png'])
    assert.ok(paths.includes(path), `${path} is kept (kept: ${paths.join(' ')})`);
  assert.equal(new Set(kept.map((entry) => entry.cache)).size, 1, 'one cache, of this version');
  assert.match(kept[0].cache, /^wharf-shell-\d/);
  for (const entry of kept) {
    assert.ok(!entry.url.includes(daemon.key), `the cached URL ${entry.url} holds no key`);
    assert.equal(new URL(entry.url).search, '', `${entry.url} is kept without its query`);
    assert.ok(!entry.body.includes(daemon.key), `the body kept for ${entry.url} holds no key`);
    assert.ok(!/^\/(api|ws|pane|mcp)(\/|$)/.test(new URL(entry.url).pathname), `${entry.url} is the shell`);
  }
  assertNoProblems(page);

  // The daemon goes away; a reload still opens wharf's page, whose curtain says so.
  await daemon.stop();
  page.problems.length = 0;
  await page.reload({ waitUntil: 'domcontentloaded' });
  assert.equal(await page.title(), 'wharf', 'wharf\'s own page, not the browser\'s error');
  await waitFor(() => page.evaluate(() => {
    const curtain = document.getElementById('curtain');
    return !curtain.hidden && curtain.dataset.reason === 'gone';
  }), { timeout: 20000, what: 'the curtain: wharf is not answering' });
  assert.match(await page.locator('#curtain').textContent(), /not answering/);
  // What fails while the daemon is away is the socket and the status probe, nothing else.
  const expectedWhileDown = /WebSocket|ERR_CONNECTION_REFUSED|api\/(status|v1\/health)|\/ws\?/;
  assert.deepEqual(page.problems.filter((p) => !expectedWhileDown.test(p)), []);
});

// Plain http on a LAN address is not a secure context: no worker, no cache, and not a
// word in the console; the page works as before.
test('on plain http to a LAN address the page registers nothing and logs nothing', { timeout: 60000 }, async (t) => {
  const lan = Object.values(networkInterfaces()).flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  if (!lan) { t.skip('this machine has no non-loopback IPv4 address'); return; }
  const daemon = await ownDaemon(t, { args: ['--listen', lan] });
  assert.equal(daemon.host.split(':')[0], lan);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitFor(() => page.evaluate(() => document.documentElement.dataset.shell !== undefined),
    { timeout: 15000, what: 'the page to decide about the worker' });
  assert.deepEqual(await page.evaluate(() => ({
    shell: document.documentElement.dataset.shell, secure: window.isSecureContext, worker: 'serviceWorker' in navigator,
  })), { shell: 'unavailable', secure: false, worker: false });
  assert.equal(page.context().serviceWorkers().length, 0);
  // Chromium's own warning that the daemon's COOP header means nothing on plain http is
  // the daemon's doing, not the page's, and not this feature's.
  page.problems = page.problems.filter((p) => !/Cross-Origin-Opener-Policy header has been ignored/.test(p));
  assertNoProblems(page);
});

for (const [width, height] of [[390, 844], [360, 740]]) {
test(`on a ${width}x${height} phone, the offline reload shows the curtain within the screen`, { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser, { width, height, hasTouch: true, deviceScaleFactor: 3 });
  await openAttached(page, daemon);
  await waitFor(() => page.evaluate(() => document.documentElement.dataset.shell === 'kept'),
    { timeout: 15000, what: 'the worker to keep the shell' });
  await daemon.stop();
  await page.reload({ waitUntil: 'domcontentloaded' });
  await waitFor(() => page.evaluate(() => document.getElementById('curtain').dataset.reason === 'gone'),
    { timeout: 20000, what: 'the curtain: wharf is not answering' });
  const card = await page.locator('.curtain-card').boundingBox();
  assert.ok(card.x >= 16 && card.x + card.width <= width - 16, `the card keeps a margin on both sides (${JSON.stringify(card)})`);
  await screenshot(page, `pwa-offline-curtain-${width}.png`);
});
}
