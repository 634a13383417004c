// The phone page against the real daemon, in Debian's chromium emulating phones (touch,
// a mobile browser, pixel ratio 3, 390x844 and 360x740): the session picker (every
// session with what it runs, its state and age; one tap switches without raising the soft
// keyboard; live while open; Escape and the backdrop close it), pinch for the font size
// (kept in the browser; the PTY follows only a driving window), touch scrolling with
// momentum (the viewport keeps moving after the finger lifts; a full-screen program
// without mouse reporting gets no bytes from a swipe, one with it gets wheel reports),
// `[page] focus` as the operator's default under `?focus=`, and a phone watching a
// desktop's session (readable at its own font size, panned; Fit screen; Take over).
// Touches are dispatched through the DevTools protocol (playwright has only taps); every
// wait has a deadline, nothing sleeps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor, wharfBin } from '../support/daemon.mjs';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt, waitForLine,
  waitForMatch, run,
} from '../support/page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const SHOTS = '/tmp/h/shots';
mkdirSync(SHOTS, { recursive: true });
const SIZES = [[390, 844], [360, 740]];

const phone = (t, { width = 390, height = 844 } = {}) => newWindow(t, browser, { hasTouch: true, isMobile: true, width, height, deviceScaleFactor: 3 });
const key = (page, label) => page.locator('[role="toolbar"]').getByRole('button', { name: label, exact: true });
const focusedIsTerminal = (page) => page.evaluate(() => document.activeElement?.classList.contains('xterm-helper-textarea') === true);
// Lets pending timers (the focus drop is deferred by one) and a frame run.
const settle = (page) => page.evaluate(() => new Promise((r) => setTimeout(() => requestAnimationFrame(() => setTimeout(r, 0)), 0)));
const picker = (page) => page.getByRole('dialog', { name: 'Sessions' });
const selectedTab = (page) => page.locator('[role="tab"][aria-selected="true"]').first().textContent();

// Records the JSON messages the page sends on its socket (resize, attach, ...).
async function recordSent(page) {
  await page.addInitScript(() => {
    window.sentMessages = [];
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      if (typeof data === 'string') window.sentMessages.push(JSON.parse(data));
      return send.call(this, data);
    };
  });
}
const sent = (page, type) => page.evaluate((t) => window.sentMessages.filter((m) => m.type === t), type);

// ---- touches through the DevTools protocol -------------------------------------------
async function cdp(page) {
  page.cdpSession ??= await page.context().newCDPSession(page);
  return page.cdpSession;
}
// `at`: the event's time in seconds since the epoch (the page's event.timeStamp follows
// it), so a gesture's speed is the test's choice, not the machine's.
async function touch(page, type, points, at) {
  await (await cdp(page)).send('Input.dispatchTouchEvent', {
    type, touchPoints: points.map(([x, y], id) => ({ x: Math.round(x), y: Math.round(y), id, radiusX: 4, radiusY: 4, force: 1 })),
    ...(at === undefined ? {} : { timestamp: at }),
  });
}
// One finger from `from` to `to` in `steps` moves 16 ms apart (a flick); `hold`: the
// finger rests 300 ms after the last move before it lifts (a drag that stopped).
async function swipe(page, from, to, { steps = 10, hold = false } = {}) {
  const t0 = Date.now() / 1000;
  await touch(page, 'touchStart', [from], t0);
  for (let i = 1; i <= steps; i++) {
    await touch(page, 'touchMove', [[from[0] + ((to[0] - from[0]) * i) / steps, from[1] + ((to[1] - from[1]) * i) / steps]], t0 + 0.016 * i);
  }
  await touch(page, 'touchEnd', [], t0 + 0.016 * steps + (hold ? 0.3 : 0.016));
}
// Two fingers about `centre`, from `spreadFrom` px apart to `spreadTo`, horizontally.
async function pinch(page, centre, spreadFrom, spreadTo, steps = 8) {
  const at = (s) => [[centre.x - s / 2, centre.y], [centre.x + s / 2, centre.y]];
  await touch(page, 'touchStart', at(spreadFrom));
  for (let i = 1; i <= steps; i++) await touch(page, 'touchMove', at(spreadFrom + ((spreadTo - spreadFrom) * i) / steps));
  await touch(page, 'touchEnd', []);
}
async function terminalCentre(page) {
  const box = await page.locator('#terminal').boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
}
const storedFont = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('wharf.settings') ?? '{}').fontSize ?? null);
const gliding = (page) => page.evaluate(() => document.getElementById('terminal').dataset.gliding === '1');
// The first number on screen (the rows of `seq` output): where the viewport is, as the
// DOM renderer drew it last frame (the accessibility tree follows later, in batches).
async function topNumber(page) {
  const rows = await page.$$eval('#terminal .xterm-rows > div', (divs) => divs.map((d) => d.textContent.trim()));
  for (const row of rows) if (/^\d+$/.test(row)) return Number(row);
  return null;
}

