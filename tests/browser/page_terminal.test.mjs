// The terminal in the page, as a person meets it (Debian's chromium, the real daemon,
// a daemon per test): OSC 52 clipboard writes land only from live output of the focused
// window (never from a replayed snapshot, never when unfocused) and read requests are
// never answered; links open only http(s), only with Ctrl held, with noopener; Shift+Enter
// sends ESC CR; Ctrl+C interrupts even with a selection while Ctrl+Shift+C copies it;
// Ctrl+F finds text in the scrollback. Every wait has a deadline; nothing sleeps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { waitFor } from '../support/daemon.mjs';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, screenRows, waitForLine, waitForMatch,
  openAttached, waitUntilAttached, waitForPrompt, run, screenshot, cellCenter, terminalSize, withScreen,
  brightPixels,
} from '../support/page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const readClipboard = (page) => page.evaluate(() => navigator.clipboard.readText());
const osc52 = (text) => `printf '\\e]52;c;${Buffer.from(text, 'utf8').toString('base64')}\\a'`;

test('OSC 52 writes reach the clipboard from live output of the focused window only', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser, { clipboard: true, origin: daemon.origin });
  // The daemon never puts OSC 52 in a snapshot; a stale copy in one is exactly what the
  // page must ignore, so the route below adds one to every snapshot it passes on.
  const STALE = 'stale copy from the snapshot';
  let injected = 0;
  await page.routeWebSocket(/\/ws\?/, (ws) => {
    const server = ws.connectToServer();
    let snapshotNext = false;
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      if (typeof m === 'string') {
        snapshotNext = JSON.parse(m).type === 'snapshot';
        ws.send(m);
      } else if (snapshotNext) {
        snapshotNext = false;
        injected++;
        ws.send(Buffer.concat([Buffer.from(`\x1b]52;c;${Buffer.from(STALE).toString('base64')}\x07`), m]));
      } else {
        ws.send(m);
      }
    });
  });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  assert.ok(injected >= 1, 'the test route saw the snapshot');
  assert.ok(await page.evaluate(() => document.hasFocus()), 'the page has the focus');
  assert.notEqual(await readClipboard(page), STALE, 'the first snapshot did not reach the clipboard');

  // Live output: UTF-8 beyond ASCII must survive the base64 (no bare atob).
  const text = 'héllo wörld ✓ 日本語';
  await run(page, `${osc52(text)}; echo sent-$((2*3))`);
  await waitForLine(page, 'sent-6');
  await waitFor(async () => (await readClipboard(page)) === text, { what: 'the OSC 52 text on the clipboard' });

  // The person copies something else; a reload replays the screen (and the stale copy).
  await page.evaluate(() => navigator.clipboard.writeText('the person copied this'));
  const before = injected;
  await page.reload();
  await waitUntilAttached(page);
  await waitForLine(page, 'sent-6');
  await run(page, 'echo after-$((3*3))'); // live output after the snapshot was processed
  await waitForLine(page, 'after-9');
  assert.ok(injected > before, 'the reload got a snapshot with an OSC 52 in it');
  assert.equal(await readClipboard(page), 'the person copied this', 'a replayed snapshot never writes the clipboard');

  // A window without the focus does not write either.
  await page.evaluate(() => { document.hasFocus = () => false; });
  await run(page, `${osc52('from a window in the background')}; echo bg-$((4*4))`);
  await waitForLine(page, 'bg-16');
  await page.evaluate(() => { delete document.hasFocus; });
  await run(page, `${osc52('focused again')}; echo fg-$((5*5))`);
  await waitForLine(page, 'fg-25');
  await waitFor(async () => (await readClipboard(page)) === 'focused again', { what: 'the focused copy on the clipboard' });
  assertNoProblems(page);
});

test('an OSC 52 read request is never answered', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser, { clipboard: true, origin: daemon.origin });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await page.evaluate(() => navigator.clipboard.writeText('secret on the clipboard'));
  // The probe can see a reply: a device attributes query (answered by the daemon) shows one.
  await run(page, `printf '\\e[c'; read -t 1 -rs -n 200 x; echo "da[\${#x}]"`);
  // On a busy machine the reply can arrive before `read -s` turns the echo off, and its
  // echo then starts the line: the count is what matters.
  const da = await waitForMatch(page, /da\[(\d+)\]$/);
  assert.ok(Number(da[1]) > 0, 'the probe sees a terminal reply');
  await run(page, `printf '\\e]52;c;?\\a'; read -t 1 -rs -n 200 x; echo "got[$x]"`);
  await waitForLine(page, 'got[]');
  assert.ok(!(await screenRows(page)).some((r) => r.includes('secret')), 'nothing of the clipboard came back');
  assertNoProblems(page);
});

