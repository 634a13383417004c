// Pairing in a real Chromium (docs/remote.md, "Pairing a phone"): the printed `?k=` link
// ends on a clean address that works by its device cookie alone; the settings' "Pair a
// device…" shows a QR code and a one-time link; a second, fresh browser (a phone's size,
// touch) opens that link and gets a working page with no key anywhere in its address; the
// first browser lists both devices (its own marked) and revokes the phone's, whose page
// says so at once and whose reload is refused. Screenshots of the pairing dialog at
// desktop and phone sizes. Every wait has a deadline; nothing sleeps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, waitForLine, run, waitForPrompt,
} from '../support/page.mjs';
import { waitFor } from '../support/daemon.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const shots = process.env.WHARF_SHOTS_DIR ?? null;
async function shoot(page, name) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: `${shots}/${name}.png` });
}

// Attached and working: the shell's prompt is on the screen (read as a screen reader does).
async function waitUntilAttached(page) {
  await page.locator('.xterm-accessibility-tree').waitFor({ timeout: 10000 });
  await waitForPrompt(page);
}

async function openPairDialog(page) {
  await page.locator('button.tab-settings').click();
  await page.locator('dialog.settings#settings').waitFor({ state: 'visible' });
  await page.getByRole('button', { name: 'Pair a device…' }).click();
  const dialog = page.locator('dialog#pair-dialog');
  await dialog.waitFor({ state: 'visible' });
  await dialog.locator('img.pair-qr').waitFor({ state: 'visible', timeout: 10000 });
  await waitFor(() => dialog.locator('img.pair-qr').evaluate((img) => img.complete && img.naturalWidth > 0), { what: 'the QR code to load' });
  return dialog;
}

test('a ?k= link is traded for a cookie; a second browser pairs through the settings\' link and QR code; revoking it takes effect at once', async (t) => {
  const d = await ownDaemon(t);
  const desk = await newWindow(t, browser, { width: 1000, height: 700 });
  const response = await desk.goto(`${d.url}&toolbar=0`);
  assert.equal(response.status(), 200);
  const deskUrl = new URL(desk.url());
  assert.equal(deskUrl.searchParams.get('k'), null, `the key left the address: ${desk.url()}`);
  assert.equal(deskUrl.searchParams.get('toolbar'), '0', 'other parameters stay');
  // The redirect replaced the keyed address: one step back is the blank page it came from.
  await desk.goBack();
  assert.equal(desk.url(), 'about:blank', 'the keyed address is no entry of the history');
  await desk.goForward();
  assert.equal(new URL(desk.url()).searchParams.get('k'), null);
  assert.equal(await desk.evaluate(() => document.cookie), '', 'the device cookie is HttpOnly');
  await waitUntilAttached(desk);
  // A reload works from the cookie alone.
  await desk.reload();
  await waitUntilAttached(desk);

  const dialog = await openPairDialog(desk);
  const link = await dialog.locator('a.pair-link').textContent();
  assert.match(link, new RegExp(`^http://[^/]+:${d.port}/pair/[23456789A-HJKMNP-TV-Z]{10}$`));
  assert.match(await dialog.locator('.pair-expires').textContent(), /Works once, until/);
  await shoot(desk, 'pairing-dialog-desktop');
  await dialog.getByRole('button', { name: 'Done' }).click();

  // The phone: a fresh context (no cookie, nothing stored), a phone's screen and touch.
  const phone = await newWindow(t, browser, { width: 390, height: 844, hasTouch: true, isMobile: true, deviceScaleFactor: 3 });
  const pairPath = new URL(link).pathname;
  const paired = await phone.goto(`${d.origin}${pairPath}`);
  assert.equal(paired.status(), 200);
  assert.equal(new URL(phone.url()).pathname, '/');
  assert.equal(new URL(phone.url()).search, '', 'no key, no code in the phone\'s address');
  await waitUntilAttached(phone);
  // The desk's settings are still open behind the pairing dialog; they list the phone
  // now (the list refreshes when the pairing dialog closes, and whenever they open).
  await desk.locator('dialog.settings#settings').waitFor({ state: 'visible' });
  await desk.keyboard.press('Escape');
  await desk.locator('button.tab-settings').click();
  const rows = desk.locator('.devices-list li[data-device]');
  await waitFor(async () => (await rows.count()) === 2, { what: 'two devices listed' });
  assert.equal(await desk.locator('.devices-list li.current').count(), 1);
  assert.match(await desk.locator('.devices-list li.current').textContent(), /this browser/);

  // The link worked once: a third browser gets the page that says so.
  const late = await newWindow(t, browser);
  const spent = await late.goto(`${d.origin}${pairPath}`);
  assert.equal(spent.status(), 404);
  assert.match(await late.locator('h1').textContent(), /This pairing link does not work/);
  late.problems.length = 0; // the 404 is the point

  // The phone's own pairing dialog, at its size.
  const phoneDialog = await openPairDialog(phone);
  await shoot(phone, 'pairing-dialog-phone');
  await phoneDialog.getByRole('button', { name: 'Done' }).click();
  await phone.keyboard.press('Escape');

  // Revoke the phone from the desk: Revoke, then Revoke now.
  await desk.locator('.devices-list li:not(.current) button').click();
  await desk.locator('.devices-list li:not(.current) button', { hasText: 'Revoke now' }).click();
  await waitFor(async () => (await rows.count()) === 1, { what: 'the phone gone from the list' });
  await shoot(desk, 'pairing-devices-after-revoke');
  const curtain = phone.locator('#curtain');
  await curtain.waitFor({ state: 'visible', timeout: 5000 });
  assert.match(await curtain.textContent(), /This device is no longer paired/);
  await shoot(phone, 'pairing-phone-revoked');
  const reload = await phone.goto(`${d.origin}/`);
  assert.equal(reload.status(), 403, 'a revoked device\'s reload is refused');
  phone.problems = phone.problems.filter((p) => !/HTTP 403|ERR_ABORTED|websocket|WebSocket/i.test(p));
  // The desk still works.
  await desk.keyboard.press('Escape');
  await run(desk, 'echo desk-$((6*7))');
  await waitForLine(desk, 'desk-42');
  // The back, forward and reload above cut short whatever the page was fetching then.
  desk.problems = desk.problems.filter((p) => !/^request failed: .* net::ERR_ABORTED$/.test(p));
  assertNoProblems(desk);
});
