// Driving from two devices (issue 13): a desktop page drives a session, a phone page
// watches it, and the desktop reloads. The reloaded page presents the same window token
// (sessionStorage survives a reload), so the daemon gives it back the lease it kept for
// it: the desktop still drives and the phone never stopped watching, not even for a
// moment. Take over on the phone still works at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt,
  waitForLine, run, waitFor,
} from '../support/bar_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const shots = '/tmp/h/shots13';

// Whether the page shows itself watching its session (the bar's Watching box), read from
// the DOM so a phone layout that hides the tab strip still answers.
const watching = (page) => page.evaluate(() => {
  const box = document.querySelector('#tabs .tab-watcher');
  return box != null && !box.hidden;
});

// Records, inside the page, any moment it stopped showing itself as a watcher.
function recordDriving(page) {
  return page.evaluate(() => {
    window.droveSeen = false;
    const check = () => {
      const box = document.querySelector('#tabs .tab-watcher');
      if (box == null || box.hidden) window.droveSeen = true;
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

test('a desktop reload keeps driving; the watching phone never becomes the driver', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const desktop = await newWindow(t, browser);
  await openAttached(desktop, daemon);
  await waitForPrompt(desktop);
  assert.equal(await watching(desktop), false, 'the first window drives');

  const phone = await newWindow(t, browser, { width: 390, height: 844, hasTouch: true, deviceScaleFactor: 3 });
  await openAttached(phone, daemon);
  await waitFor(() => watching(phone), { what: 'the phone to watch' });
  await recordDriving(phone);

  const token = await desktop.evaluate(() => sessionStorage.getItem('wharf.windowToken'));
  assert.match(token, /^[0-9a-f]{32}$/, 'the tab keeps a 128-bit window token');
  await desktop.reload();
  await waitFor(async () => (await desktop.locator('#tabs .tab-watcher').count()) === 1, { what: 'the bar after the reload' });
  await waitForPrompt(desktop);
  assert.equal(await desktop.evaluate(() => sessionStorage.getItem('wharf.windowToken')), token, 'the reload keeps the token');
  await waitFor(async () => !(await watching(desktop)), { what: 'the reloaded desktop to drive' });
  await run(desktop, 'echo reloaded-$((40+2))');
  await waitForLine(desktop, 'reloaded-42');
  await waitForLine(phone, 'reloaded-42', { what: 'the phone to see the desktop\'s output' });
  assert.equal(await watching(phone), true, 'the phone still watches');
  assert.equal(await phone.evaluate(() => window.droveSeen), false, 'the phone was handed the session during the reload');
  mkdirSync(shots, { recursive: true });
  await phone.screenshot({ path: `${shots}/driving_phone_watching_390.png` });

  // A new tab is another window: its own token, so it watches.
  const other = await desktop.context().newPage();
  t.after(() => other.close());
  await openAttached(other, daemon);
  assert.notEqual(await other.evaluate(() => sessionStorage.getItem('wharf.windowToken')), token);
  await waitFor(() => watching(other), { what: 'a new tab to watch' });

  // The phone's explicit Take over wins at once.
  await phone.getByRole('button', { name: 'Take over this session' }).first().dispatchEvent('click');
  await waitFor(async () => !(await watching(phone)), { what: 'the phone to drive after Take over' });
  await waitFor(() => watching(desktop), { what: 'the desktop to watch' });
  assertNoProblems(desktop, phone);
});
