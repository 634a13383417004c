// The real agent TUIs in the page, in a real browser (Debian's chromium, as in
// shell.test.mjs): the daemon's default is the agent (`wharf serve --agent NAME`), so
// opening the URL starts it at the page's size. Each renders in the page, a screenshot is
// kept in WHARF_ARTIFACTS_DIR, and after a reload the server's snapshot brings back the
// same screen text, row for row, with no session started. opencode (1.18.33) on a machine
// where it never ran shows its home screen once its offline model list fetch gives up
// (10-25 s); Claude Code (2.1.197) is given the ~/.claude.json of a machine where it has
// been used (offline, a Claude that never ran exits at its connectivity check) and shows
// its main screen. Every wait has a deadline; nothing sleeps.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { waitFor } from '../support/daemon.mjs';
import { newWindow as openWindow } from '../support/page.mjs';
import { CLAUDE_MAIN_SCREEN, agentDaemon, agentSandbox, listSessions, prepareClaudeHome, requireAgents } from '../support/agents.mjs';

const artifactsDir = resolve(process.env.WHARF_ARTIFACTS_DIR
  ?? fileURLToPath(new URL('../../build/test-artifacts/', import.meta.url)));

let browser;

before(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  mkdirSync(artifactsDir, { recursive: true });
});

after(async () => {
  await browser?.close();
});

// A fresh browser context (its own storage: another person's window), closed at the end,
// recording what the page logs as a problem (tests/support/page.mjs).
const newWindow = (t) => openWindow(t, browser);

// The screen as a screen reader sees it (xterm's accessibility tree): one entry per row.
function screenRows(page) {
  return page.$$eval('.xterm-accessibility-tree > div',
    (rows) => rows.map((row) => row.textContent.replace(/\u00a0/g, ' ').trimEnd()));
}

async function withScreen(page, promise) {
  try {
    return await promise;
  } catch (err) {
    err.message += `\nscreen:\n${(await screenRows(page).catch(() => [])).join('\n')}`;
    throw err;
  }
}

function tabNames(page) {
  return page.getByRole('tab').allTextContents();
}

async function waitUntilAttached(page) {
  await page.locator('.xterm-accessibility-tree').waitFor({ timeout: 10000 });
  await waitFor(() => page.locator('#status').isHidden(), { what: 'the status line to clear once attached' });
  await waitFor(async () => (await page.locator('[role="tab"][aria-selected="true"]').count()) === 1, { what: 'a highlighted tab' });
}

// Waits until every text is on some row, then until the rows stop changing for `quiet` ms
// (an agent may still be drawing: a tip, a status line). Resolves with the settled rows.
async function settledScreen(page, texts, { timeout = 60000, quiet = 2500, what } = {}) {
  await withScreen(page, waitFor(async () => {
    const screen = (await screenRows(page)).join('\n');
    return texts.every((text) => screen.includes(text));
  }, { timeout, interval: 250, what: what ?? `${texts.join(' and ')} in the page` }));
  let rows = await screenRows(page);
  let since = performance.now();
  return withScreen(page, waitFor(async () => {
    const now = await screenRows(page);
    if (JSON.stringify(now) !== JSON.stringify(rows)) { rows = now; since = performance.now(); return null; }
    return performance.now() - since >= quiet ? rows : null;
  }, { timeout: 30000, interval: 250, what: 'the screen to stop changing' }));
}

// Opens the URL (which starts the daemon's default, the agent), waits for its screen,
// reloads, and checks that the same rows come back from the server's snapshot.
async function rendersAndSurvivesReload(t, d, page, { texts, name, timeout }) {
  const response = await page.goto(d.url);
  assert.equal(response.status(), 200);
  await waitUntilAttached(page);
  const before = await settledScreen(page, texts, { timeout });
  await page.screenshot({ path: join(artifactsDir, `${name}.png`) });
  const tabs = await tabNames(page);
  assert.equal(tabs.length, 1, 'opening the URL started exactly one session');
  const [session] = await listSessions(d);
  assert.equal(session.entry, name, `the session runs ${name}`);

  await page.reload();
  await waitUntilAttached(page);
  await withScreen(page, waitFor(async () => JSON.stringify(await screenRows(page)) === JSON.stringify(before),
    { timeout: 20000, interval: 250, what: 'the same rows as before the reload' }))
    .catch((e) => { e.message += `\n--- before the reload:\n${before.join('\n')}`; throw e; });
  await page.screenshot({ path: join(artifactsDir, `${name}-reload.png`) });
  assert.deepEqual(await tabNames(page), tabs, 'the reload landed on the same session and started none');
  const after = await listSessions(d);
  assert.equal(after.length, 1);
  assert.equal(after[0].id, session.id);
  assert.equal(after[0].pid, session.pid, 'the agent was not restarted');
  assert.deepEqual(page.problems, [], 'the page logged errors (CSP violations, failed loads or exceptions)');
}

describe('agent TUIs in the page', { concurrency: true }, () => {
  test('opencode renders in the page and a reload brings back the same screen', { timeout: 180000 }, async (t) => {
    requireAgents();
    const box = agentSandbox(t);
    const d = await agentDaemon(box, { args: ['--agent', 'opencode'] });
    const page = await newWindow(t);
    await rendersAndSurvivesReload(t, d, page, {
      name: 'opencode', texts: ['ctrl+p commands', 'Ask anything', box.workspace], timeout: 120000,
    });
  });

  test('Claude Code renders in the page and a reload brings back the same screen', { timeout: 120000 }, async (t) => {
    requireAgents();
    const box = agentSandbox(t);
    prepareClaudeHome(box.home, { trusted: [box.workspace] });
    const d = await agentDaemon(box, { args: ['--agent', 'claude'] });
    const page = await newWindow(t);
    await rendersAndSurvivesReload(t, d, page, {
      name: 'claude', texts: ['Claude Code', CLAUDE_MAIN_SCREEN, box.workspace], timeout: 60000,
    });
  });
});
