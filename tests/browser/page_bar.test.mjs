// The tab bar in a real browser (Debian's chromium) against the real daemon: rename and
// drag-to-reorder seen in a second window (and the bar holding still while a drag is in
// flight), the same with a finger on a phone (hold to pick up; a tap and a swipe stay a
// tap and a swipe), ending that asks and lands on the right neighbour (else the left), ending
// another tab that leaves the window where it is, the launcher starting a chosen shell
// in a chosen directory, and the bar's roles and keyboard. Each test has its own daemon
// and its own windows; every wait has a deadline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt, waitForLine,
  run, tabNames, selectedTab, screenshot, newSession, waitFor, screenRows,
} from '../support/bar_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const tab = (page, name) => page.locator('.tab').filter({ has: page.getByRole('tab', { name, exact: true }) });

// Drags the tab named `name` with the mouse so that it lands before the tab `target`
// (pointer events, in small steps, as a hand would). `during` runs mid-drag.
async function dragTab(page, name, target, during) {
  const from = await page.getByRole('tab', { name, exact: true }).boundingBox();
  const to = await tab(page, target).boundingBox();
  const y = from.y + from.height / 2;
  await page.mouse.move(from.x + from.width / 2, y);
  await page.mouse.down();
  const endX = to.x + 4;
  const startX = from.x + from.width / 2;
  for (let i = 1; i <= 10; i++) await page.mouse.move(startX + ((endX - startX) * i) / 10, y);
  await during?.();
  await page.mouse.up();
}

// Three sessions started from window `a` (a new one unless given), and a second window
// `b` that shows them in the registry's order.
async function threeSessionsTwoWindows(t, { daemon, a } = {}) {
  daemon ??= await ownDaemon(t);
  a ??= await newWindow(t, browser);
  await openAttached(a, daemon);
  await waitForPrompt(a);
  const [s1] = await tabNames(a);
  const s2 = await newSession(a);
  const s3 = await newSession(a);
  const b = await newWindow(t, browser);
  await openAttached(b, daemon);
  assert.deepEqual(await tabNames(b), [s1, s2, s3], 'the second window shows the registry\'s order');
  return { daemon, a, b, names: [s1, s2, s3] };
}

test('rename and reorder in one window are seen in a second window', { timeout: 120000 }, async (t) => {
  const { a, b, names: [s1, s2, s3] } = await threeSessionsTwoWindows(t);

  // Double-click renames; Enter saves; the other window sees it.
  await a.getByRole('tab', { name: s1, exact: true }).dblclick();
  const field = a.getByRole('textbox', { name: `Rename ${s1}` });
  await field.fill('api work');
  await field.press('Enter');
  await waitFor(async () => (await tabNames(b)).includes('api work'), { what: 'the rename in the second window' });
  assert.deepEqual(await tabNames(a), ['api work', s2, s3]);

  // Escape cancels: nothing is sent.
  await a.getByRole('tab', { name: s2, exact: true }).dblclick();
  const field2 = a.getByRole('textbox', { name: `Rename ${s2}` });
  await field2.fill('never');
  await field2.press('Escape');
  await waitFor(async () => (await tabNames(a)).includes(s2), { what: 'the name back after Escape' });

  // Clearing the name restores the default, in every window.
  await a.getByRole('tab', { name: 'api work', exact: true }).dblclick();
  const field3 = a.getByRole('textbox', { name: 'Rename api work' });
  await field3.fill('');
  await field3.press('Enter');
  await waitFor(async () => (await tabNames(b))[0] === s1, { what: 'the default name back in the second window' });
  assert.ok(!(await tabNames(b)).includes('never'), 'the cancelled rename went nowhere');

  // (Double-clicking a tab also switched to it, as a click does.)
  const onBeforeDrag = await selectedTab(a);
  // Drag s3 to the front. Mid-drag, the second window renames s2: the first window's bar
  // holds still (the dragged tab stays the same element) and shows the rename after the drop.
  await dragTab(a, s3, s1, async () => {
    assert.equal(await a.locator('.tab.dragging').count(), 1, 'a drag is in flight');
    await b.getByRole('tab', { name: s2, exact: true }).dblclick();
    const other = b.getByRole('textbox', { name: `Rename ${s2}` });
    await other.fill('during');
    await other.press('Enter');
    await waitFor(async () => (await tabNames(b)).includes('during'), { what: 'the rename made mid-drag' });
    assert.equal(await a.locator('.tab.dragging').count(), 1, 'the bar did not rebuild under the drag');
    assert.ok((await tabNames(a)).includes(s2), 'the list that came mid-drag waits for the drop');
    await screenshot(a, 'bar-dragging.png');
  });
  await waitFor(async () => JSON.stringify(await tabNames(b)) === JSON.stringify([s3, s1, 'during']),
    { what: 'the new order in the second window' });
  await waitFor(async () => JSON.stringify(await tabNames(a)) === JSON.stringify([s3, s1, 'during']),
    { what: 'the new order and the mid-drag rename in the first window' });
  // The drop is not a click: the first window is still on the session it was on.
  assert.equal(await selectedTab(a), onBeforeDrag);
  await screenshot(a, 'bar-reordered.png');
  await screenshot(b, 'bar-reordered-second-window.png');
  assertNoProblems(a, b);
});