async function phoneAttached(t, { daemon, search = '', size } = {}) {
  daemon ??= await ownDaemon(t);
  const page = await phone(t, size);
  const response = await page.goto(daemon.url + search);
  assert.equal(response.status(), 200);
  await page.locator('.xterm-accessibility-tree').waitFor({ timeout: 10000 });
  await waitFor(() => page.locator('#status').isHidden(), { what: 'the status line to clear once attached' });
  await waitForPrompt(page);
  return { daemon, page };
}

// Types a command with the soft keyboard raised on purpose (the toolbar's ⌨).
async function type(page, command) {
  if (!(await focusedIsTerminal(page))) await key(page, 'Show keyboard').tap();
  await run(page, command);
}

// `stty size` in the session, behind a unique marker.
let sizes = 0;
async function ptySize(page) {
  const id = ++sizes;
  await type(page, `echo sz${id}-$(stty size | tr ' ' x)`);
  const m = await waitForMatch(page, new RegExp(`^sz${id}-(\\d+)x(\\d+)$`), { what: `stty size (${id})` });
  return { rows: Number(m[1]), cols: Number(m[2]) };
}

test('the session picker lists every session with what it runs, its state and age; one tap switches without the keyboard', { timeout: 150000 }, async (t) => {
  const { daemon, page } = await phoneAttached(t);
  // Three sessions: one waiting, one finished, one that exits with a failure (kept, ended).
  await type(page, `${wharfBin} notify waiting`);
  const first = await selectedTab(page);
  for (let i = 0; i < 2; i++) {
    await page.getByRole('button', { name: 'New session', exact: true }).first().tap();
    await waitFor(async () => (await page.locator('.tab-list [role="tab"]').count()) === i + 2, { what: `tab ${i + 2}` });
    await waitForPrompt(page);
  }
  await type(page, `${wharfBin} notify finished`);
  await page.getByRole('button', { name: 'New session', exact: true }).first().tap();
  await waitFor(async () => (await page.locator('.tab-list [role="tab"]').count()) === 4, { what: 'tab 4' });
  await waitForPrompt(page);
  await type(page, 'exit 3');
  await waitFor(async () => (await page.locator('.tab-ended-list [role="tab"]').count()) === 1, { what: 'the ended tab' });
  await page.evaluate(() => document.activeElement?.blur()); // the soft keyboard put away
  // Back to a live one (the second session: arriving at a lit one would clear it).
  await page.locator('.tab-list [role="tab"]').nth(1).tap();
  await waitFor(async () => (await selectedTab(page)) === (await page.locator('.tab-list [role="tab"]').nth(1).textContent()), { what: 'the second tab' });
  await settle(page);
  // On a slow machine the prompt redrawn for this window's size can read as a burst of
  // work, which then lights the tab as finished while on screen; a tap on the terminal
  // is the person seeing it, and puts it out (a tap never raises the keyboard here).
  const current = page.locator('.tab-list .tab').nth(1);
  await waitFor(async () => (await current.getAttribute('data-activity')) !== 'working', { what: 'the second session to go quiet', timeout: 20000 });
  if ((await current.getAttribute('data-activity')) !== 'idle') {
    await page.locator('#terminal').tap();
    await waitFor(async () => (await current.getAttribute('data-activity')) === 'idle', { what: 'the second session seen' });
  }
  assert.equal(await focusedIsTerminal(page), false);

  // The toolbar's sessions key opens the sheet, the bar's button too (a narrow window).
  await key(page, 'Sessions').tap();
  const sheet = picker(page);
  await sheet.waitFor();
  const rows = sheet.locator('.picker-item');
  assert.equal(await rows.count(), 4, 'three live sessions and the ended one');
  const read = () => rows.evaluateAll((items) => items.map((b) => ({
    name: b.querySelector('.picker-name').textContent,
    what: b.querySelector('.picker-what').textContent,
    state: b.querySelector('.picker-state').textContent,
    age: b.querySelector('.picker-age').textContent,
    current: b.getAttribute('aria-current') === 'true',
  })));
  const listed = await read();
  assert.deepEqual(listed.map((r) => r.state), ['waiting', 'idle', 'finished', 'exited (3)'], JSON.stringify(listed));
  assert.equal(listed[0].name, first);
  assert.ok(listed.every((r) => r.what.length > 0), `what each runs: ${listed.map((r) => r.what)}`);
  assert.ok(listed.every((r) => /^(just now|\d+ s)$/.test(r.age)), `ages: ${listed.map((r) => r.age)}`);
  assert.deepEqual(listed.map((r) => r.current), [false, true, false, false], 'the one on screen is marked');
  const box = await sheet.boundingBox();
  assert.ok(box.width >= 389 && box.y + box.height >= 843, `a full-width sheet at the bottom: ${JSON.stringify(box)}`);
  const heights = await rows.evaluateAll((items) => items.map((b) => b.getBoundingClientRect().height));
  assert.ok(heights.every((h) => h >= 44), `finger-sized rows: ${heights}`);
  await page.screenshot({ path: `${SHOTS}/picker-390x844.png` });

  // Live while open: a session started elsewhere appears; the focus stays inside (modal).
  const res = await fetch(`${daemon.origin}/api/v1/sessions`, { method: 'POST', headers: { 'X-Wharf-Key': daemon.key, 'Content-Type': 'application/json' }, body: '{}' });
  assert.ok(res.ok, `POST /api/v1/sessions: ${res.status}`);
  await waitFor(async () => (await rows.count()) === 5, { what: 'the new session listed while the sheet is open' });
  for (let i = 0; i < 8; i++) await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.getElementById('session-picker').contains(document.activeElement)), 'the focus is kept inside the sheet');

  // One tap on the first row switches to it and closes the sheet; no keyboard comes up.
  await rows.first().tap();
  await waitFor(async () => (await selectedTab(page)) === first, { what: 'the first session attached' });
  await sheet.waitFor({ state: 'hidden' });
  await settle(page);
  assert.equal(await focusedIsTerminal(page), false, 'switching from the picker leaves the soft keyboard down');

  // Escape and a tap on the backdrop close it, each without switching.
  const opener = page.locator('.tab-tools .tab-picker');
  assert.ok(await opener.isVisible(), 'a narrow window has the bar button');
  assert.equal(await opener.textContent(), '4', 'the number of live sessions');
  await opener.tap();
  await sheet.waitFor();
  await page.keyboard.press('Escape');
  await sheet.waitFor({ state: 'hidden' });
  await key(page, 'Sessions').tap();
  await sheet.waitFor();
  await page.touchscreen.tap(195, 40); // above the sheet: the backdrop
  await sheet.waitFor({ state: 'hidden' });
  assert.equal(await selectedTab(page), first);
  await settle(page);
  assert.equal(await focusedIsTerminal(page), false);

  // The ended row shows that session's last screen; the ages read as a phone wants them.
  await key(page, 'Sessions').tap();
  await rows.nth(4).tap();
  await page.locator('#ended').waitFor();
  const ages = await page.evaluate(async () => {
    const { age } = await import('/static/session_picker.js');
    return [age(3000), age(45000), age(3 * 60000 + 5000), age(125 * 60000), age(50 * 3600000)];
  });
  assert.deepEqual(ages, ['just now', '45 s', '3 min', '2 h 5 min', '2 d']);

  // A wide window keeps the tab strip and has no bar button.
  const desk = await newWindow(t, browser);
  await openAttached(desk, daemon);
  assert.equal(await desk.locator('.tab-tools .tab-picker').isVisible(), false);
  assertNoProblems(page, desk);
});

