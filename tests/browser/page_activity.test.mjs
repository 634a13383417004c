// Activity in a real browser against the real daemon: a session printing steadily shows
// working on its tab, then finished once the quiet held; the page title counts it and the
// favicon marks it; arriving at it (or touching it: a key, a click) clears it for every
// window. The daemon works activity out (docs/protocol.md, "Activity"); the page only
// shows it. Each test has its own daemon; every wait has a deadline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt,
  run, tabNames, selectedTab, screenshot, newSession, waitFor,
} from '../support/page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

// Three seconds of steady output, then quiet.
const BUSY = 'for i in $(seq 30); do echo x$i; sleep 0.1; done';

// The rows of every `sessions` list the page received, newest last.
function recordSessions(page) {
  const lists = [];
  page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
    if (typeof payload !== 'string') return;
    try {
      const msg = JSON.parse(payload);
      if (msg.type === 'sessions') lists.push(msg.sessions);
    } catch { /* not ours */ }
  }));
  return lists;
}

const activityOf = (page, name) => page.locator('.tab')
  .filter({ has: page.getByRole('tab', { name, exact: true }) }).getAttribute('data-activity', { timeout: 1000 }).catch(() => null);
const favicon = (page) => page.evaluate(() => document.documentElement.dataset.favicon ?? 'plain');
const faviconHref = (page) => page.evaluate(() => document.querySelector('link[rel="icon"]').href);

test('a busy session shows working, then finished; the title and favicon say so; arriving clears it',
  { timeout: 120000 }, async (t) => {
    const daemon = await ownDaemon(t);
    const page = await newWindow(browser, t);
    const lists = recordSessions(page);
    await openAttached(page, daemon);
    await waitForPrompt(page);
    if (!lists.at(-1)?.every((row) => 'activity' in row)) {
      t.skip('this daemon sends no `activity` in its sessions rows yet (docs/protocol.md, Activity)');
      return;
    }
    const [busy] = await tabNames(page);
    const plainIcon = await faviconHref(page);
    assert.equal(await favicon(page), 'plain');

    // Start the busy loop, then move to another session: the tab we left tells the story.
    await run(page, BUSY);
    const other = await newSession(page);
    await waitFor(async () => (await activityOf(page, busy)) === 'working', { timeout: 15000, what: `${busy} to show working` });
    assert.match(await favicon(page), /working/);
    assert.notEqual(await faviconHref(page), plainIcon, 'the favicon changed while working');
    await screenshot(page, 'activity-working.png');

    await waitFor(async () => (await activityOf(page, busy)) === 'finished', { timeout: 20000, what: `${busy} to show finished` });
    await waitFor(async () => (await page.title()) === `(1) ${other} — wharf`, { what: 'the title to count one finished session' });
    assert.match(await favicon(page), /waiting/, 'the favicon carries the waiting dot');
    assert.doesNotMatch(await favicon(page), /working/);
    await screenshot(page, 'activity-finished.png');

    // Arriving at it is looking at it: cleared, and the title and icon go back.
    await page.getByRole('tab', { name: busy, exact: true }).click();
    await waitFor(async () => (await selectedTab(page)) === busy, { what: `${busy} attached` });
    await waitFor(async () => (await activityOf(page, busy)) === 'idle', { timeout: 10000, what: 'the finished mark to clear' });
    await waitFor(async () => (await page.title()) === `${busy} — wharf`, { what: 'the title without a count' });
    assert.equal(await favicon(page), 'plain');
    assertNoProblems(page);
  });

test('touching the attached session clears its finished mark', { timeout: 120000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(browser, t);
  const lists = recordSessions(page);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  if (!lists.at(-1)?.every((row) => 'activity' in row)) {
    t.skip('this daemon sends no `activity` in its sessions rows yet (docs/protocol.md, Activity)');
    return;
  }
  const [name] = await tabNames(page);
  // A second window on the same daemon sees the same marks.
  const second = await newWindow(browser, t);
  await openAttached(second, daemon);
  await run(page, BUSY);
  await waitFor(async () => (await activityOf(page, name)) === 'working', { timeout: 15000, what: 'working' });
  await waitFor(async () => (await activityOf(page, name)) === 'finished', { timeout: 20000, what: 'finished, while attached' });
  await waitFor(async () => (await activityOf(second, name)) === 'finished', { what: 'finished in the second window too' });
  assert.match(await page.title(), /^\(1\) /);
  // A key that types nothing is still a touch.
  await page.keyboard.press('Shift');
  await waitFor(async () => (await activityOf(page, name)) === 'idle', { timeout: 10000, what: 'the touch to clear it' });
  await waitFor(async () => (await activityOf(second, name)) === 'idle', { what: 'cleared for every window' });
  assert.doesNotMatch(await page.title(), /^\(/);
  assertNoProblems(page, second);
});
