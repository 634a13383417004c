// The key toolbar and the focus rules on a touch device (a phone, emulated in Debian's
// chromium) against the real daemon: the toolbar is a labelled role=toolbar; each key's
// bytes reach the PTY exactly (a raw-mode recorder in the shell prints them in hex),
// arrows follow application cursor mode; sticky Ctrl and Alt arm, lock and release, and
// apply to characters a soft keyboard types; Paste goes through the daemon's cleaning or
// says why it cannot; ?toolbar= forces it; a tap on the terminal does not raise the soft
// keyboard on touch (the keyboard key does, ?focus=1 restores it) and a desktop is
// unchanged. Every wait has a deadline; nothing sleeps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { waitFor } from '../support/daemon.mjs';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt, waitForLine,
  run, screenRows,
} from '../support/page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const SHOTS = '/tmp/h/shots13';
mkdirSync(SHOTS, { recursive: true });

const phone = (t, extra = {}) => newWindow(t, browser, { hasTouch: true, width: 390, height: 844, deviceScaleFactor: 3, ...extra });
const key = (page, label) => page.locator('[role="toolbar"]').getByRole('button', { name: label, exact: true });
const focusedIsTerminal = (page) => page.evaluate(() => document.activeElement?.classList.contains('xterm-helper-textarea') === true);
// Lets pending timers (the focus drop is deferred by one) and a frame run.
const settle = (page) => page.evaluate(() => new Promise((r) => setTimeout(() => requestAnimationFrame(() => setTimeout(r, 0)), 0)));

// Runs a raw-mode recorder for `n` bytes in the shell, does `act` once it listens, and
// returns the bytes it got, in hex. Typed at the prompt by the page's own keyboard.
let recordings = 0;
async function record(page, n, act, { before: setup = '', after: teardown = '' } = {}) {
  const id = ++recordings;
  const file = `/tmp/wharf-toolbar-${process.pid}-${id}`;
  // The hex is folded (a phone's screen is narrow) between two marker lines.
  await run(page, `${setup}stty raw -echo; echo ready-${id}; head -c ${n} | od -An -tx1 | tr -d ' \\n' > ${file}; stty sane; ${teardown}echo got-${id}; fold -w 24 ${file}; echo; echo end-$((${id}*1000)); rm -f ${file}`);
  await waitForLine(page, `ready-${id}`);
  await act();
  await waitForLine(page, `end-${id * 1000}`, { what: `the recorder's bytes (${id})` });
  const rows = (await screenRows(page)).map((row) => row.trim());
  const end = rows.lastIndexOf(`end-${id * 1000}`);
  const start = rows.lastIndexOf(`got-${id}`, end);
  return rows.slice(start + 1, end).join('');
}

async function phoneAttached(t, search = '') {
  const daemon = await ownDaemon(t);
  const page = await phone(t);
  const response = await page.goto(daemon.url + search);
  assert.equal(response.status(), 200);
  await page.locator('.xterm-accessibility-tree').waitFor({ timeout: 10000 });
  await waitFor(() => page.locator('#status').isHidden(), { what: 'the status line to clear once attached' });
  await waitForPrompt(page);
  return { daemon, page };
}

