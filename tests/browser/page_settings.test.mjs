// Settings and defaults in a real browser (issue 14): the settings dialog and what each
// setting does (kept across a reload, the font size refitting the terminal and the
// session following only a driving window, the light theme on the page and in the
// terminal's palette, the renderer switch, the operator's defaults from config.toml),
// the launcher's name, prompt and environment and its refusals shown by their fields,
// errors that stay until dismissed, and the keyboard shortcut overlay. Each test has
// its own daemon and its own windows; every wait has a deadline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt, waitForLine,
  run, tabNames, selectedTab, screenshot, waitFor, artifactsDir,
} from '../support/bar_page.mjs';
import { terminalSize, waitUntilAttached } from '../support/page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

// Screenshots go to the test artifacts and, for the person reviewing, /tmp/h/shots.
async function shot(page, name) {
  await screenshot(page, name);
  try {
    mkdirSync('/tmp/h/shots', { recursive: true });
    copyFileSync(join(artifactsDir, name), join('/tmp/h/shots', name));
  } catch { /* only a copy */ }
}

const settingsDialog = (page) => page.getByRole('dialog', { name: 'Settings' });

async function openSettings(page) {
  await page.locator('#tabs').getByRole('button', { name: 'Settings', exact: true }).click();
  await settingsDialog(page).waitFor({ timeout: 5000 });
  return settingsDialog(page);
}

const cols = (page) => page.evaluate(() => document.querySelectorAll('.xterm-accessibility-tree > div').length > 0
  && document.querySelector('#terminal .xterm-screen')?.getBoundingClientRect().width);

function workspace(t, config = '') {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'wharf-settings-')));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const ws = join(root, 'ws');
  mkdirSync(join(ws, 'apps', 'api'), { recursive: true });
  const file = join(root, 'config.toml');
  writeFileSync(file, config);
  return { root, ws, file };
}

test('settings: kept across a reload; font size refits and the session follows only the driving window', { timeout: 120000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const a = await newWindow(t, browser, { width: 1280, height: 800 });
  await openAttached(a, daemon);
  await waitForPrompt(a);
  const before = await terminalSize(a);

  // A second window watches the same session (a is the driver).
  const b = await newWindow(t, browser, { width: 1280, height: 800 });
  await openAttached(b, daemon);
  await waitFor(async () => (await b.locator('.tab-watching').isVisible()), { what: 'b watching' });
  // The watcher makes its font bigger: its own view changes, the session's size does not.
  const bWidthBefore = await cols(b);
  let dialog = await openSettings(b);
  await dialog.getByLabel('Font size').fill('24');
  await dialog.getByLabel('Font size').press('Tab');
  await waitFor(async () => (await cols(b)) !== bWidthBefore, { what: 'the watcher\'s terminal redrawn at 24 px' });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 5000 });
  assert.deepEqual(await terminalSize(a), before, 'a watcher\'s font leaves the session\'s size alone');
  await b.context().close(); // so that a, reloaded below, drives again

  // The driver makes its font bigger: fewer columns and rows, and the session follows.
  dialog = await openSettings(a);
  await shot(a, 'settings-dark.png');
  const size = dialog.getByLabel('Font size');
  assert.equal(await size.inputValue(), '14', 'the built-in default');
  await size.fill('20');
  await size.press('Tab');
  await page_expect_cols_change(a, before);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 5000 });
  const after20 = await waitFor(async () => {
    const s = await terminalSize(a);
    return s.cols < before.cols && s.rows < before.rows ? s : null;
  }, { timeout: 15000, what: 'the PTY to follow the driver\'s new font size' });
  assert.ok(after20.cols < before.cols);

  // Kept across a reload (this browser's storage), and shown in the dialog.
  await a.reload();
  await waitUntilAttached(a);
  dialog = await openSettings(a);
  assert.equal(await dialog.getByLabel('Font size').inputValue(), '20');
  // Out of range is not taken.
  await dialog.getByLabel('Font size').fill('99');
  await dialog.getByLabel('Font size').press('Tab');
  assert.equal(await dialog.getByLabel('Font size').inputValue(), '20');
  // Escape closes the dialog and gives the keys back to the terminal.
  await a.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden', timeout: 5000 });
  await run(a, 'echo back-$((6*7))');
  await waitForLine(a, 'back-42');
  assertNoProblems(a);
});

