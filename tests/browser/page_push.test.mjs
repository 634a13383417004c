// Web Push in a real Chromium against the real daemon (web/web_push.js, web/sw.js).
// Headless Chromium has no push service to subscribe with (it would be Google's, over the
// network), so the two halves are tested where each is real:
// - the service worker's half: a push is handed to the registered worker through the
//   DevTools protocol (ServiceWorker.deliverPushMessage, what Chromium's own push service
//   would do after decrypting), and the worker shows the notification (read back with
//   registration.getNotifications()); a tap on it (a NotificationEvent dispatched in the
//   worker) makes the open wharf page switch to #session=ID.
// - the page's half: the settings switch subscribes through pushManager (stubbed in the
//   page with a subscription whose keys were made here) and hands it to the daemon, which
//   keeps it; turning it off withdraws it; a browser that cannot subscribe says so; and on
//   plain http at a LAN address (no secure context) the switch is disabled with the reason.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, screenshot } from '../support/page.mjs';
import { waitFor } from '../support/daemon.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

async function pushStatus(daemon) {
  const res = await fetch(`${daemon.origin}/api/push`, { headers: { 'X-Wharf-Key': daemon.key } });
  return res.json();
}

async function openSettings(page) {
  await page.locator('#tabs').getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.waitFor({ timeout: 5000 });
  return dialog;
}

// The worker's registration id, as the DevTools protocol names it.
async function registrationId(cdp, origin) {
  const found = new Promise((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

test('a push shows a notification per session, and a tap opens that session in the open page', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await page.context().grantPermissions(['notifications'], { origin: daemon.origin });
  await openAttached(page, daemon);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const cdp = await page.context().newCDPSession(page);
  const id = await registrationId(cdp, daemon.origin);

  const deliver = (msg) => cdp.send('ServiceWorker.deliverPushMessage', { origin: `${daemon.origin}/`, registrationId: id, data: JSON.stringify(msg) });
  await deliver({ title: 'claude (7) is waiting for you', body: 'a question', session: 7, kind: 'waiting', url: 'https://evil.example/' });
  const shown = () => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications())
    .map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })));
  await waitFor(async () => (await shown()).length === 1, { timeout: 10000, what: 'the notification to be shown' });
  assert.deepEqual(await shown(), [{
    title: 'claude (7) is waiting for you', body: 'a question', tag: 'wharf-session-7',
    data: { session: 7, url: '/#session=7' }, // made from the id, never the message's URL
  }]);
  // A newer push for the same session replaces it; another session gets its own.
  await deliver({ title: 'claude (7) finished', body: '', session: 7, kind: 'finished' });
  await deliver({ title: 'bash (9) finished', body: '', session: 9, kind: 'finished' });
  await waitFor(async () => (await shown()).some((n) => n.tag === 'wharf-session-9'), { timeout: 10000, what: 'the second session\'s notification' });
  const tags = (await shown()).map((n) => `${n.tag}: ${n.title}`).sort();
  assert.deepEqual(tags, ['wharf-session-7: claude (7) finished', 'wharf-session-9: bash (9) finished']);

  // A tap: the worker tells the open page, which opens the session through its address
  // (#session=ID, deep_link.js). A second session is started for it to switch to.
  const res = await fetch(`${daemon.origin}/api/v1/sessions`, {
    method: 'POST', headers: { 'X-Wharf-Key': daemon.key, 'Content-Type': 'application/json' }, body: JSON.stringify({ shell: 'bash' }),
  });
  assert.equal(res.status, 201);
  const other = (await res.json()).session;
  const selected = () => page.evaluate(() => document.querySelector('[role="tab"][aria-selected="true"]')?.closest('.tab')?.dataset.session);
  await waitFor(async () => (await page.locator(`.tab[data-session="${other}"]`).count()) === 1, { timeout: 10000, what: 'the second session\'s tab' });
  assert.notEqual(await selected(), String(other));
  await deliver({ title: `bash (${other}) finished`, body: '', session: other, kind: 'finished' });
  await waitFor(async () => (await shown()).some((n) => n.tag === `wharf-session-${other}`), { timeout: 10000, what: 'its notification' });
  await page.evaluate(() => {
    window.openedByPush = [];
    window.addEventListener('wharf:open-session', (e) => window.openedByPush.push(e.detail.session));
  });
  const worker = page.context().serviceWorkers().find((w) => w.url().startsWith(`${daemon.origin}/static/sw.js`));
  assert.ok(worker, 'the page\'s service worker');
  await worker.evaluate(async (tag) => {
    const [note] = (await self.registration.getNotifications()).filter((n) => n.tag === tag);
    // Synthetic, so waitUntil() refuses it (isTrusted is false); the handler's work runs anyway.
    self.dispatchEvent(new NotificationEvent('notificationclick', { notification: note }));
  }, `wharf-session-${other}`);
  await waitFor(async () => (await selected()) === String(other), { timeout: 10000, what: `the page to open session ${other}` });
  assert.deepEqual(await page.evaluate(() => window.openedByPush), [other]);
  assert.equal(await page.evaluate(() => location.hash), '', 'the address keeps no #session');
  assert.ok(!(await shown()).some((n) => n.tag === `wharf-session-${other}`), 'the tapped notification is closed');
  await screenshot(page, 'push-tap-opened-session.png');
  assertNoProblems(page);
});