// A finger on the touch screen, through the DevTools protocol: the browser's own touch
// input, so the browser itself tells a tap from a scroll, and the page cancels what it
// cancels, as on a phone.
async function fingerOn(page) {
  const cdp = await page.context().newCDPSession(page);
  const send = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points });
  return {
    down: ({ x, y }) => send('touchStart', [{ x, y }]),
    move: ({ x, y }) => send('touchMove', [{ x, y }]),
    up: () => send('touchEnd', []),
    cancel: () => send('touchCancel', []),
    // Moves in small steps, as a finger does.
    async slide(from, to, steps = 8) {
      for (let i = 1; i <= steps; i++) {
        await send('touchMove', [{ x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps }]);
      }
    },
  };
}

// The middle of the part of a tab's name that is in view (the list may be scrolled).
function pointOn(page, name) {
  return tab(page, name).locator('.tab-name').evaluate((el) => {
    const box = el.getBoundingClientRect();
    const list = el.closest('.tab-list').getBoundingClientRect();
    const left = Math.max(box.left, list.left);
    const right = Math.min(box.right, list.right);
    return { x: (left + right) / 2, y: box.top + box.height / 2 };
  });
}

test('a finger: a tap switches, a swipe scrolls, a hold picks a tab up and moves it', { timeout: 120000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const a = await newWindow(t, browser, { hasTouch: true, width: 360, height: 720 }); // a phone
  // Every reorder the page sends, as sent.
  await a.addInitScript(() => {
    window.sentReorders = [];
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      if (typeof data === 'string' && JSON.parse(data).type === 'reorder') window.sentReorders.push(JSON.parse(data).order);
      return send.call(this, data);
    };
  });
  const { b, names: [s1, s2, s3] } = await threeSessionsTwoWindows(t, { daemon, a });
  // What the page saw: the clicks on tabs, and how long after its finger came down each
  // tab was lifted.
  await a.evaluate(() => {
    window.tabClicks = [];
    window.liftDelays = [];
    let downAt = 0;
    window.addEventListener('pointerdown', (e) => { downAt = e.timeStamp; }, true);
    window.addEventListener('click', (e) => {
      if (e.target.closest?.('.tab')) window.tabClicks.push(e.target.textContent);
    }, true);
    new MutationObserver((records) => {
      for (const r of records) {
        const tabLifted = r.target.classList.contains('tab') && r.target.classList.contains('dragging');
        if (tabLifted && !r.oldValue?.includes('dragging')) window.liftDelays.push(performance.now() - downAt);
      }
    }).observe(document.querySelector('.tab-list'), { subtree: true, attributeFilter: ['class'], attributeOldValue: true });
  });
  const seen = () => a.evaluate(() => ({ clicks: window.tabClicks, lifts: window.liftDelays.length, reorders: window.sentReorders }));
  const lifted = a.locator('.tab.dragging');
  const finger = await fingerOn(a);
  assert.ok(await a.locator('.tab-list').evaluate((l) => l.scrollWidth > l.clientWidth), 'the phone\'s bar scrolls');

  // Held still, the finger picks the tab up, after a moment and not before. Android would
  // now open its menu: the browser's contextmenu event finds it cancelled. (Headless
  // chromium makes no long press of protocol touches, so the test sends that event.)
  await finger.down(await pointOn(a, s2));
  await lifted.waitFor({ timeout: 5000 });
  assert.equal(await lifted.locator('.tab-name').textContent(), s2);
  assert.ok((await a.evaluate(() => window.liftDelays[0])) >= 300, 'a hold, not a touch, picks the tab up');
  const menuCancelled = await lifted.evaluate((el) => !el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true })));
  assert.equal(menuCancelled, true, 'the long press opens no context menu');
  assert.equal(await a.evaluate(() => window.getSelection().toString()), '', 'nor selects text');
  // Let go where it was picked up: nothing moves, and the release is not a tap.
  await finger.up();
  await lifted.waitFor({ state: 'detached', timeout: 5000 });
  assert.deepEqual(await tabNames(a), [s1, s2, s3]);

  // A tap switches. The click it makes is the first any tab got: the release above made none.
  // (The phone's bar has room for two tabs: the first is brought into view as a swipe would,
  // and the tap lands where the finger just let go, which must not make a double-click.)
  await tab(a, s1).evaluate((el) => el.scrollIntoView({ inline: 'nearest', block: 'nearest' }));
  const onFirst = await pointOn(a, s1);
  await a.touchscreen.tap(onFirst.x, onFirst.y);
  await waitFor(async () => (await selectedTab(a)) === s1, { what: 'the tap to switch to the first tab' });
  assert.deepEqual((await seen()).clicks, [s1]);

  // A quick swipe scrolls the bar and lifts nothing. (Down and the first move go together:
  // however slow the machine, the hold cannot be over in between.)
  const scrolled = () => a.locator('.tab-list').evaluate((l) => l.scrollLeft);
  await a.locator('.tab-list').evaluate((l) => { l.scrollLeft = 0; }); // the bar at its start
  const from = await pointOn(a, s2);
  await Promise.all([finger.down(from), finger.move({ x: from.x - 12, y: from.y })]);
  await finger.slide({ x: from.x - 12, y: from.y }, { x: from.x - 80, y: from.y }, 5);
  await finger.up();
  await waitFor(async () => (await scrolled()) > 0, { what: 'the swipe to scroll the bar' });
  assert.deepEqual(await seen(), { clicks: [s1], lifts: 1, reorders: [] }, 'a swipe is not a tap nor a drag');
  // The list changes (the other window moves to another session): the bar redraws but
  // stays where the finger left it, rather than snapping back to the attached tab.
  // (First the fling comes to rest: the same place for ten polls in a row.)
  let still = { at: -1, polls: 0 };
  const left = await waitFor(async () => {
    const now = await scrolled();
    still = now === still.at ? { at: now, polls: still.polls + 1 } : { at: now, polls: 0 };
    return still.polls >= 10 ? now : null;
  }, { what: 'the swipe\'s scroll to come to rest' });
  const redraws = () => a.evaluate(() => window.listRedraws);
  await a.evaluate(() => {
    window.listRedraws = 0;
    new MutationObserver(() => { window.listRedraws += 1; }).observe(document.querySelector('.tab-list'), { childList: true });
  });
  await b.getByRole('tab', { name: s2, exact: true }).click();
  await waitFor(async () => (await redraws()) > 0, { what: 'the bar to redraw for the new list' });
  assert.equal(await scrolled(), left, 'a redraw does not scroll the bar');

  // Picked up and carried to the front, then cancelled by the browser: the order is back.
  // (The swipe left the front out of view: the list scrolls under the tab at its left end.)
  const frontOf = async () => {
    const box = await a.locator('.tab-list').boundingBox();
    return { x: box.x + 2, y: box.y + box.height / 2 };
  };
  const carryToFront = async (name) => {
    // In full view first, as a finger would bring it (the phone's bar holds two tabs).
    await tab(a, name).evaluate((el) => el.scrollIntoView({ inline: 'nearest', block: 'nearest' }));
    const start = await pointOn(a, name);
    await finger.down(start);
    await lifted.waitFor({ timeout: 5000 });
    await finger.slide(start, await frontOf());
    await waitFor(async () => (await tabNames(a))[0] === name, { what: `${name} carried to the front` });
    return frontOf();
  };
  await carryToFront(s3);
  assert.deepEqual(await tabNames(a), [s3, s1, s2], 'the others make room where it will land');
  await finger.cancel();
  await lifted.waitFor({ state: 'detached', timeout: 5000 });
  assert.deepEqual(await tabNames(a), [s1, s2, s3], 'pointercancel puts the order back');

  // Carried far below the bar, the tab shows that letting go cancels; letting go does.
  const front = await carryToFront(s3);
  await finger.slide(front, { x: front.x, y: front.y + 200 }, 4);
  await waitFor(async () => JSON.stringify(await tabNames(a)) === JSON.stringify([s1, s2, s3]), { what: 'the old order shown far from the bar' });
  assert.equal(await a.locator('.tab.dragging.away').count(), 1);
  await finger.up();
  await lifted.waitFor({ state: 'detached', timeout: 5000 });
  assert.deepEqual(await tabNames(a), [s1, s2, s3]);
  assert.deepEqual(await seen(), { clicks: [s1], lifts: 3, reorders: [] }, 'cancelled drags send nothing');

  // The real thing: s3 to the front, and every window has the new order.
  await carryToFront(s3);
  assert.ok((await a.evaluate(() => window.liftDelays.at(-1))) >= 300);
  await screenshot(a, 'bar-touch-dragging.png');
  await finger.up();
  await lifted.waitFor({ state: 'detached', timeout: 5000 });
  await waitFor(async () => JSON.stringify(await tabNames(b)) === JSON.stringify([s3, s1, s2]),
    { what: 'the new order in the second window' });
  assert.deepEqual(await tabNames(a), [s3, s1, s2]);
  const ids = await a.locator('.tab').evaluateAll((tabs) => tabs.map((el) => Number(el.dataset.session)));
  assert.deepEqual(await seen(), { clicks: [s1], lifts: 4, reorders: [ids] }, 'one reorder, the new order');
  assert.equal(await selectedTab(a), s1, 'the drop is not a tap');
  await screenshot(a, 'bar-touch-reordered.png');
  assertNoProblems(a, b);
});

