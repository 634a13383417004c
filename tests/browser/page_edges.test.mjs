// Rough edges a new user hits, each pinned by a test in a real browser against the real
// daemon: Shift+Tab stays in the terminal (and the stop confirm never has Stop focused);
// every way of pasting into the terminal goes through the daemon's paste cleaning, so a
// clipboard holding the end-of-paste marker cannot run a command; the watcher view has
// one "Take over"; a failed upload chip does not survive a reload. Every wait has a
// deadline; nothing sleeps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt, waitForLine,
  run, screenRows, screenshot, newSession, waitFor,
} from '../support/bar_page.mjs';
import { waitForMatch } from '../support/page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const inTerminal = (page) => page.evaluate(() => document.activeElement?.closest('.xterm') != null);

test('Shift+Tab goes to the program and the focus stays in the terminal', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  assert.ok(await inTerminal(page), 'the terminal has the focus to begin with');
  // The program reads three bytes and shows what followed ESC.
  await run(page, `read -rsn3 x; printf 'got[%s]\\n' "\${x:1}"`);
  await page.keyboard.press('Shift+Tab');
  await waitForLine(page, 'got[[Z]', { what: 'ESC [ Z read by the program' });
  assert.ok(await inTerminal(page), 'Shift+Tab left the focus in the terminal');
  await run(page, `IFS= read -rsn1 x; printf 'tab[%d]\\n' "'$x"`);
  await page.keyboard.press('Tab');
  await waitForLine(page, 'tab[9]', { what: 'a TAB read by the program' });
  assert.ok(await inTerminal(page), 'Tab left the focus in the terminal');
  // The next Enter is the program's: no "Stop wharf?" opens.
  await run(page, 'echo after-$((20+1))');
  await waitForLine(page, 'after-21');
  assert.equal(await page.getByRole('alertdialog').count(), 0, 'no confirm opened');
  assertNoProblems(page);
});

test('the stop confirm has Cancel focused: Enter declines', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await page.locator('#tabs').getByRole('button', { name: 'Stop wharf', exact: true }).click();
  const question = page.getByRole('alertdialog', { name: 'Stop wharf?' });
  await question.waitFor({ timeout: 5000 });
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel', 'the safe choice has the focus');
  await page.keyboard.press('Enter');
  await question.waitFor({ state: 'detached', timeout: 5000 });
  assert.equal(daemon.child.exitCode, null, 'Enter stopped nothing');
  await run(page, 'echo alive-$((2+2))');
  await waitForLine(page, 'alive-4');
  assertNoProblems(page);
});

// A clipboard that closes the bracketed paste early, then presses Enter and runs a
// command: through the daemon's cleaning the marker goes, the text arrives as one paste
// sitting at the prompt, and nothing runs.
const hostile = (marker, n) => `echo pasted-$((${n}*7))\x1b[201~\rtouch ${marker}\r`;

// Bash turns bracketed paste off while a command runs and on again as it reads the next
// line: a paste is only bracketed (and only meant to be) once the new prompt is up.
function waitForPromptAfter(page, line) {
  return waitFor(async () => {
    const rows = (await screenRows(page)).filter((r) => r.trim());
    return rows.length >= 2 && /[$#]$/.test(rows.at(-1)) && rows.at(-2).trim() === line;
  }, { what: `the prompt after "${line}"` });
}

async function expectPastedNotRun(page, marker, n) {
  await waitForMatch(page, new RegExp(`echo pasted-\\$\\(\\(${n}\\*7\\)\\)`), { what: `the pasted text (${n}) at the prompt` });
  // Nothing of it ran: clear the line (Ctrl+U, the whole of readline's buffer; not
  // Ctrl+C, whose signal flushes keys typed right after it), then prove the shell is past it.
  await page.keyboard.press('Control+E');
  await page.keyboard.press('Control+U');
  await run(page, `echo checked-$((${n}+100))`);
  await waitForLine(page, `checked-${n + 100}`);
  await waitForPromptAfter(page, `checked-${n + 100}`);
  const rows = await screenRows(page);
  assert.ok(!rows.some((r) => r.trim() === `pasted-${n * 7}`), `the echo of paste ${n} did not run`);
  assert.ok(!existsSync(marker), `the command after the marker did not run (paste ${n}):\n${rows.join('\n')}`);
}

test('every paste path goes through the daemon: a hostile clipboard runs nothing', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser, { clipboard: true, origin: daemon.origin });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const dir = mkdtempSync(join(daemon.stateDir, 'paste-'));
  // Bash must be reading with bracketed paste on, as it does at a prompt.
  await run(page, "bind -v | grep -q 'enable-bracketed-paste on' && echo bracketed-yes");
  await waitForLine(page, 'bracketed-yes');
  await waitForPromptAfter(page, 'bracketed-yes');

  // 1. The paste event, as the context menu, Cmd+V or any other browser paste fires it
  //    at xterm.js's textarea (which would turn it into onData).
  let marker = join(dir, 'ran-1');
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    document.querySelector('#terminal textarea').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, hostile(marker, 1));
  await expectPastedNotRun(page, marker, 1);

  // 2. Ctrl+Shift+V and 3. Shift+Insert, with the clipboard holding the same.
  const shortcuts = [['Control+Shift+V', 2], ['Shift+Insert', 3]];
  for (const [keys, n] of shortcuts) {
    marker = join(dir, `ran-${n}`);
    await page.evaluate((text) => navigator.clipboard.writeText(text), hostile(marker, n));
    await page.keyboard.press(keys);
    await expectPastedNotRun(page, marker, n);
  }
  // The search box shares the terminal's container: a paste there stays there.
  await page.keyboard.press('Control+F');
  const find = page.getByRole('textbox', { name: 'Find in terminal' });
  await find.waitFor({ timeout: 5000 });
  await page.evaluate(() => navigator.clipboard.writeText('checked'));
  await page.keyboard.press('Shift+Insert');
  await waitFor(async () => (await find.inputValue()) === 'checked', { what: 'the paste in the search box' });
  await page.keyboard.press('Escape');
  await screenshot(page, 'paste-hostile.png');
  assertNoProblems(page);
});