test('the toolbar is a labelled toolbar of finger-sized keys, and each key reaches the PTY as the real key', { timeout: 120000 }, async (t) => {
  const { page } = await phoneAttached(t);
  const bar = page.getByRole('toolbar', { name: 'Terminal keys' });
  await bar.waitFor();
  const labels = await bar.getByRole('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
  assert.deepEqual(labels, ['Escape', 'Control', 'Alt', 'Tab', 'Shift+Tab', 'Left arrow', 'Up arrow', 'Down arrow',
    'Right arrow', 'Home', 'End', 'Page up', 'Page down', 'Enter', 'Paste', 'Show keyboard', 'Sessions']);
  const heights = await bar.getByRole('button').evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect().height));
  assert.ok(heights.every((h) => h >= 36), `touch targets at least 36px high: ${heights}`);
  // One row above the composer's text box, inside the screen's width (it scrolls sideways).
  const box = await bar.boundingBox();
  const text = await page.locator('#composer textarea').first().boundingBox();
  assert.ok(box.y + box.height <= text.y + 1, 'the toolbar sits above the composer box');
  assert.ok(box.width <= 390 && box.height < 50, `one row within the screen (${box.width}x${box.height})`);

  // The shell reads the bytes raw: the page types the command; the toolbar sends the key.
  await key(page, 'Show keyboard').tap(); // the terminal takes the page's typing
  const expected = {
    Escape: '1b', Tab: '09', 'Shift+Tab': '1b5b5a', 'Left arrow': '1b5b44', 'Up arrow': '1b5b41',
    'Down arrow': '1b5b42', 'Right arrow': '1b5b43', Home: '1b5b48', End: '1b5b46', 'Page up': '1b5b357e',
    'Page down': '1b5b367e', Enter: '0d',
  };
  const all = Object.keys(expected);
  const got = await record(page, all.reduce((n, k) => n + expected[k].length / 2, 0), async () => {
    for (const label of all) await key(page, label).tap();
  });
  assert.equal(got, all.map((k) => expected[k]).join(''), 'every key as its normal-mode sequence, in order');
  assert.ok(await focusedIsTerminal(page), 'tapping the keys left the focus (and the soft keyboard) where it was');

  // Application cursor mode (DECCKM, as full-screen programs set it): SS3 arrows, Home, End.
  const app = await record(page, 12, async () => {
    for (const label of ['Up arrow', 'Left arrow', 'Home', 'End']) await key(page, label).tap();
  }, { before: "printf '\\e[?1h'; ", after: "printf '\\e[?1l'; " });
  assert.equal(app, '1b4f41' + '1b4f44' + '1b4f48' + '1b4f46');
  assertNoProblems(page);
});

test('Ctrl and Alt are sticky: armed for one key, locked until tapped, from the toolbar or the soft keyboard', { timeout: 120000 }, async (t) => {
  const { page } = await phoneAttached(t);
  const ctrl = key(page, 'Control');
  await key(page, 'Show keyboard').tap();

  // Armed Ctrl + a character from the soft keyboard (text input with no key event) is
  // the control byte: Ctrl+C interrupts a sleep at once.
  await run(page, 'sleep 60');
  await ctrl.tap();
  assert.equal(await ctrl.getAttribute('aria-pressed'), 'true');
  assert.equal(await ctrl.getAttribute('data-state'), 'armed');
  await page.screenshot({ path: `${SHOTS}/toolbar-ctrl-armed-390.png` });
  await page.keyboard.insertText('c');
  await waitFor(async () => (await ctrl.getAttribute('data-state')) === 'off', { what: 'Ctrl released after one key' });
  await run(page, 'echo after-$((6*7))');
  await waitForLine(page, 'after-42', { timeout: 10000, what: 'the sleep interrupted by Ctrl+C' });

  // Armed Ctrl + a toolbar arrow: the xterm modifier form. Alt likewise; Alt + a typed
  // character is ESC before it; Ctrl+[ is ESC; Ctrl+space (a hardware key) is NUL.
  const mods = await record(page, 6 + 6 + 2 + 1 + 1, async () => {
    await ctrl.tap(); await key(page, 'Up arrow').tap();
    await key(page, 'Alt').tap(); await key(page, 'Up arrow').tap();
    await key(page, 'Alt').tap(); await page.keyboard.insertText('x');
    await ctrl.tap(); await page.keyboard.insertText('[');
    await ctrl.tap(); await page.keyboard.press('Space');
  });
  assert.equal(mods, '1b5b313b3541' + '1b5b313b3341' + '1b78' + '1b' + '00');
  assert.equal(await key(page, 'Alt').getAttribute('aria-pressed'), 'false', 'Alt released after one key');

  // Two taps lock Ctrl: it stays for every key (soft keyboard and hardware) until a
  // third tap releases it. (Locked only once the recorder listens: the page types the
  // recorder's command through the same terminal.)
  const locked = await record(page, 3, async () => {
    await ctrl.tap(); await ctrl.tap();
    assert.equal(await ctrl.getAttribute('data-state'), 'locked');
    await key(page, 'Alt').tap();
    assert.equal(await key(page, 'Alt').getAttribute('data-state'), 'armed');
    await page.screenshot({ path: `${SHOTS}/toolbar-ctrl-locked-alt-armed-390.png` });
    await key(page, 'Alt').tap(); await key(page, 'Alt').tap(); // Alt: locked, then off again
    assert.equal(await key(page, 'Alt').getAttribute('data-state'), 'off');
    await page.keyboard.insertText('a');
    await page.keyboard.press('b');
    await page.keyboard.insertText('e');
    await waitFor(async () => (await ctrl.getAttribute('data-state')) === 'locked', { what: 'Ctrl still locked' });
    await ctrl.tap();
  });
  assert.equal(locked, '010205', 'Ctrl held for three keys');
  assert.equal(await ctrl.getAttribute('aria-pressed'), 'false', 'the third tap released it');
  const plain = await record(page, 1, () => page.keyboard.insertText('a'));
  assert.equal(plain, '61', 'released: a plain a');

  // The modifier tables themselves, as xterm has them.
  const table = await page.evaluate(async () => {
    const { modifyChar, sequence } = await import('/static/key_toolbar.js');
    return [modifyChar('C', { ctrl: true }), modifyChar('\\', { ctrl: true }), modifyChar(']', { ctrl: true }),
      modifyChar('_', { ctrl: true }), modifyChar('?', { ctrl: true }), modifyChar('é', { ctrl: true }),
      modifyChar('c', { ctrl: true, alt: true }), sequence('pgup', { ctrl: true }), sequence('home', { alt: true }, true),
      sequence('enter', { alt: true }), sequence('backtab', {})];
  });
  assert.deepEqual(table, ['\x03', '\x1c', '\x1d', '\x1f', '\x7f', 'é', '\x1b\x03', '\x1b[5;5~', '\x1b[1;3H', '\x1b\r', '\x1b[Z']);
  assertNoProblems(page);
});