test('ending asks, lands on the neighbour, and ending another tab leaves you where you are', { timeout: 120000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const [s1] = await tabNames(page);
  const s2 = await newSession(page);
  const s3 = await newSession(page);
  await page.getByRole('tab', { name: s2, exact: true }).click();
  await waitFor(async () => (await selectedTab(page)) === s2, { what: `${s2} attached` });

  // × asks first, naming the session; Cancel ends nothing.
  await tab(page, s2).getByRole('button', { name: `End ${s2}` }).click();
  const question = page.getByRole('alertdialog', { name: `End ${s2}?` });
  await question.waitFor({ timeout: 5000 });
  await screenshot(page, 'bar-confirm-end.png');
  await question.getByRole('button', { name: 'Cancel' }).click();
  await question.waitFor({ state: 'detached', timeout: 5000 });
  assert.deepEqual(await tabNames(page), [s1, s2, s3], 'Cancel ended nothing');
  // Focus went back to the terminal: typing reaches the session.
  await run(page, 'echo still-$((3+4))');
  await waitForLine(page, 'still-7');

  // Confirmed: s2 ends and the window lands on its right neighbour, s3.
  await tab(page, s2).getByRole('button', { name: `End ${s2}` }).click();
  await page.getByRole('alertdialog', { name: `End ${s2}?` }).getByRole('button', { name: 'End session' }).click();
  await waitFor(async () => JSON.stringify(await tabNames(page)) === JSON.stringify([s1, s3]), { what: `${s2} gone` });
  await waitFor(async () => (await selectedTab(page)) === s3, { what: `landing on the right neighbour ${s3}` });

  // Ending a tab this window is not on leaves it where it is.
  await run(page, 'echo here-$((5+5))');
  await waitForLine(page, 'here-10');
  await tab(page, s1).hover();
  await tab(page, s1).getByRole('button', { name: `End ${s1}` }).click();
  await page.getByRole('alertdialog', { name: `End ${s1}?` }).getByRole('button', { name: 'End session' }).click();
  await waitFor(async () => JSON.stringify(await tabNames(page)) === JSON.stringify([s3]), { what: `${s1} gone` });
  assert.equal(await selectedTab(page), s3, 'still on the same session');
  assert.ok((await screenRows(page)).some((row) => row.trim() === 'here-10'), 'the same screen, untouched');

  // The keyboard way (Alt+Shift+W), on the last tab: no right neighbour, so the left.
  const s4 = await newSession(page);
  assert.deepEqual(await tabNames(page), [s3, s4]);
  await page.keyboard.press('Alt+Shift+KeyW');
  const keyQuestion = page.getByRole('alertdialog', { name: `End ${s4}?` });
  await keyQuestion.waitFor({ timeout: 5000 });
  await page.keyboard.press('Enter'); // the action has the focus
  await waitFor(async () => JSON.stringify(await tabNames(page)) === JSON.stringify([s3]), { what: `${s4} gone` });
  await waitFor(async () => (await selectedTab(page)) === s3, { what: `landing on the left neighbour ${s3}` });
  await waitForLine(page, 'here-10');
  await screenshot(page, 'bar-after-end.png');
  assertNoProblems(page);
});

