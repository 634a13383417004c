// The page in a real browser (Debian's chromium) against the real daemon. It types
// through the keyboard and reads the screen the way assistive technology does (xterm's
// accessibility tree): a command's output, the ended state and a fresh session after
// Enter, the DOM renderer taking over from a lost WebGL context, and no page at all
// without the key. Every wait has a deadline; nothing sleeps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startDaemon, waitFor } from '../support/daemon.mjs';

const artifactsDir = resolve(process.env.WHARF_ARTIFACTS_DIR
  ?? fileURLToPath(new URL('../../build/test-artifacts/', import.meta.url)));

let daemon;
let context;
let profileDir;

before(async () => {
  daemon = await startDaemon();
  profileDir = mkdtempSync(join(tmpdir(), 'wharf-chromium-'));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1000, height: 640 },
  });
});

after(async () => {
  try {
    await context?.close();
  } finally {
    if (daemon) {
      // A daemon that ignores SIGTERM must not hang the run; the test log says so.
      const killer = setTimeout(() => {
        console.error('wharf did not exit within 10 s of SIGTERM; killing it');
        daemon.child.kill('SIGKILL');
      }, 10000);
      await daemon.stop();
      clearTimeout(killer);
    }
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  }
});

// The screen as a screen reader sees it: one entry per terminal row.
function screenRows(page) {
  return page.$$eval('.xterm-accessibility-tree > div',
    (rows) => rows.map((row) => row.textContent.replace(/\u00a0/g, ' ').trimEnd()));
}

// Waits until some row reads exactly `line`; on timeout the error shows the screen.
async function waitForLine(page, line, what = `"${line}" on a line of its own`) {
  try {
    await waitFor(async () => (await screenRows(page)).some((row) => row.trim() === line), { timeout: 15000, what });
  } catch (err) {
    err.message += `\nscreen:\n${(await screenRows(page)).join('\n')}`;
    throw err;
  }
}

// Opens the page and waits until it is attached, as a person sees it: the terminal is
// there and the status line ("Connecting…") has gone.
async function openAttached(page) {
  const response = await page.goto(daemon.url);
  assert.equal(response.status(), 200);
  await page.locator('.xterm-accessibility-tree').waitFor({ timeout: 10000 });
  await waitFor(() => page.locator('#status').isHidden(), { what: 'the status line to clear once attached' });
}

function waitForPrompt(page) {
  return waitFor(async () => (await screenRows(page)).some((row) => row.trim() !== ''),
    { timeout: 15000, what: 'the shell prompt on screen' });
}

test('a shell answers keystrokes typed into the page', { timeout: 60000 }, async () => {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => { if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`); });
  try {
    await openAttached(page);
    await waitForPrompt(page); // a fresh session: its shell prints a prompt

    // No click first: the page itself must have put the focus in the terminal.
    await page.keyboard.type('echo hello-$((6*7))');
    await page.keyboard.press('Enter');
    // The echoed command line says hello-$((6*7)); only the shell's output is hello-42.
    await waitForLine(page, 'hello-42');

    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, 'shell.png') });

    assert.deepEqual(problems, [], 'the page logged errors (CSP violations, failed loads or exceptions)');
  } finally {
    await page.close();
  }
});

test('the page without its key is refused with 403 and shows no terminal', { timeout: 30000 }, async () => {
  const page = await context.newPage();
  try {
    for (const path of ['/', '/?k=not-the-key']) {
      const response = await page.goto(new URL(path, daemon.origin).href);
      assert.equal(response.status(), 403, `GET ${path}`);
      assert.equal(await page.locator('.xterm').count(), 0, `GET ${path} must not start a terminal`);
    }
  } finally {
    await page.close();
  }
});

test('after the program exits the page says so and Enter starts a new session', { timeout: 60000 }, async () => {
  const page = await context.newPage();
  try {
    await openAttached(page);
    await page.keyboard.type('exit');
    await page.keyboard.press('Enter');
    const status = page.getByRole('status');
    await waitFor(async () => /Session ended \(exit code 0\)\. Press Enter/.test(await status.textContent().catch(() => '')),
      { what: 'the status line to say the session ended' });

    // Enter on the ended page asks for a new session (the old one is gone).
    await page.keyboard.press('Enter');
    await waitFor(() => page.locator('#status').isHidden(), { what: 'the status line to clear on the new session' });
    await waitForPrompt(page);
    await page.keyboard.type('echo again-$((2+3))');
    await page.keyboard.press('Enter');
    await waitForLine(page, 'again-5');
  } finally {
    await page.close();
  }
});

test('when the WebGL context is lost the terminal goes on with the DOM renderer', { timeout: 60000 }, async (t) => {
  const page = await context.newPage();
  try {
    await openAttached(page);
    // What a GPU reset does to the page, simulated through the standard extension.
    const lost = await page.evaluate(() => {
      const gl = [...document.querySelectorAll('.xterm-screen canvas')]
        .map((canvas) => canvas.getContext('webgl2')).find(Boolean);
      gl?.getExtension('WEBGL_lose_context')?.loseContext();
      return Boolean(gl);
    });
    if (!lost) return t.skip('this browser gave the page no WebGL; the DOM renderer is already in use');
    // xterm.js waits a few seconds for a restore before it reports the loss.
    await page.locator('.xterm-rows').waitFor({ timeout: 15000 });
    await page.keyboard.type('echo dom-$((3*3))');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await page.locator('.xterm-rows > div').allTextContents())
      .some((row) => row.replace(/\u00a0/g, ' ').trim() === 'dom-9'), { timeout: 15000, what: 'dom-9 in the DOM-rendered rows' });
  } finally {
    await page.close();
  }
});