test('Paste reads the clipboard into the cleaning path, and says so where the browser will not', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await phone(t, { clipboard: true, origin: daemon.origin });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await key(page, 'Show keyboard').tap();
  await page.evaluate(() => navigator.clipboard.writeText('ab\x07c'));
  const got = await record(page, 3, () => key(page, 'Paste').tap());
  assert.equal(got, '616263', 'the BEL removed by the daemon, the rest pasted');
  await waitFor(async () => /control codes were removed/.test(await page.locator('#status').textContent()), { what: 'the removal reported' });

  // No clipboard reading (what plain http over the network gives): a clear message.
  await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true }));
  await key(page, 'Paste').tap();
  await waitFor(async () => /not a secure context/.test(await page.locator('#status').textContent()), { what: 'the message about the clipboard' });
  assert.match(await page.locator('#status').textContent(), /Long-press the message box/);
  assertNoProblems(page);
});

test('on touch a tap on the terminal does not raise the keyboard; the keyboard key does; ?focus=1 restores taps', { timeout: 120000 }, async (t) => {
  const { daemon, page } = await phoneAttached(t);
  await settle(page);
  assert.equal(await focusedIsTerminal(page), false, 'the page did not focus the terminal at start');
  const centre = await page.locator('#terminal').boundingBox();
  await page.touchscreen.tap(centre.x + centre.width / 2, centre.y + centre.height / 3);
  await settle(page);
  assert.equal(await focusedIsTerminal(page), false, 'a tap leaves the soft keyboard down');
  await key(page, 'Show keyboard').tap();
  await waitFor(() => focusedIsTerminal(page), { what: 'the keyboard key focuses the terminal' });
  await page.touchscreen.tap(centre.x + centre.width / 2, centre.y + centre.height / 3);
  await settle(page);
  assert.ok(await focusedIsTerminal(page), 'with the keyboard up, a tap keeps it up');
  // Put away (the textarea blurred): the next tap does not bring it back.
  await page.evaluate(() => document.activeElement.blur());
  await page.touchscreen.tap(centre.x + centre.width / 2, centre.y + centre.height / 3);
  await settle(page);
  assert.equal(await focusedIsTerminal(page), false, 'put away, it stays away');

  // Switching sessions on the phone does not raise it either.
  await page.getByRole('button', { name: /new session/i }).first().tap();
  await waitFor(async () => (await page.locator('[role="tab"]').count()) === 2, { what: 'a second tab' });
  await page.locator('[role="tab"]').first().tap();
  await waitFor(async () => (await page.locator('[role="tab"][aria-selected="true"]').first().textContent()) === (await page.locator('[role="tab"]').first().textContent()), { what: 'the first tab selected' });
  await settle(page);
  assert.equal(await focusedIsTerminal(page), false, 'a tab switch leaves the keyboard down');

  // The sessions key opens the session picker (session_picker.js; page_phone.test.mjs
  // has the rest); a row switches, and the keyboard stays down.
  const before = await page.locator('[role="tab"][aria-selected="true"]').textContent();
  await key(page, 'Sessions').tap();
  await page.getByRole('dialog', { name: 'Sessions' }).locator('.picker-item:not([aria-current="true"])').first().tap();
  await waitFor(async () => (await page.locator('[role="tab"][aria-selected="true"]').textContent()) !== before, { what: 'the picker switched session' });
  await settle(page);
  assert.equal(await focusedIsTerminal(page), false, 'switching from the picker leaves the keyboard down');

  // ?focus=1: a tap focuses, as on a desktop.
  const tapper = await phone(t);
  await tapper.goto(`${daemon.url}&focus=1`);
  await tapper.locator('.xterm-accessibility-tree').waitFor({ timeout: 10000 });
  await tapper.evaluate(() => document.activeElement?.blur());
  const box = await tapper.locator('#terminal').boundingBox();
  await tapper.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 3);
  await waitFor(() => focusedIsTerminal(tapper), { what: '?focus=1: the tap focuses the terminal' });
  assertNoProblems(page, tapper);
});