test('links open only http(s), only with Ctrl held, with noopener and noreferrer', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await page.addInitScript(() => {
    window.opened = [];
    window.open = (...args) => { window.opened.push(args); return null; };
  });
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const size = await terminalSize(page);
  await run(page, 'clear; printf \'\\e]8;;javascript:window.opened.push(["js"])\\e\\\\JSLINK\\e]8;;\\e\\\\\\n\'; '
    + 'printf \'\\e]8;;https://example.com/osc8\\e\\\\WEBLINK\\e]8;;\\e\\\\\\n\'; '
    + 'printf \'\\e]8;;file:///etc/passwd\\e\\\\FILELINK\\e]8;;\\e\\\\\\n\'; echo https://example.org/plain');
  await waitForLine(page, 'https://example.org/plain');
  const rows = await screenRows(page);
  const rowOf = (text) => rows.findIndex((r) => r.trim() === text);
  const opened = () => page.evaluate(() => window.opened);

  async function clickOn(text, { ctrl }) {
    const at = await cellCenter(page, size, rowOf(text), 2);
    await page.mouse.move(at.x, at.y);
    // xterm.js finds links on hover; the pointer cursor says it found this one.
    await withScreen(page, waitFor(() => page.locator('#terminal .xterm-screen.xterm-cursor-pointer').count(),
      { what: `the link under ${text}` }));
    if (ctrl) await page.keyboard.down('Control');
    await page.mouse.click(at.x, at.y);
    if (ctrl) await page.keyboard.up('Control');
    await page.mouse.move(0, 0);
  }

  await clickOn('WEBLINK', { ctrl: false });
  assert.deepEqual(await opened(), [], 'a plain click opens nothing');
  await clickOn('JSLINK', { ctrl: true });
  await clickOn('FILELINK', { ctrl: true });
  await clickOn('WEBLINK', { ctrl: true });
  await waitFor(async () => (await opened()).length >= 1, { what: 'the https link to open' });
  await clickOn('https://example.org/plain', { ctrl: true });
  await waitFor(async () => (await opened()).length >= 2, { what: 'the plain link to open' });
  assert.deepEqual(await opened(), [
    ['https://example.com/osc8', '_blank', 'noopener,noreferrer'],
    ['https://example.org/plain', '_blank', 'noopener,noreferrer'],
  ], 'only the http(s) links opened, in a new tab without opener or referrer');
  assert.deepEqual(dialogs, [], 'no dialog either');
  assertNoProblems(page);
});

test('Shift+Enter sends ESC CR; Ctrl+Shift+C and the context menu copy; Ctrl+C interrupts even with a selection', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser, { clipboard: true, origin: daemon.origin });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const size = await terminalSize(page);
  await run(page, 'clear; echo copyme-word; cat -v');
  await waitForLine(page, 'copyme-word');
  // Each line shows twice: the terminal's echo, then cat's output. The next key waits for
  // cat's line, or its echo could land in front of it.
  const shownTwice = (line, what) => withScreen(page, waitFor(async () =>
    (await screenRows(page)).filter((r) => r.trim() === line).length === 2, { what }));
  await page.keyboard.type('a');
  await page.keyboard.press('Shift+Enter'); // cat -v shows ESC as ^[ and CR arrives as a newline
  await shownTwice('a^[', 'a then ESC then a line end, echoed and from cat');
  await page.keyboard.type('b');
  await page.keyboard.press('Alt+Enter'); // the same bytes, as before
  await shownTwice('b^[', 'Alt+Enter still sending ESC CR');
  await page.keyboard.type('end');
  await page.keyboard.press('Enter');
  await waitForLine(page, 'end');
  const rows = (await screenRows(page)).map((r) => r.trim());

  // Select a word (double-click), copy it with Ctrl+Shift+C, then Ctrl+C interrupts cat.
  await page.evaluate(() => navigator.clipboard.writeText(''));
  const at = await cellCenter(page, size, rows.indexOf('copyme-word'), 2);
  await page.mouse.dblclick(at.x, at.y);
  await page.keyboard.press('Control+Shift+C');
  await waitFor(async () => (await page.evaluate(() => navigator.clipboard.readText())) === 'copyme-word',
    { what: 'the selection on the clipboard' });
  // The context menu's Copy: a right-click hands the selection to the browser's menu
  // (xterm.js puts it, selected, in its text area); choosing Copy copies it.
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.mouse.click(at.x, at.y, { button: 'right' });
  assert.equal(await page.evaluate(() => {
    const area = document.activeElement;
    return area.value.slice(area.selectionStart, area.selectionEnd);
  }), 'copyme-word', 'the menu sees the selection');
  await page.evaluate(() => document.execCommand('copy')); // what the menu's Copy does
  await waitFor(async () => (await page.evaluate(() => navigator.clipboard.readText())) === 'copyme-word',
    { what: 'the menu\'s copy on the clipboard' });
  await page.keyboard.press('Escape'); // closes the menu, if the browser drew one
  await page.evaluate(() => navigator.clipboard.writeText('sentinel'));
  await page.keyboard.press('Control+C'); // the word is still selected
  await withScreen(page, waitFor(async () => (await screenRows(page)).filter((r) => r.trim()).at(-1).endsWith('#')
    || (await screenRows(page)).filter((r) => r.trim()).at(-1).endsWith('$'), { what: 'a prompt after Ctrl+C' }));
  await run(page, 'echo alive-$((6*7))'); // typed into cat, this would come back unexpanded
  await waitForLine(page, 'alive-42');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'sentinel', 'Ctrl+C did not copy');
  await screenshot(page, 'terminal-keys.png');
  assertNoProblems(page);
});