test('screenshots at 360x740: the picker, the launcher from it, a pinch under way and its result', { timeout: 90000 }, async (t) => {
  const { page } = await phoneAttached(t, { size: { width: 360, height: 740 } });
  // The first session asks for its person once the page has moved on; the second works.
  await type(page, `sleep 2; ${wharfBin} notify waiting`);
  await page.getByRole('button', { name: 'New session', exact: true }).first().tap();
  await waitFor(async () => (await page.locator('.tab-list [role="tab"]').count()) === 2, { what: 'a second tab' });
  await waitForPrompt(page);
  await type(page, 'for i in $(seq 1 400); do echo working $i; sleep 0.05; done');
  await page.getByRole('button', { name: 'New session', exact: true }).first().tap();
  await waitFor(async () => (await page.locator('.tab-list [role="tab"]').count()) === 3, { what: 'a third tab' });
  await page.evaluate(() => document.activeElement?.blur());
  await key(page, 'Sessions').tap();
  const sheet = picker(page);
  await sheet.waitFor();
  await waitFor(async () => (await sheet.locator('.picker-state[data-state="waiting"]').count()) === 1
    && (await sheet.locator('.picker-state[data-state="working"]').count()) === 1, { what: 'waiting and working' });
  await page.screenshot({ path: `${SHOTS}/picker-360x740.png` });
  // Choose… hands over to the launcher, on screen under the bar's chevron.
  await sheet.getByRole('button', { name: 'Choose what to start' }).tap();
  await sheet.waitFor({ state: 'hidden' });
  const launcher = page.getByRole('dialog', { name: 'Start a session' });
  await launcher.waitFor();
  const box = await launcher.boundingBox();
  assert.ok(box.y >= 0 && box.y < 200 && box.x >= 0, `the launcher on screen: ${JSON.stringify(box)}`);
  await page.keyboard.press('Escape');
  await launcher.waitFor({ state: 'hidden' });

  // A pinch under way: the screen scaled as a preview, the badge saying the size.
  const { x, y } = await terminalCentre(page);
  const at = (spread) => [[x - spread / 2, y], [x + spread / 2, y]];
  await touch(page, 'touchStart', at(100));
  for (const spread of [120, 140, 150]) await touch(page, 'touchMove', at(spread));
  const badge = page.locator('.pinch-badge');
  await waitFor(async () => (await badge.textContent()) === 'Font size 21 px' && badge.isVisible(), { what: 'the badge during the pinch' });
  await page.screenshot({ path: `${SHOTS}/pinch-preview-360x740.png` });
  await touch(page, 'touchEnd', []);
  await waitFor(async () => (await storedFont(page)) === 21, { what: 'the size set when the fingers lift' });
  assert.ok(await badge.isHidden(), 'the badge goes with the fingers');
  await page.screenshot({ path: `${SHOTS}/pinch-21px-360x740.png` });
  assertNoProblems(page);
});