test('?toolbar= forces the toolbar off on touch and on on a desktop; a desktop keeps click-to-focus', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const off = await phone(t);
  await off.goto(`${daemon.url}&toolbar=0`);
  await waitForPrompt(off);
  assert.equal(await off.getByRole('toolbar').count(), 0, '?toolbar=0 hides it on touch');

  const desk = await newWindow(t, browser);
  await openAttached(desk, daemon);
  await waitForPrompt(desk);
  assert.equal(await desk.getByRole('toolbar').count(), 0, 'no toolbar on a desktop');
  assert.ok(await focusedIsTerminal(desk), 'a desktop focuses the terminal at start');
  await desk.evaluate(() => document.activeElement.blur());
  const box = await desk.locator('#terminal').boundingBox();
  await desk.mouse.click(box.x + box.width / 2, box.y + box.height / 3);
  await waitFor(() => focusedIsTerminal(desk), { what: 'a click focuses the terminal on a desktop' });

  const forced = await newWindow(t, browser);
  await forced.goto(`${daemon.url}&toolbar=1`);
  await waitForPrompt(forced);
  await forced.getByRole('toolbar', { name: 'Terminal keys' }).waitFor();
  // Keyboard use, per the ARIA toolbar pattern: one tab stop, arrows move within.
  await forced.getByRole('button', { name: 'Escape', exact: true }).focus();
  await forced.keyboard.press('ArrowRight');
  assert.equal(await forced.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Control');
  await forced.keyboard.press('End');
  assert.equal(await forced.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Sessions');
  const stops = await forced.locator('[role="toolbar"] button[tabindex="0"]').count();
  assert.equal(stops, 1, 'one tab stop');
  assertNoProblems(off, desk, forced);
});

test('screenshots: the toolbar on phones', { timeout: 90000 }, async (t) => {
  for (const [width, height] of [[390, 844], [360, 740]]) {
    const daemon = await ownDaemon(t);
    const page = await phone(t, { width, height });
    await openAttached(page, daemon);
    await waitForPrompt(page);
    await key(page, 'Show keyboard').tap();
    await run(page, 'echo shot-$((20+1))');
    await waitForLine(page, 'shot-21');
    await page.screenshot({ path: `${SHOTS}/toolbar-${width}x${height}.png` });
    await key(page, 'Control').tap();
    await key(page, 'Alt').tap(); await key(page, 'Alt').tap();
    await page.screenshot({ path: `${SHOTS}/toolbar-states-${width}x${height}.png` });
    assert.ok((await screenRows(page)).length > 10, 'the terminal keeps a usable height');
  }
});