test('Ctrl+F finds text in the scrollback and Escape gives the focus back', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await run(page, 'echo needle-$((40+2)); seq -f "hay-%g" 1 300');
  await waitForLine(page, 'hay-300');
  assert.ok(!(await screenRows(page)).some((r) => r.trim() === 'needle-42'), 'the needle is in the scrollback, off screen');

  await page.keyboard.press('Control+F');
  const box = page.getByRole('textbox', { name: 'Find in terminal' });
  await waitFor(() => box.evaluate((el) => el === document.activeElement), { what: 'the search box to have the focus' });
  await page.keyboard.type('needle-42');
  await waitForLine(page, 'needle-42', { what: 'the match scrolled into view' });
  await waitFor(async () => (await page.locator('.term-search-count').textContent()) === '1 of 1', { what: '"1 of 1"' });
  // With the regular expression toggle on: the ten rows hay-290..hay-299.
  await page.getByRole('button', { name: 'Use regular expression' }).click();
  await box.fill('^hay-29\\d$');
  await waitFor(async () => /^\d+ of 10$/.test(await page.locator('.term-search-count').textContent()), { what: '10 matches of the regex' });
  await screenshot(page, 'terminal-search.png');
  await box.fill('needle-42');
  await waitForLine(page, 'needle-42', { what: 'the needle again' });
  await box.focus();

  await page.keyboard.press('Escape');
  await waitFor(async () => !(await box.isVisible()), { what: 'the search box to close' });
  assert.ok(await page.evaluate(() => document.activeElement?.classList.contains('xterm-helper-textarea')),
    'the focus is back in the terminal');
  await run(page, 'echo back-$((1+1))');
  await waitForLine(page, 'back-2');
  assertNoProblems(page);
});

// A phone never gets a blank terminal. Headless Chromium emulating a device pixel ratio
// of 2 or 3 gives WebGL a canvas sized for the wrong ratio, and nothing it draws shows:
// the page must notice and draw with the DOM renderer instead. What is checked is what a
// person sees: the screenshot of the terminal holds the text the shell printed.
test('at every device pixel ratio the terminal shows its text (WebGL falls back when it would be blank)', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  for (const ratio of [1, 2, 3]) {
    const page = await newWindow(t, browser, { width: 390, height: 844, hasTouch: true, deviceScaleFactor: ratio });
    await openAttached(page, daemon);
    await waitForPrompt(page);
    // A phone: a tap on the terminal leaves the soft keyboard down; the toolbar's key raises it.
    await page.getByRole('button', { name: 'Show keyboard', exact: true }).tap();
    await run(page, `printf '%s\\n' WWWWWWWWWWWWWWWWWWWWWWWW WWWWWWWWWWWWWWWWWWWWWWWW WWWWWWWWWWWWWWWWWWWWWWWW`);
    await waitForLine(page, 'WWWWWWWWWWWWWWWWWWWWWWWW');
    const renderer = await page.evaluate(() => (document.querySelector('.xterm-screen canvas:not(.xterm-link-layer)') ? 'webgl' : 'dom'));
    // Three rows of 24 W, bright on the dark terminal: thousands of bright device pixels.
    const shown = await waitFor(async () => {
      const bright = await brightPixels(browser, await page.locator('#terminal').screenshot());
      return bright > 1500 * ratio * ratio ? bright : null;
    }, { timeout: 10000, what: `text on screen at a device pixel ratio of ${ratio} (${renderer})` });
    t.diagnostic(`ratio ${ratio}: ${renderer}, ${shown} bright pixels`);
    if (ratio === 3) await screenshot(page, 'phone-dpr3.png');
    assertNoProblems(page);
    await page.context().close();
  }
});