test('the settings switch subscribes this browser with the daemon\'s key, and withdraws it', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const { public_key: publicKey } = await pushStatus(daemon);
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const fake = {
    endpoint: 'https://push.example.com/send/browser-1',
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') },
  };
  const page = await newWindow(t, browser, { width: 900, height: 900 });
  await page.context().grantPermissions(['notifications'], { origin: daemon.origin });
  // The push manager of this headless Chromium cannot reach a push service: stand in for
  // it, recording the key it was asked to subscribe with.
  await page.addInitScript((sub) => {
    let current = null;
    window.subscribedWith = null;
    PushManager.prototype.getSubscription = async function getSubscription() { return current; };
    PushManager.prototype.subscribe = async function subscribe(options) {
      window.subscribedWith = { userVisibleOnly: options.userVisibleOnly, key: btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey))) };
      current = {
        endpoint: sub.endpoint, options: { applicationServerKey: options.applicationServerKey.buffer ?? options.applicationServerKey },
        toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
        unsubscribe: async () => { current = null; return true; },
      };
      return current;
    };
  }, fake);
  await openAttached(page, daemon);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const dialog = await openSettings(page);
  const box = dialog.getByRole('checkbox', { name: 'Push notifications to this device' });
  await waitFor(() => box.isEnabled(), { timeout: 10000, what: 'the switch to be ready' });
  assert.equal(await box.isChecked(), false);
  await box.check();
  await waitFor(async () => (await pushStatus(daemon)).subscriptions === 1, { timeout: 10000, what: 'the daemon to keep the subscription' });
  await waitFor(() => page.locator('#setting-push').evaluate((el) => el.dataset.state === 'on' && !el.disabled), { timeout: 10000, what: 'the switch to show on' });
  const asked = await page.evaluate(() => window.subscribedWith);
  assert.equal(asked.userVisibleOnly, true);
  assert.equal(Buffer.from(asked.key, 'base64').toString('base64url'), publicKey, 'subscribed with the daemon\'s VAPID key');
  assert.match(await page.locator('#settings-push-note').textContent(), /gets a push/);
  await screenshot(page, 'push-settings-on.png');

  await box.uncheck();
  await waitFor(async () => (await pushStatus(daemon)).subscriptions === 0, { timeout: 10000, what: 'the daemon to forget it' });
  await waitFor(() => page.locator('#setting-push').evaluate((el) => el.dataset.state === 'off' && !el.disabled), { timeout: 10000, what: 'the switch to show off' });
  assertNoProblems(page);
});

test('a browser that cannot subscribe leaves the switch off and says why', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await page.context().grantPermissions(['notifications'], { origin: daemon.origin });
  await openAttached(page, daemon);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const dialog = await openSettings(page);
  const box = dialog.getByRole('checkbox', { name: 'Push notifications to this device' });
  await waitFor(() => box.isEnabled(), { timeout: 10000, what: 'the switch to be ready' });
  await box.click();
  // Headless Chromium's real push manager has no push service to reach.
  await waitFor(() => page.locator('#settings-push-note').evaluate((el) => /Push is not on/.test(el.textContent)), { timeout: 20000, what: 'the failure to be told' });
  assert.equal(await box.isChecked(), false);
  assert.equal((await pushStatus(daemon)).subscriptions, 0);
  await screenshot(page, 'push-settings-failed.png');
});

test('on plain http to a LAN address the switch is disabled and says why', { timeout: 60000 }, async (t) => {
  const lan = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  if (!lan) { t.skip('this machine has no non-loopback IPv4 address'); return; }
  const daemon = await ownDaemon(t, { args: ['--listen', lan] });
  const page = await newWindow(t, browser, { width: 900, height: 900 });
  await openAttached(page, daemon);
  const dialog = await openSettings(page);
  const box = dialog.getByRole('checkbox', { name: 'Push notifications to this device' });
  await waitFor(() => page.locator('#settings-push-note').evaluate((el) => el.textContent.length > 0), { timeout: 10000, what: 'the hint' });
  assert.equal(await box.isDisabled(), true);
  assert.match(await page.locator('#settings-push-note').textContent(), /secure page: https, or http on localhost/);
  await screenshot(page, 'push-settings-insecure.png');
});