test('a pinch changes the font size within 8-32, kept in the browser; the PTY follows only the driving window', { timeout: 150000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await phone(t);
  await recordSent(page);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const before = await ptySize(page);
  await page.evaluate(() => document.activeElement?.blur());
  const { x, y } = await terminalCentre(page);

  // Spreading the fingers to twice their distance doubles the size: 14 -> 28.
  await pinch(page, { x, y }, 100, 200);
  await waitFor(async () => (await storedFont(page)) === 28, { what: 'the font size 28 kept in the browser' });
  const bigger = await ptySize(page);
  assert.ok(bigger.cols < before.cols * 0.6 && bigger.rows < before.rows * 0.6, `the PTY follows: ${JSON.stringify([before, bigger])}`);
  const resizes = await sent(page, 'resize');
  assert.ok(resizes.some((m) => m.cols === bigger.cols && m.rows === bigger.rows), 'the driver sent the new size');
  await page.evaluate(() => document.activeElement?.blur());
  await page.screenshot({ path: `${SHOTS}/pinch-28px-390x844.png` });

  // Far beyond either end: clamped to 32 and to 8.
  await pinch(page, { x, y }, 60, 340);
  await waitFor(async () => (await storedFont(page)) === 32, { what: 'at most 32' });
  await pinch(page, { x, y }, 340, 20);
  await waitFor(async () => (await storedFont(page)) === 8, { what: 'at least 8' });
  const small = await ptySize(page);
  assert.ok(small.cols > before.cols, `8 px gives more columns than 14: ${JSON.stringify([before, small])}`);
  await page.evaluate(() => document.activeElement?.blur());
  await page.screenshot({ path: `${SHOTS}/pinch-8px-390x844.png` });
  await page.reload();
  await waitForPrompt(page);
  await page.getByRole('button', { name: 'Settings' }).tap();
  assert.equal(await page.getByRole('dialog', { name: 'Settings' }).getByLabel('Font size').inputValue(), '8', 'the same setting, kept across a reload');
  await page.keyboard.press('Escape');

  // The rule itself: proportional to the spread, rounded, clamped.
  const sizesFor = await page.evaluate(async () => {
    const { pinchedSize } = await import('/static/pinch_zoom.js');
    return [pinchedSize(14, 2), pinchedSize(14, 1.04), pinchedSize(14, 0.5), pinchedSize(20, 9), pinchedSize(20, 0.01), pinchedSize(14, NaN)];
  });
  assert.deepEqual(sizesFor, [28, 15, 8, 32, 8, 14]);
  // The browser's own page zoom stays out of it: no pinch-zoom over the terminal.
  assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('terminal')).touchAction), 'none');
  assert.equal(await page.evaluate(() => window.visualViewport.scale), 1);

  // A watching phone: its own font changes, the session's size does not.
  const watcher = await phone(t);
  await recordSent(watcher);
  await openAttached(watcher, daemon);
  await waitFor(() => watcher.locator('.watch-bar').isVisible(), { what: 'the watcher bar' });
  const w = await terminalCentre(watcher);
  await pinch(watcher, { x: w.x, y: w.y }, 100, 150);
  await waitFor(async () => (await storedFont(watcher)) === 21, { what: 'the watcher\'s font size 21' });
  assert.deepEqual(await sent(watcher, 'resize'), [], 'a watcher never sends a size');
  assert.deepEqual(await ptySize(page), small, 'the session kept the driver\'s size');
  assert.equal(await storedFont(page), 8, 'each browser keeps its own');
  assertNoProblems(page, watcher);
});