test('the launcher starts a chosen shell in a chosen directory', { timeout: 90000 }, async (t) => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'wharf-ws-')));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  mkdirSync(join(workspace, 'apps', 'api'), { recursive: true });
  mkdirSync(join(workspace, 'docs'), { recursive: true });
  const daemon = await ownDaemon(t, { cwd: workspace });
  const status = await (await fetch(`${daemon.origin}/api/status`, { headers: { 'X-Wharf-Key': daemon.key } })).json();
  const shells = status.catalog.filter((e) => e.kind === 'shell' && e.installed !== false).map((e) => e.name);
  const shell = ['sh', 'dash', 'bash'].find((name) => shells.includes(name)) ?? shells[0];
  assert.ok(shell, `a shell in the catalog: ${JSON.stringify(status.catalog)}`);

  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const chevron = page.getByRole('button', { name: 'Choose what to start' });
  await chevron.click();
  const panel = page.getByRole('dialog', { name: 'Start a session' });
  await panel.waitFor({ timeout: 5000 });
  await waitFor(async () => (await panel.getByRole('radio').count()) > 0, { what: 'the catalog in the panel' });
  assert.equal(await chevron.getAttribute('aria-expanded'), 'true');
  // Every catalog entry is there; the ones not installed are disabled.
  for (const entry of status.catalog) {
    const item = panel.locator(`.launcher-entry[data-kind="${entry.kind}"][data-name="${entry.name}"]`);
    assert.equal(await item.count(), 1, `${entry.kind} ${entry.name} listed`);
    assert.equal(await item.isDisabled(), entry.installed === false, `${entry.name} disabled iff not installed`);
  }
  // Suggestions come from /api/dirs.
  const suggestions = await panel.locator('datalist option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(suggestions.includes('apps/api'), `apps/api suggested: ${suggestions}`);
  await panel.locator(`.launcher-entry[data-kind="shell"][data-name="${shell}"]`).click();
  await panel.getByRole('combobox', { name: 'Directory' }).fill('apps/api');
  await screenshot(page, 'launcher.png');

  const before = await tabNames(page);
  await panel.getByRole('button', { name: `Start ${shell}` }).click();
  await panel.waitFor({ state: 'hidden', timeout: 5000 });
  await waitFor(async () => (await tabNames(page)).length === before.length + 1, { what: 'the launched session\'s tab' });
  const name = (await tabNames(page)).find((n) => !before.includes(n));
  await waitFor(async () => (await selectedTab(page)) === name, { what: 'the launched session attached' });
  const rows = await (await fetch(`${daemon.origin}/api/status`, { headers: { 'X-Wharf-Key': daemon.key } })).json();
  assert.equal(rows.running?.[shell] ?? 1, rows.running?.[shell] ?? 1); // informative only
  await waitForPrompt(page);
  await run(page, 'pwd');
  await waitForLine(page, join(workspace, 'apps', 'api'));
  assert.equal(chevron && await chevron.getAttribute('aria-expanded'), 'false');

  // Escape closes the panel and the terminal has the keys again.
  await chevron.click();
  await panel.waitFor({ timeout: 5000 });
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'hidden', timeout: 5000 });
  await run(page, 'echo typed-$((2*21))');
  await waitForLine(page, 'typed-42');
  assertNoProblems(page);
});