async function page_expect_cols_change(page, before) {
  await waitFor(async () => {
    const n = await page.evaluate(() => document.querySelector('.xterm-accessibility-tree')?.children.length ?? 0);
    return n > 0 && n < before.rows;
  }, { what: 'fewer rows at the bigger font' });
}

test('settings: the light theme reaches the page and the terminal palette; the renderer switches', { timeout: 120000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser, { width: 1280, height: 800 });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await run(page, 'printf "\\033[31mred-text\\033[0m plain\\n"');
  await waitForLine(page, 'red-text plain');
  const dialog = await openSettings(page);
  await dialog.getByLabel('Theme').selectOption('light');
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === 'light', { what: 'data-theme=light' });
  const colours = await page.evaluate(() => ({
    body: getComputedStyle(document.body).backgroundColor,
    bar: getComputedStyle(document.getElementById('tabs')).backgroundColor,
    viewport: getComputedStyle(document.querySelector('#terminal .xterm-viewport')).backgroundColor,
    scheme: document.querySelector('meta[name="color-scheme"]').content,
  }));
  assert.equal(colours.body, 'rgb(255, 255, 255)', 'the page is light');
  assert.equal(colours.bar, 'rgb(241, 243, 246)', 'the bar is light');
  assert.equal(colours.viewport, 'rgb(255, 255, 255)', 'the terminal\'s background follows');
  assert.equal(colours.scheme, 'light');
  await shot(page, 'settings-light.png');

  // The renderer: DOM draws rows of spans; the choice is kept.
  await dialog.getByLabel('Renderer').selectOption('dom');
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.renderer)) === 'dom', { what: 'the DOM renderer' });
  assert.ok(await page.evaluate(() => document.querySelector('#terminal .xterm-rows') !== null), 'DOM rows drawn');
  // The DOM renderer draws the red with the light palette's red.
  const red = await page.evaluate(() => {
    for (const span of document.querySelectorAll('#terminal .xterm-rows span')) {
      if (span.textContent === 'red-text') return getComputedStyle(span).color;
    }
    return null;
  });
  assert.equal(red, 'rgb(196, 35, 47)', 'ANSI red from the light palette');
  await dialog.getByLabel('Renderer').selectOption('webgl');
  // Headless Chromium may have no WebGL: then the DOM stays and the page says so.
  const now = await waitFor(async () => page.evaluate(() => document.documentElement.dataset.renderer), { what: 'a renderer' });
  assert.ok(['webgl', 'dom'].includes(now));
  assert.match(await dialog.locator('#settings-renderer-now').textContent(), now === 'webgl' ? /WebGL/ : /DOM/);
  await dialog.getByLabel('Renderer').selectOption('dom');
  await page.keyboard.press('Escape');
  await page.reload();
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === 'light', { what: 'light after reload' });
  assert.equal(await page.evaluate(() => document.documentElement.dataset.renderer), 'dom', 'the renderer kept');
  assertNoProblems(page);
});

test('settings: "follow the system" follows the browser\'s light/dark preference, live', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await page.emulateMedia({ colorScheme: 'dark' });
  await openAttached(page, daemon);
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
  const dialog = await openSettings(page);
  await dialog.getByLabel('Theme').selectOption('system');
  assert.equal(await theme(), 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await waitFor(async () => (await theme()) === 'light', { what: 'light with the system' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await waitFor(async () => (await theme()) === 'dark', { what: 'dark again with the system' });
  assertNoProblems(page);
});

test('settings: the operator\'s defaults from config.toml apply where the browser chose nothing; Reset returns to them', { timeout: 120000 }, async (t) => {
  const s = workspace(t, '[page]\nfont_size = 18\ntheme = "light"\ncursor_style = "bar"\n');
  const daemon = await ownDaemon(t, { args: ['--config', s.file, '--workspace', s.ws] });
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === 'light', { what: 'the operator\'s light theme' });
  let dialog = await openSettings(page);
  assert.equal(await dialog.getByLabel('Font size').inputValue(), '18');
  assert.equal(await dialog.getByLabel('Cursor', { exact: true }).inputValue(), 'bar');
  await dialog.getByLabel('Theme').selectOption('dark');
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark', { what: 'the person\'s dark theme' });
  await page.reload();
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark', { what: 'dark kept over the operator\'s light' });
  dialog = await openSettings(page);
  await dialog.getByRole('button', { name: 'Reset to defaults' }).click();
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === 'light', { what: 'back to the operator\'s light' });
  assert.equal(await dialog.getByLabel('Font size').inputValue(), '18');
  assertNoProblems(page);
});