test('touch scrolling has momentum and never sends keys to a full-screen program without mouse reporting', { timeout: 150000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await phone(t);
  // The DOM renderer, whose rows say where the viewport is at every frame.
  await page.addInitScript(() => {
    try { localStorage.setItem('wharf.settings', JSON.stringify({ renderer: 'dom' })); } catch { /* a sandboxed frame */ }
  });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await type(page, 'seq 1 600');
  await waitForLine(page, '600');
  await page.evaluate(() => document.activeElement?.blur());
  const { x, box } = await terminalCentre(page);
  const bottomNow = await topNumber(page);

  // A flick down (finger from high to low) shows earlier lines, and keeps going after the
  // finger lifts, slowing until it stops.
  await swipe(page, [x, box.y + 80], [x, box.y + 380]);
  const atLift = await topNumber(page);
  assert.ok(atLift < bottomNow, `the finger scrolled back: ${bottomNow} -> ${atLift}`);
  assert.ok(await gliding(page), 'a glide runs after the lift');
  await waitFor(async () => (await topNumber(page)) < atLift - 10, { timeout: 3000, what: 'the viewport to keep moving after the finger lifted' });
  await waitFor(async () => !(await gliding(page)), { timeout: 5000, what: 'the glide to stop' });
  const stopped = await topNumber(page);
  assert.ok(stopped > 1, `a decaying glide, not a jump to the top (${stopped})`);
  // A drag that stops before lifting does not glide.
  await swipe(page, [x, box.y + 380], [x, box.y + 200], { hold: true });
  assert.equal(await gliding(page), false, 'no glide after a finger that stopped');

  // A full-screen program (alternate screen) without mouse reporting: a flick sends
  // nothing. A raw recorder takes the first byte it gets: the toolbar's Enter, 0d.
  const file = `/tmp/wharf-phone-${process.pid}-alt`;
  await type(page, `printf '\\e[?1049h'; seq 1 30; stty raw -echo; echo ready-alt; head -c 1 | od -An -tx1 | tr -d ' \\n' > ${file}; stty sane; printf '\\e[?1049l'; echo; echo got-$(cat ${file})-end; rm -f ${file}`);
  await waitForLine(page, 'ready-alt');
  await page.evaluate(() => document.activeElement?.blur());
  await swipe(page, [x, box.y + 80], [x, box.y + 380]);
  await swipe(page, [x, box.y + 380], [x, box.y + 80]);
  await waitFor(async () => !(await gliding(page)), { timeout: 5000, what: 'no glide left' });
  await key(page, 'Enter').tap();
  await waitForLine(page, 'got-0d-end', { what: 'only the Enter reached the program' });

  // With mouse reporting (SGR, wheel included) a swipe is the wheel: reports, not keys.
  await type(page, `printf '\\e[?1049h\\e[?1000h\\e[?1006h'; stty raw -echo; echo ready-mouse; head -c 4 | od -An -tx1 | tr -d ' \\n' > ${file}; printf '\\e[?1006l\\e[?1000l'; read -r -s -t 1 -n 100000 _; stty sane; printf '\\e[?1049l'; echo; echo got-$(cat ${file})-end; rm -f ${file}`);
  await waitForLine(page, 'ready-mouse');
  await page.evaluate(() => document.activeElement?.blur());
  await swipe(page, [x, box.y + 300], [x, box.y + 100], { hold: true });
  await waitForMatch(page, /^got-1b5b3c36-end$/, { what: 'an SGR wheel report (ESC [ < 6...)' });
  await waitForPrompt(page);
  assertNoProblems(page);
});