test('the watcher view: one Take over, no stray scrollbar, tabs of one width', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const driver = await newWindow(t, browser, { width: 1280, height: 800 });
  await openAttached(driver, daemon);
  await waitForPrompt(driver);
  await newSession(driver);
  await newSession(driver);
  await driver.getByRole('tab').nth(2).click();
  await run(driver, 'seq 1 150');
  await waitForLine(driver, '150');
  const watcher = await newWindow(t, browser, { width: 900, height: 700 });
  await openAttached(watcher, daemon);
  await waitForLine(watcher, '150');
  await watcher.keyboard.type('x'); // refused: the notice says why
  await waitFor(() => watcher.locator('#notice').isVisible(), { what: 'the watcher notice' });
  const takeOvers = await watcher.locator('button:visible').filter({ hasText: /Take over/ }).count();
  assert.equal(takeOvers, 1, 'one Take over control on screen');
  // The driver's screen is smaller than the watcher's window: its scrollbar would float
  // at the edge of the smaller screen, mid-window.
  const bars = await watcher.locator('#terminal .xterm-scrollable-element > .scrollbar.vertical').evaluateAll(
    (els) => els.filter((el) => getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().width > 0).length);
  assert.equal(bars, 0, 'no visible scrollbar beside a screen shown at another window\'s size');
  const widths = await watcher.locator('#tabs .tab').evaluateAll((tabs) => tabs.map((el) => Math.round(el.getBoundingClientRect().width)));
  assert.equal(widths.length, 3);
  assert.equal(new Set(widths).size, 1, `tabs of one width, current, driven or not: ${widths}`);
  await screenshot(watcher, 'watcher-one-take-over.png');
  // The bar's button takes over.
  await watcher.getByRole('button', { name: 'Take over this session' }).click();
  await waitFor(async () => !(await watcher.locator('#tabs .tab-watcher').isVisible()), { what: 'the watcher to drive' });
  assertNoProblems(driver, watcher);
});

test('the stopped curtain shows commands as code and promises nothing it cannot do', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await page.locator('#tabs').getByRole('button', { name: 'Stop wharf', exact: true }).click();
  await page.getByRole('alertdialog', { name: 'Stop wharf?' }).getByRole('button', { name: 'Stop wharf' }).click();
  const curtain = page.locator('#curtain');
  await waitFor(async () => (await curtain.getAttribute('data-reason')) === 'stopped', { timeout: 20000, what: 'the stopped curtain' });
  const text = await curtain.textContent();
  assert.ok(!text.includes('`'), `no raw backticks: ${text}`);
  assert.deepEqual(await curtain.locator('code').allTextContents(), ['wharf serve', 'wharf open']);
  assert.doesNotMatch(text, /comes back by itself/, 'no promise the page cannot keep');
  assert.match(text, /new key/);
  await screenshot(page, 'curtain-stopped-honest.png');
});

test('a failed upload chip does not survive a reload', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('look at this');
  await page.locator('#composer input[type="file"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just text\n') });
  await waitFor(() => page.locator('.composer-chip.failed').count(), { what: 'the refused upload\'s chip' });
  page.problems = page.problems.filter((p) => !/\b415\b/.test(p)); // expected here
  await page.reload();
  await waitForPrompt(page);
  await waitFor(async () => (await box.inputValue()) === 'look at this', { what: 'the draft text after the reload' });
  assert.equal(await page.locator('.composer-chip').count(), 0, 'the failed chip went with the reload');
  assertNoProblems(page);
});