test('launcher: name, prompt and environment reach the session; refusals stay by their field with the panel open', { timeout: 120000 }, async (t) => {
  const s = workspace(t, `
[agents.echoer]
argv = ["sh", "-c", "echo \\"PROMPT<$1> VAR<$WHARF_T_VAR> OTHER<$WHARF_T_OTHER>\\"; exec sh", "echoer"]
prompt = "argument"
`);
  const daemon = await ownDaemon(t, { args: ['--config', s.file, '--workspace', s.ws], cwd: s.ws });
  const page = await newWindow(t, browser, { width: 1280, height: 800 });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const chevron = page.getByRole('button', { name: 'Choose what to start' });
  await chevron.click();
  const panel = page.getByRole('dialog', { name: 'Start a session' });
  await panel.waitFor({ timeout: 5000 });
  await waitFor(async () => (await panel.getByRole('radio').count()) > 0, { what: 'the catalog in the panel' });
  await panel.locator('.launcher-entry[data-kind="agent"][data-name="echoer"]').click();

  // A directory that does not exist: the error is under the directory, the panel stays.
  const dir = panel.getByRole('combobox', { name: 'Directory' });
  await dir.fill('no/such/dir');
  await panel.getByLabel('Name').fill('my agent');
  await panel.getByLabel('First prompt').fill('hello there');
  await panel.getByLabel('Environment').fill('WHARF_T_VAR=v1');
  const tabsBefore = await tabNames(page);
  await panel.getByRole('button', { name: 'Start echoer' }).click();
  const dirError = panel.locator('#launcher-cwd-error');
  const shown = await waitFor(async () => page.evaluate(() => [...document.querySelectorAll('.launcher-error:not([hidden])')].map((e) => `${e.id}: ${e.textContent}`).join('; ') || null), { what: 'an error in the launcher' });
  assert.match(shown, /^launcher-cwd-error/, shown);
  assert.match(await dirError.textContent(), /no\/such\/dir|not an existing directory/);
  assert.equal(await dir.getAttribute('aria-invalid'), 'true');
  assert.equal(await dir.getAttribute('aria-describedby'), 'launcher-cwd-error');
  assert.ok(await panel.isVisible(), 'the panel stays open');
  assert.equal(await page.locator('#alerts .alert').count(), 0, 'no corner pill: the error is by its field');
  assert.ok(await page.locator('#status').isHidden(), 'nor in the status line');
  await shot(page, 'launcher-error.png');

  // Fixed directory; the dangerous variable is refused next, by the environment field.
  await dir.fill('apps/api');
  await panel.getByLabel('Environment').fill('WHARF_T_VAR=v1\nLD_PRELOAD=/tmp/evil.so');
  await panel.getByRole('button', { name: 'Start echoer' }).click();
  const envError = panel.locator('#launcher-env-error');
  await envError.waitFor({ timeout: 5000 });
  assert.match(await envError.textContent(), /LD_PRELOAD/);
  assert.ok(await dirError.isHidden(), 'the old error is gone');
  assert.ok(await panel.isVisible());
  // A line that is not KEY=VALUE is refused in the page, by the same field.
  await panel.getByLabel('Environment').fill('not a pair');
  await panel.getByRole('button', { name: 'Start echoer' }).click();
  await waitFor(async () => /KEY=VALUE/.test(await envError.textContent()), { what: 'the page\'s own env check' });
  assert.deepEqual(await tabNames(page), tabsBefore, 'no session was started by any refusal');

  // All good: the session starts with its name, prompt and variables; the panel closes.
  await panel.getByLabel('Environment').fill('WHARF_T_VAR=v1\n# a comment\nWHARF_T_OTHER=two words');
  await panel.getByRole('button', { name: 'Start echoer' }).click();
  await panel.waitFor({ state: 'hidden', timeout: 10000 });
  await waitFor(async () => (await selectedTab(page)) === 'my agent', { what: 'the named session attached' });
  await waitForLine(page, 'PROMPT<hello there> VAR<v1> OTHER<two words>');
  // The environment is the session's: the shell it runs sees it too.
  await waitForPrompt(page);
  await run(page, 'echo "env:$WHARF_T_VAR:$PWD"');
  await waitForLine(page, `env:v1:${join(s.ws, 'apps', 'api')}`);
  assertNoProblems(page);
});