test('[page] focus is the operator\'s default for a tap on touch; ?focus= overrides it; a desktop is unchanged', { timeout: 120000 }, async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'wharf-phone-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const on = join(root, 'on.toml');
  writeFileSync(on, '[page]\nfocus = true\n');
  const daemon = await ownDaemon(t, { args: ['--config', on] });
  const status = await (await fetch(`${daemon.origin}/api/status`, { headers: { 'X-Wharf-Key': daemon.key } })).json();
  assert.equal(status.page.focus, true, '/api/status serves it');

  const tapTerminal = async (page) => {
    const { x, y } = await terminalCentre(page);
    await page.touchscreen.tap(x, y - 60);
    await settle(page);
  };
  const open = async (search) => {
    const page = await phone(t);
    const loaded = page.waitForResponse((r) => r.url().includes('/api/status'));
    await page.goto(daemon.url + search);
    await loaded;
    await waitForPrompt(page);
    await settle(page);
    return page;
  };
  const tapper = await open('');
  // The rule: the URL, then the operator on touch only, then touch or not.
  const rules = await tapper.evaluate(async () => {
    const { focusOnTapWanted: f } = await import('/static/touch_focus.js');
    return [f('', true, true), f('', true, false), f('', true, undefined), f('?focus=0', true, true),
      f('?focus=1', true, false), f('', false, false), f('?focus=0', false, undefined)];
  });
  assert.deepEqual(rules, [true, false, false, false, true, true, false]);
  assert.equal(await focusedIsTerminal(tapper), false, 'the page itself does not raise the keyboard');
  await tapTerminal(tapper);
  await waitFor(() => focusedIsTerminal(tapper), { what: 'config focus = true: a tap raises the keyboard' });

  const refused = await open('&focus=0');
  await tapTerminal(refused);
  assert.equal(await focusedIsTerminal(refused), false, '?focus=0 wins over the config');

  // focus = false with ?focus=1: the URL wins again; a desktop still clicks into it.
  const off = join(root, 'off.toml');
  writeFileSync(off, '[page]\nfocus = false\n');
  const second = await ownDaemon(t, { args: ['--config', off] });
  const forced = await phone(t);
  await forced.goto(`${second.url}&focus=1`);
  await waitForPrompt(forced);
  await forced.evaluate(() => document.activeElement?.blur());
  await tapTerminal(forced);
  await waitFor(() => focusedIsTerminal(forced), { what: '?focus=1 wins over focus = false' });
  const desk = await newWindow(t, browser);
  await openAttached(desk, second);
  await desk.evaluate(() => document.activeElement.blur());
  const box = await desk.locator('#terminal').boundingBox();
  await desk.mouse.click(box.x + box.width / 2, box.y + box.height / 3);
  await waitFor(() => focusedIsTerminal(desk), { what: 'a desktop click focuses whatever the config says' });
  assertNoProblems(tapper, refused, forced, desk);
});

