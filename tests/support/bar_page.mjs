// Shared pieces of the tab-bar tests (page_bar, page_states, page_activity): Debian's
// chromium through playwright-core, a daemon of each test's own, windows that record
// every problem the page logs, and reading the terminal as a screen reader does. Every
// wait has a deadline; nothing sleeps.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startDaemon, waitFor, wharfBin, sanitizerOptions } from './daemon.mjs';

export const artifactsDir = resolve(process.env.WHARF_ARTIFACTS_DIR
  ?? fileURLToPath(new URL('../../build/test-artifacts/', import.meta.url)));

export async function launchBrowser() {
  mkdirSync(artifactsDir, { recursive: true });
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--autoplay-policy=no-user-gesture-required'],
  });
}

// A daemon of the test's own, stopped when the test ends.
export async function ownDaemon(t, options = {}) {
  const daemon = await startDaemon(options);
  t.after(async () => {
    const killer = setTimeout(() => daemon.child.kill('SIGKILL'), 10000);
    await daemon.stop();
    clearTimeout(killer);
  });
  return daemon;
}

// A fresh browser context (its own storage: another person's window), closed at the end.
export async function newWindow(browser, t, { width = 1000, height = 640 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  t.after(() => context.close());
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') page.problems.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => page.problems.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) => page.problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => { if (res.status() >= 400) page.problems.push(`HTTP ${res.status()}: ${res.url()}`); });
  return page;
}

export function assertNoProblems(...pages) {
  assert.deepEqual(pages.flatMap((p) => p.problems), [],
    'the page logged errors (CSP violations, failed loads or exceptions)');
}

export function screenRows(page) {
  return page.$$eval('.xterm-accessibility-tree > div',
    (rows) => rows.map((row) => row.textContent.replace(/\u00a0/g, ' ').trimEnd()));
}

export async function withScreen(page, promise) {
  try {
    return await promise;
  } catch (err) {
    err.message += `\nscreen:\n${(await screenRows(page).catch(() => [])).join('\n')}`;
    throw err;
  }
}

export function waitForLine(page, line, what = `"${line}" on a line of its own`) {
  return withScreen(page, waitFor(async () => (await screenRows(page)).some((row) => row.trim() === line),
    { timeout: 15000, what }));
}

export function tabNames(page) {
  return page.getByRole('tab').allTextContents();
}

export async function selectedTab(page) {
  return page.locator('[role="tab"][aria-selected="true"]').textContent({ timeout: 1000 }).catch(() => null);
}

export async function openAttached(page, daemon) {
  const response = await page.goto(daemon.url);
  assert.equal(response.status(), 200);
  await waitUntilAttached(page);
}

export async function waitUntilAttached(page) {
  await page.locator('.xterm-accessibility-tree').waitFor({ timeout: 10000 });
  await waitFor(() => page.locator('#status').isHidden(), { what: 'the status line to clear once attached' });
  await waitFor(async () => (await selectedTab(page)) !== null, { what: 'a highlighted tab' });
}

export function waitForPrompt(page) {
  return withScreen(page, waitFor(async () => (await screenRows(page)).some((row) => row.trim() !== ''),
    { timeout: 15000, what: 'the shell prompt on screen' }));
}

export async function run(page, command) {
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
}

export function screenshot(page, name) {
  return page.screenshot({ path: join(artifactsDir, name) });
}

// Starts another session from the bar's `+` and waits until this window is on it.
export async function newSession(page) {
  const before = await tabNames(page);
  await page.locator('#tabs').getByRole('button', { name: 'New session', exact: true }).click();
  await waitFor(async () => (await tabNames(page)).length === before.length + 1, { what: `${before.length + 1} tabs` });
  const name = (await tabNames(page)).find((n) => !before.includes(n));
  await waitFor(async () => (await selectedTab(page)) === name, { what: 'the new tab to be attached' });
  await waitForPrompt(page);
  return name;
}

// A daemon on the port of one that stopped, as after a restart: the same key unless
// `key` says otherwise (a restart without WHARF_KEY pinned mints a new one).
export async function restartDaemon(t, old, { key = old.key } = {}) {
  const stateDir = mkdtempSync(join(tmpdir(), 'wharf-test-'));
  const child = spawn(wharfBin, ['serve', '--port', String(old.port), '--state-dir', stateDir], {
    cwd: stateDir,
    env: { ...sanitizerOptions(), PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, WHARF_KEY: key, XDG_CONFIG_HOME: join(stateDir, 'config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((done) => child.on('exit', done));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(stateDir, { recursive: true, force: true });
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  await new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the restarted daemon printed no URL: ${stderr}`)), 15000);
    child.stdout.once('data', () => { clearTimeout(timer); done(); });
    child.once('exit', () => { clearTimeout(timer); fail(new Error(`the restarted daemon exited: ${stderr}`)); });
  });
  return { child, exited };
}

export { waitFor };
