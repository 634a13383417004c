// The tab bar's pieces for its browser tests (page_bar, page_states, page_activity): the
// tabs as a person reads them, starting a session from the bar, and a daemon restarted
// on the same port. Everything else they share with the other page tests (page.mjs),
// re-exported here so that each test imports from one place.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor, wharfBin, sanitizerOptions } from './daemon.mjs';
import { waitForPrompt } from './page.mjs';

export {
  artifactsDir, launchBrowser, ownDaemon, newWindow, assertNoProblems, screenRows, withScreen,
  waitForLine, waitUntilAttached, openAttached, waitForPrompt, run, screenshot,
} from './page.mjs';

export function tabNames(page) {
  return page.getByRole('tab').allTextContents();
}

export async function selectedTab(page) {
  return page.locator('[role="tab"][aria-selected="true"]').textContent({ timeout: 1000 }).catch(() => null);
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
// A new daemon on the old one's port: with a fresh state directory (the default: it knows
// no paired browser) or, given `stateDir`, the old one's (its devices and sessions).
export async function restartDaemon(t, old, { key = old.key, stateDir: keptStateDir } = {}) {
  const stateDir = keptStateDir ?? mkdtempSync(join(tmpdir(), 'wharf-test-'));
  const child = spawn(wharfBin, ['serve', '--port', String(old.port), '--state-dir', stateDir], {
    cwd: stateDir,
    env: { ...sanitizerOptions(), PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, WHARF_KEY: key, XDG_CONFIG_HOME: join(stateDir, 'config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((done) => child.on('exit', done));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    if (!keptStateDir) rmSync(stateDir, { recursive: true, force: true });
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
