// Activity in a real browser against the real daemon: a session printing steadily shows
// working on its tab, then finished once the quiet held; the page title counts it and the
// favicon marks it; arriving at it (or touching it: a key, a click) clears it for every
// window. The daemon works activity out (docs/protocol.md, "Activity"); the page only
// shows it. The first test puts the marks into the daemon's lists on their way to the
// page (a routed socket), so the page's side is proven whatever the daemon reports; the
// others need the daemon's activity detector. Each test has its own daemon; every wait
// has a deadline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt,
  run, tabNames, selectedTab, screenshot, newSession, waitFor, artifactsDir,
} from '../support/bar_page.mjs';

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
async function saveFavicon(page, name) {
  const href = await faviconHref(page);
  if (href.startsWith('data:image/png;base64,')) writeFileSync(join(artifactsDir, name), Buffer.from(href.split(',')[1], 'base64'));
}
const favicon = (page) => page.evaluate(() => document.documentElement.dataset.favicon ?? 'plain');
const faviconHref = (page) => page.evaluate(() => document.querySelector('link[rel="icon"]').href);

test('a busy session shows working, then finished; the title and favicon say so; arriving clears it',
  { timeout: 120000 }, async (t) => {
    const daemon = await ownDaemon(t);
    const page = await newWindow(t, browser);
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
  await saveFavicon(page, 'favicon-working.png');

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
  const page = await newWindow(t, browser);
  const lists = recordSessions(page);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  if (!lists.at(-1)?.every((row) => 'activity' in row)) {
    t.skip('this daemon sends no `activity` in its sessions rows yet (docs/protocol.md, Activity)');
    return;
  }
  const [name] = await tabNames(page);
  // A second window on the same daemon sees the same marks.
  const second = await newWindow(t, browser);
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

test('the page shows what the rows say: lights, title, favicon, seen and chime', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  // The daemon's frames pass through the test, which sets each row's `activity` as it
  // likes and answers `seen` itself, as the daemon would.
  const marks = new Map(); // id -> activity to show
  const seen = [];
  let route = null;
  let lastList = null;
  const rewrite = (list) => JSON.stringify({ ...list, sessions: list.sessions.map((row) => ({ ...row, activity: marks.get(row.id) ?? 'idle' })) });
  const push = () => { if (route && lastList) route.send(rewrite(lastList)); };
  await page.routeWebSocket(/\/ws\?/, (ws) => {
    const server = ws.connectToServer();
    route = ws;
    ws.onMessage((message) => {
      if (typeof message === 'string' && message.includes('"seen"')) {
        const msg = JSON.parse(message);
        seen.push(msg.session);
        marks.delete(msg.session);
        push();
        return;
      }
      server.send(message);
    });
    server.onMessage((message) => {
      if (typeof message === 'string' && message.startsWith('{"type":"sessions"')) {
        lastList = JSON.parse(message);
        ws.send(rewrite(lastList));
        return;
      }
      ws.send(message);
    });
  });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const [s1] = await tabNames(page);
  const s2 = await newSession(page);
  const idOf = async (name) => Number(await page.locator('.tab').filter({ has: page.getByRole('tab', { name, exact: true }) }).getAttribute('data-session'));
  const id1 = await idOf(s1);
  const id2 = await idOf(s2);
  const plainIcon = await faviconHref(page);

  // Working: the light travels round the tab; the favicon gets its bar.
  marks.set(id1, 'working');
  push();
  await waitFor(async () => (await activityOf(page, s1)) === 'working', { what: 'the working light' });
  const orbit = await page.locator(`.tab[data-session="${id1}"]`).evaluate((el) => getComputedStyle(el, '::before').animationName);
  assert.equal(orbit, 'tab-orbit', 'a moving light (CSS animation) round the working tab');
  await waitFor(async () => (await favicon(page)) === 'working', { what: 'the favicon\'s working bar' });
  assert.notEqual(await faviconHref(page), plainIcon);
  assert.match(await faviconHref(page), /^data:image\/png;base64,/);
  assert.equal(await page.title(), `${s2} — wharf`, 'working is not counted');
  await screenshot(page, 'activity-working.png');
  await saveFavicon(page, 'favicon-working.png');

  // Finished (a dot) and waiting (a diamond): a flash, then a steady mark; the title
  // counts both, the favicon carries the dot.
  marks.set(id1, 'finished');
  marks.set(id2, 'waiting');
  push();
  await waitFor(async () => (await activityOf(page, s1)) === 'finished', { what: 'the finished mark' });
  assert.equal(await page.locator(`.tab[data-session="${id1}"]`).evaluate((el) => el.classList.contains('flash')), true, 'it flashes');
  await waitFor(async () => (await page.title()) === `(2) ${s2} — wharf`, { what: 'the title to count two' });
  await waitFor(async () => (await favicon(page)) === 'waiting', { what: 'the favicon\'s waiting dot' });
  const shapes = await page.locator('.tab .tab-light').evaluateAll((lights) => lights.map((l) => getComputedStyle(l).borderRadius + '|' + getComputedStyle(l).transform));
  assert.notEqual(shapes[0], shapes[1], `finished and waiting differ in shape: ${shapes}`);
  await screenshot(page, 'activity-finished-waiting.png');
  await saveFavicon(page, 'favicon-waiting.png');

  // Touching the attached session (a key that types nothing) sends `seen` for it.
  await page.keyboard.press('Shift');
  await waitFor(() => seen.includes(id2), { what: '`seen` for the touched session' });
  await waitFor(async () => (await page.title()) === `(1) ${s2} — wharf`, { what: 'the count to drop' });
  assert.ok(!seen.includes(id1), 'touching one session clears only that one');
  // Arriving at a lit session is looking at it.
  await page.getByRole('tab', { name: s1, exact: true }).click();
  await waitFor(() => seen.includes(id1), { what: '`seen` on arriving' });
  await waitFor(async () => (await page.title()) === `${s1} — wharf`, { what: 'the title without a count' });
  await waitFor(async () => (await favicon(page)) === 'plain', { what: 'the plain favicon back' });

  // A chime plays one sound; muted, none.
  route.send(JSON.stringify({ type: 'chime', session: id1 }));
  await waitFor(() => page.evaluate(() => document.documentElement.dataset.chimes === '1'), { what: 'one chime' });
  await page.locator('#tabs .tab-bell').click();
  assert.equal(await page.locator('#tabs .tab-bell').getAttribute('aria-pressed'), 'true', 'the bell is muted');
  route.send(JSON.stringify({ type: 'chime', session: id1 }));
  await waitFor(() => page.evaluate(() => document.documentElement.dataset.chimesMuted === '1'), { what: 'the muted chime to be handled' });
  assert.equal(await page.evaluate(() => document.documentElement.dataset.chimes), '1', 'a muted bell plays nothing');
  assertNoProblems(page);
});