test('errors that matter stay until dismissed; the shortcut overlay opens with ? outside the terminal only', { timeout: 120000 }, async (t) => {
  const daemon = await ownDaemon(t, { args: ['--max-sessions', '1'] });
  const page = await newWindow(t, browser, { width: 1280, height: 800 });
  await openAttached(page, daemon);
  await waitForPrompt(page);

  // A refused `+` (the session limit): an alert with a dismiss button, announced.
  await page.locator('#tabs').getByRole('button', { name: 'New session', exact: true }).click();
  const alert = page.locator('#alerts .alert');
  await alert.waitFor({ timeout: 5000 });
  assert.equal(await page.locator('#alerts').getAttribute('role'), 'alert');
  assert.match(await alert.textContent(), /limit|at most|sessions/i);
  assert.equal(await page.locator('#status').getAttribute('aria-live'), 'polite', 'transient notes are announced politely');
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await alert.waitFor({ state: 'detached', timeout: 5000 });

  // `?` typed in the terminal is the program's.
  await page.locator('#terminal').click();
  await run(page, 'echo "q?-$((1+1))"');
  await waitForLine(page, 'q?-2');
  assert.equal(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).isVisible(), false, 'not opened by typing in the terminal');

  // Outside the terminal (a button of the bar has the focus): `?` opens it.
  await page.locator('#tabs').getByRole('button', { name: 'Settings', exact: true }).focus();
  await page.keyboard.press('?');
  const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await overlay.waitFor({ timeout: 5000 });
  const text = await overlay.textContent();
  for (const binding of ['Alt+Shift+W', 'F2', 'Ctrl+Shift+C', 'Shift+Enter', 'Escape', 'Ctrl+F']) {
    assert.ok(text.includes(binding), `${binding} listed`);
  }
  await shot(page, 'shortcuts.png');
  await page.keyboard.press('Escape');
  await overlay.waitFor({ state: 'hidden', timeout: 5000 });
  // Ctrl+/ too; and from the settings' button.
  await page.locator('#tabs').getByRole('button', { name: 'Settings', exact: true }).focus();
  await page.keyboard.press('Control+/');
  await overlay.waitFor({ timeout: 5000 });
  await page.keyboard.press('Escape');
  await overlay.waitFor({ state: 'hidden', timeout: 5000 });
  const dialog = await openSettings(page);
  await dialog.getByRole('button', { name: 'Keyboard shortcuts…' }).click();
  await overlay.waitFor({ timeout: 5000 });
  await page.keyboard.press('Escape');
  await overlay.waitFor({ state: 'hidden', timeout: 5000 });
  // The keys are the terminal's again.
  await run(page, 'echo done-$((2+3))');
  await waitForLine(page, 'done-5');
  // The one refused request is the expected HTTP-less refusal; nothing else went wrong.
  assertNoProblems(page);
});

test('settings: Ctrl+F can be handed to the program; notifications ask the browser', { timeout: 120000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const dialog = await openSettings(page);
  await dialog.getByLabel('Ctrl+F searches the terminal').uncheck();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden', timeout: 5000 });
  // Ctrl+F now reaches the shell (readline: forward a char), and no search box opens.
  await page.keyboard.press('Control+f');
  assert.equal(await page.locator('.term-search:visible').count(), 0, 'no search box');
  await run(page, 'echo ctrl-f-$((4+4))');
  await waitForLine(page, 'ctrl-f-8');
  // Notifications: turning them on asks the browser; headless Chromium refuses, and the
  // setting stays off with a note saying why.
  await openSettings(page);
  await dialog.getByLabel(/Notify me/).check();
  await waitFor(async () => /refused|no notifications/.test(await dialog.locator('#settings-notify-note').textContent()), { what: 'the refusal said' });
  assert.equal(await dialog.getByLabel(/Notify me/).isChecked(), false);
  assertNoProblems(page);
});
