// Shared pieces of the page's browser tests: Debian's chromium through playwright-core, a
// daemon of each test's own, a fresh context per window (its own storage: another
// person's window) that records every problem the page logs, the screen read the way a
// screen reader reads it, and waits with deadlines; nothing sleeps. The tab bar's own
// pieces are in bar_page.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startDaemon, waitFor } from './daemon.mjs';

export const artifactsDir = resolve(process.env.WHARF_ARTIFACTS_DIR
  ?? fileURLToPath(new URL('../../build/test-artifacts/', import.meta.url)));

export async function launchBrowser() {
  mkdirSync(artifactsDir, { recursive: true });
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      // The chime plays without a click first, as it does in a tab someone has used.
      '--autoplay-policy=no-user-gesture-required'],
  });
}

// A daemon of the test's own, stopped when the test ends.
export async function ownDaemon(t, options) {
  const daemon = await startDaemon(options);
  t.after(async () => {
    const killer = setTimeout(() => daemon.child.kill('SIGKILL'), 10000);
    await daemon.stop();
    clearTimeout(killer);
  });
  return daemon;
}

// A fresh browser context, closed at the end; errors the page logs are collected.
// `hasTouch` gives it a touch screen (a phone's or a tablet's); `isMobile` a phone's
// browser (the viewport meta tag applies, as on a phone).
export async function newWindow(t, browser, { clipboard = false, origin, width = 1000, height = 640, hasTouch = false, deviceScaleFactor = 1, isMobile = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, hasTouch, deviceScaleFactor, isMobile });
  if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
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
  assert.deepEqual(pages.flatMap((p) => p.problems), [], 'the page logged errors (CSP violations, failed loads or exceptions)');
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

export function waitForLine(page, line, { timeout = 15000, what } = {}) {
  return withScreen(page, waitFor(async () => (await screenRows(page)).some((row) => row.trim() === line),
    { timeout, what: what ?? `"${line}" on a line of its own` }));
}

// Resolves with the first row matching `pattern` (its match), waiting for it.
export function waitForMatch(page, pattern, { timeout = 15000, what } = {}) {
  return withScreen(page, waitFor(async () => {
    for (const row of await screenRows(page)) {
      const m = row.trim().match(pattern);
      if (m) return m;
    }
    return null;
  }, { timeout, what: what ?? `a line matching ${pattern}` }));
}

export async function waitUntilAttached(page) {
  await page.locator('.xterm-accessibility-tree').waitFor({ timeout: 10000 });
  await waitFor(() => page.locator('#status').isHidden(), { what: 'the status line to clear once attached' });
  await waitFor(async () => (await page.locator('[role="tab"][aria-selected="true"]').count()) === 1, { what: 'a highlighted tab' });
}

export async function openAttached(page, daemon) {
  const response = await page.goto(daemon.url);
  assert.equal(response.status(), 200);
  await waitUntilAttached(page);
}

export function waitForPrompt(page) {
  return withScreen(page, waitFor(async () => (await screenRows(page)).some((row) => /[$#] ?$/.test(row)),
    { timeout: 15000, what: 'the shell prompt on screen' }));
}

export async function run(page, command) {
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
}

export function screenshot(page, name) {
  return page.screenshot({ path: join(artifactsDir, name) });
}

// A real PNG (a small coloured square), as bytes.
export function tinyPng(size = 8) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) raw.set([0x61, 0xaf, 0xef], y * (size * 3 + 1) + 1 + x * 3);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

// The terminal's size as the shell sees it (`stty size`), typed at a prompt.
export async function terminalSize(page) {
  await run(page, 'stty size');
  const m = await waitForMatch(page, /^(\d+) (\d+)$/, { what: 'the output of stty size' });
  return { rows: Number(m[1]), cols: Number(m[2]) };
}

// The centre of a cell of the visible screen in page coordinates, to point at it.
export async function cellCenter(page, { cols }, row, col) {
  return page.evaluate(([r, c, columns]) => {
    const screen = document.querySelector('#terminal .xterm-screen').getBoundingClientRect();
    const rows = document.querySelectorAll('.xterm-accessibility-tree > div').length;
    const cellW = screen.width / columns;
    const cellH = screen.height / rows;
    return { x: screen.left + (c + 0.5) * cellW, y: screen.top + (r + 0.5) * cellH };
  }, [row, col, cols]);
}

// How many pixels of a screenshot (PNG) are bright, as a person would see text on the
// dark terminal: the browser itself decodes it, in a page of its own.
export async function brightPixels(browser, png) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    return await page.evaluate(async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const g = canvas.getContext('2d');
      g.drawImage(image, 0, 0);
      const { data: px } = g.getImageData(0, 0, image.width, image.height);
      let bright = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i] + px[i + 1] + px[i + 2] > 450) bright++;
      return bright;
    }, png.toString('base64'));
  } finally {
    await context.close();
  }
}