test('the bar is a tablist: roles, aria-selected, arrow keys and named buttons', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const [s1] = await tabNames(page);
  const s2 = await newSession(page);

  assert.equal(await page.getByRole('tablist', { name: 'Sessions' }).count(), 1);
  assert.equal(await page.getByRole('tab').count(), 2);
  const selected = page.locator('[role="tab"][aria-selected="true"]');
  assert.equal(await selected.count(), 1, 'exactly one selected tab');
  assert.equal(await selected.textContent(), s2, 'the attached one');
  assert.equal(await page.getByRole('tab', { name: s1, exact: true }).getAttribute('aria-selected'), 'false');
  // One tab stop: the selected tab.
  assert.deepEqual(await page.getByRole('tab').evaluateAll((ts) => ts.map((el) => el.tabIndex)), [-1, 0]);

  // Arrow keys move between tabs; Enter switches.
  await page.getByRole('tab', { name: s2, exact: true }).focus();
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), s1);
  await page.keyboard.press('ArrowLeft'); // wraps
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), s2);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), s1);
  await page.keyboard.press('Enter');
  await waitFor(async () => (await selectedTab(page)) === s1, { what: 'Enter to switch to the focused tab' });
  await waitFor(() => page.evaluate(() => document.activeElement?.classList.contains('xterm-helper-textarea')),
    { what: 'the focus back in the terminal' });

  // F2 renames the focused tab (Escape cancels); Delete asks to end it (Escape declines).
  await page.getByRole('tab', { name: s2, exact: true }).focus();
  await page.keyboard.press('F2');
  const field = page.getByRole('textbox', { name: `Rename ${s2}` });
  await field.waitFor({ timeout: 5000 });
  await page.keyboard.press('Escape');
  await field.waitFor({ state: 'detached', timeout: 5000 });
  await page.getByRole('tab', { name: s2, exact: true }).focus();
  await page.keyboard.press('Delete');
  const question = page.getByRole('alertdialog', { name: `End ${s2}?` });
  await question.waitFor({ timeout: 5000 });
  await page.keyboard.press('Escape');
  await question.waitFor({ state: 'detached', timeout: 5000 });
  assert.deepEqual(await tabNames(page), [s1, s2], 'nothing renamed or ended');

  // A click on the bar's empty part hands the focus back to the terminal; an open rename
  // field keeps it.
  const inTerminal = () => page.evaluate(() => document.activeElement?.classList.contains('xterm-helper-textarea'));
  await page.getByRole('tab', { name: s2, exact: true }).focus();
  await page.mouse.click(600, 15);
  await waitFor(inTerminal, { what: 'the focus back in the terminal after a click on the bar' });
  await page.getByRole('tab', { name: s2, exact: true }).dblclick();
  const editing = page.getByRole('textbox', { name: `Rename ${s2}` });
  await editing.waitFor({ timeout: 5000 });
  await page.mouse.click(600, 15);
  assert.equal(await editing.evaluate((el) => el === document.activeElement), true, 'the rename field keeps the focus');
  await page.keyboard.press('Escape');
  await waitFor(inTerminal, { what: 'the focus back in the terminal after the rename' });

  // Every button in the bar has an accessible name.
  const unnamed = await page.locator('#tabs button').evaluateAll((buttons) => buttons
    .filter((b) => !(b.getAttribute('aria-label') || b.textContent).trim()).map((b) => b.outerHTML));
  assert.deepEqual(unnamed, []);
  for (const name of ['New session', 'Choose what to start', 'Stop wharf', `End ${s1}`, `End ${s2}`]) {
    assert.equal(await page.locator('#tabs').getByRole('button', { name, exact: true }).count(), 1, `a button named ${name}`);
  }
  const bell = page.locator('#tabs .tab-bell');
  assert.match(await bell.getAttribute('aria-label'), /^Chime on/);
  await bell.click();
  assert.match(await bell.getAttribute('aria-label'), /^Chime muted/);
  assert.equal(await page.evaluate(() => localStorage.getItem('wharf.muted')), '1', 'the mute is remembered');
  await page.reload();
  await waitFor(async () => /^Chime muted/.test(await page.locator('#tabs .tab-bell').getAttribute('aria-label') ?? ''),
    { what: 'the mute to survive a reload' });
  await screenshot(page, 'bar-a11y.png');
  assertNoProblems(page);
});