test('a phone watching a desktop\'s session reads it at its own font size, pans, fits on request, and takes over', { timeout: 150000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const desk = await newWindow(t, browser, { width: 1200, height: 700 });
  await openAttached(desk, daemon);
  await waitForPrompt(desk);
  await run(desk, 'stty size');
  const deskSize = await waitForMatch(desk, /^(\d+) (\d+)$/);
  await run(desk, 'for i in $(seq 1 40); do echo "line $i of the desktop, long enough to need a wide screen: $i"; done');
  const deskCols = Number(deskSize[2]);
  assert.ok(deskCols > 100, `a wide desktop screen (${deskCols})`);

  for (const [width, height] of SIZES) {
    const page = await phone(t, { width, height });
    await openAttached(page, daemon);
    const bar = page.locator('.watch-bar');
    await bar.waitFor();
    assert.match(await bar.locator('.watch-text').textContent(), new RegExp(`^Watching${deskCols}×\\d+$`));
    assert.equal(await page.locator('.tab-watcher').isVisible(), false, 'the bar stands in for the tab bar\'s box');
    const take = bar.getByRole('button', { name: 'Take over this session' });
    assert.ok(await take.isVisible());
    // Readable by default: the chosen font size, not the desktop scaled down; the screen is
    // wider than the phone and pans with a finger.
    const shape = () => page.evaluate(() => {
      const c = document.getElementById('terminal');
      const screen = c.querySelector('.xterm-screen').getBoundingClientRect();
      return { transform: c.querySelector('.xterm').style.transform, screenW: screen.width, clientW: c.clientWidth, left: c.scrollLeft, top: c.scrollTop };
    });
    let s = await shape();
    assert.equal(s.transform, '', 'not scaled down');
    assert.ok(s.screenW > s.clientW * 2, `wider than the phone: ${JSON.stringify(s)}`);
    await waitForMatch(page, /line 40 of the desktop/, { what: 'the cursor\'s part of the screen' });
    await page.screenshot({ path: `${SHOTS}/watch-pan-${width}x${height}.png` });
    const { y, box } = await terminalCentre(page);
    await swipe(page, [box.x + box.width - 40, y], [box.x + 60, y], { hold: true }); // a drag, no glide
    s = await shape();
    assert.ok(s.left >= 200, `panned sideways: ${JSON.stringify(s)}`);
    await page.screenshot({ path: `${SHOTS}/watch-panned-${width}x${height}.png` });

    // Fit screen: the whole of it, scaled; kept per browser.
    const fit = bar.getByRole('button', { name: 'Fit screen' });
    await fit.tap();
    assert.equal(await fit.getAttribute('aria-pressed'), 'true');
    await waitFor(async () => /scale\(/.test((await shape()).transform), { what: 'scaled to fit' });
    s = await shape();
    assert.ok(s.screenW <= s.clientW + 1 && s.left === 0, `fits: ${JSON.stringify(s)}`);
    await page.screenshot({ path: `${SHOTS}/watch-fit-${width}x${height}.png` });
    await fit.tap(); // back to readable for the next size
    await waitFor(async () => (await shape()).transform === '', { what: 'readable again' });
    await page.context().close();
  }

  // Take over: the phone drives, the session takes its size, the desktop watches.
  const page = await phone(t);
  await openAttached(page, daemon);
  await page.locator('.watch-bar').getByRole('button', { name: 'Take over this session' }).tap();
  await waitFor(() => page.locator('.watch-bar').isHidden(), { what: 'the bar gone once driving' });
  const mine = await ptySize(page);
  assert.ok(mine.cols < 60, `the session took the phone's width (${mine.cols})`);
  await waitFor(() => desk.locator('.tab-watcher').isVisible(), { what: 'the desktop now watches' });
  assert.equal(await desk.locator('.watch-bar').count(), 0, 'a desktop has no watching bar');
  assertNoProblems(desk, page);
});
