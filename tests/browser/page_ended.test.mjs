// What an ended session leaves, in a real browser against the real daemon: a program
// that fails keeps its tab, dimmed, marked with its exit status, and the window that
// watched it stays on its last screen under a banner ("slowfail exited with status 1
// after 2 s: see its last screen") with Close; another window (a phone) sees the same
// tab and, on it, the daemon's copy of the screen; a reload shows it again; Close
// removes it from every window and lands on a live session. Every wait has a deadline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt, waitForLine,
  screenRows, screenshot, waitFor, tabNames, selectedTab,
} from '../support/bar_page.mjs';
import { runWharf } from '../support/ws_client.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

function configFor(t) {
  const dir = mkdtempSync(join(tmpdir(), 'wharf-ended-page-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'config.toml');
  writeFileSync(config, [
    // Prints why, waits for Enter (so the test can be on it), then fails.
    '[actions.slowfail]', 'argv = ["/bin/sh", "-c", "echo not logged in; echo run: login first; read x; exit 1"]', 'interactive = true',
    '[actions.fails]', 'argv = ["/bin/sh", "-c", "echo offline: no network; sleep 0.3; exit 2"]', 'interactive = true',
  ].join('\n'));
  return config;
}

const banner = (page) => page.locator('#ended');
const endedTab = (page, name) => page.locator('#tabs .tab.ended', { has: page.getByRole('tab', { name, exact: true }) });

test('a failed session keeps an ended tab with its last screen until closed, in every window', { timeout: 120000 }, async (t) => {
  const daemon = await ownDaemon(t, { args: ['--config', configFor(t)] });
  const wharf = (args) => runWharf([...args, '--state-dir', daemon.stateDir]);
  const page = await newWindow(t, browser, { width: 1280, height: 800 });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const [shell] = await tabNames(page);

  // The window is on the program when it fails.
  const made = await wharf(['new', '--action', 'slowfail', '--name', 'login']);
  assert.equal(made.code, 0, made.stderr);
  await waitFor(async () => (await tabNames(page)).includes('login'), { what: 'the login tab' });
  await page.getByRole('tab', { name: 'login', exact: true }).click();
  await waitForLine(page, 'not logged in');
  await page.keyboard.press('Enter');
  await waitFor(() => banner(page).isVisible(), { what: 'the ended banner' });
  const said = await banner(page).textContent();
  assert.match(said, /slowfail exited with status 1 after \d+ s: see its last screen/);
  assert.ok(await banner(page).evaluate((el) => el.classList.contains('failed-start')), 'a failed start is said prominently');
  await waitFor(() => endedTab(page, 'login').count(), { what: 'the login tab, ended' });
  assert.equal(await selectedTab(page), 'login', 'the window stays on it');
  assert.equal(await endedTab(page, 'login').locator('.tab-ended-mark').textContent(), 'exit 1');
  const rows = await screenRows(page);
  assert.ok(rows.some((r) => r.trim() === 'not logged in'), 'its last screen is still on screen');
  assert.ok(banner(page).getByRole('button', { name: 'Close login' }));
  // Typing goes nowhere (there is nothing to type into), and starts nothing.
  await page.keyboard.type('ls');
  await page.keyboard.press('Enter');
  assert.deepEqual((await tabNames(page)).sort(), [shell, 'login'].sort(), 'Enter on an ended tab starts nothing');
  await screenshot(page, 'ended-wide.png');

  // Another window (a phone) sees the ended tab and, on it, the daemon's copy of the screen.
  const phone = await newWindow(t, browser, { width: 390, height: 844 });
  await openAttached(phone, daemon);
  await waitFor(() => endedTab(phone, 'login').count(), { what: 'the ended tab on the phone' });
  await phone.getByRole('tab', { name: 'login', exact: true }).click();
  await waitFor(() => banner(phone).isVisible(), { what: 'the banner on the phone' });
  await waitForLine(phone, 'not logged in');
  await waitForLine(phone, 'run: login first');
  await screenshot(phone, 'ended-phone.png');

  // A reload shows it again, screen and all.
  await page.reload();
  await waitFor(() => banner(page).isVisible(), { what: 'the banner after a reload' });
  await waitForLine(page, 'not logged in');
  assert.equal(await selectedTab(page), 'login');

  // Close: gone from every window; each lands on the live session.
  await banner(page).getByRole('button', { name: 'Close login' }).click();
  for (const w of [page, phone]) {
    await waitFor(async () => !(await tabNames(w)).includes('login'), { what: 'the login tab gone' });
    await waitFor(async () => (await selectedTab(w)) === shell, { what: 'landing on the shell' });
    await waitFor(async () => !(await banner(w).isVisible()), { what: 'no banner' });
  }
  await waitForPrompt(page);
  // Both landed on the shell: one drives it, the other watches. This window types.
  const watching = (w) => w.locator('#tabs .tab-watcher').isVisible();
  await waitFor(async () => (await watching(page)) !== (await watching(phone)), { what: 'one driver, one watcher' });
  if (await watching(page)) {
    await page.getByRole('button', { name: 'Take over this session' }).click();
    await waitFor(async () => !(await watching(page)), { what: 'this window to drive' });
  }
  await page.keyboard.type('echo back-$((40+2))');
  await page.keyboard.press('Enter');
  await waitForLine(page, 'back-42');

  // One that fails while the window is elsewhere: a dimmed tab; the window stays put;
  // its × closes it.
  const failed = await wharf(['new', '--action', 'fails', '--name', 'offline']);
  assert.equal(failed.code, 0, failed.stderr);
  await waitFor(() => endedTab(page, 'offline').count(), { what: 'the offline tab, ended' });
  assert.equal(await selectedTab(page), shell, 'still on the shell');
  assert.ok(!(await banner(page).isVisible()), 'no banner for a tab the window is not on');
  assert.equal(await endedTab(page, 'offline').locator('.tab-ended-mark').textContent(), 'exit 2');
  await screenshot(page, 'ended-tab-dimmed.png');
  await endedTab(page, 'offline').getByRole('button', { name: 'Close offline' }).click();
  await waitFor(async () => !(await tabNames(phone)).includes('offline'), { what: 'offline gone on the phone too' });
  assertNoProblems(page, phone);
});
