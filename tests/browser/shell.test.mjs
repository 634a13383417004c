// The page in a real browser (Debian's chromium) against the real daemon, protocol 2.
// It types through the keyboard and reads the screen the way assistive technology does
// (xterm's accessibility tree). Covered: a command's output; no page without the key;
// the empty state after the last session exits and a new one from it; a reload that
// brings the same screen back from the server's snapshot; a second window that watches,
// is refused, takes over and leaves the first one watching; the tab bar (new, switch,
// rename, end); terminal queries answered once (by the server, never by the page); a
// daemon that goes away (reconnecting shown, and coming back starts no session); `wharf
// restart` (the page says so and comes back to the same tabs with no new key); the
// DOM renderer taking over from a lost WebGL context. Each test has its own daemon (so
// its sessions are its own) and its own browser context(s). Every wait has a deadline;
// nothing sleeps. The real agent TUIs in the page (opencode and Claude Code surviving a
// reload) are in agents.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startDaemon, waitFor, wharfBin, sanitizerOptions } from '../support/daemon.mjs';
import { newWindow as openWindow } from '../support/page.mjs';

const artifactsDir = resolve(process.env.WHARF_ARTIFACTS_DIR
  ?? fileURLToPath(new URL('../../build/test-artifacts/', import.meta.url)));
const WATCHING = 'Watching — another window drives this session. Take over (in the bar) to type here.';

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

// A daemon of the test's own, stopped when the test ends (a daemon that ignores SIGTERM
// must not hang the run; the test log says so).
async function ownDaemon(t) {
  const daemon = await startDaemon();
  t.after(async () => {
    const killer = setTimeout(() => {
      console.error('wharf did not exit within 10 s of SIGTERM; killing it');
      daemon.child.kill('SIGKILL');
    }, 10000);
    await daemon.stop();
    clearTimeout(killer);
  });
  return daemon;
}

// A second daemon on the port (and with the key) of one that stopped: what a page sees
// when its daemon is restarted. Its state dir is new, so it has no sessions.
// A new daemon on the old one's address and state directory (so the browser's pairing
// still opens it), stopped at the end of the test.
async function restartedDaemon(t, old) {
  const stateDir = old.stateDir;
  const child = spawn(wharfBin, ['serve', '--port', String(old.port), '--state-dir', stateDir], {
    cwd: stateDir,
    env: { ...sanitizerOptions(), PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, WHARF_KEY: old.key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((done) => child.on('exit', done));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  await waitFor(() => new Promise((done) => {
    if (child.stdout.readableLength || child.stdout.readableEnded) return done(true);
    child.stdout.once('readable', () => done(true));
    child.once('exit', () => done(true));
  }), { what: 'the restarted daemon to print its URL' });
  if (child.exitCode !== null) throw new Error(`the restarted daemon exited: ${stderr}`);
  return { child, exited };
}

// A fresh browser context (its own storage: another person's window), closed at the end,
// recording what the page logs as a problem (tests/support/page.mjs).
const newWindow = (t) => openWindow(t, browser);

function assertNoProblems(...pages) {
  assert.deepEqual(pages.flatMap((p) => p.problems), [],
    'the page logged errors (CSP violations, failed loads or exceptions)');
}

// The screen as a screen reader sees it: one entry per terminal row.
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

// Waits until some row reads exactly `line`; on timeout the error shows the screen.
function waitForLine(page, line, what = `"${line}" on a line of its own`) {
  return withScreen(page, waitFor(async () => (await screenRows(page)).some((row) => row.trim() === line),
    { timeout: 15000, what }));
}

async function hasLine(page, line) {
  return (await screenRows(page)).some((row) => row.trim() === line);
}

function tabNames(page) {
  return page.getByRole('tab').allTextContents();
}

async function selectedTab(page) {
  return page.locator('[role="tab"][aria-selected="true"]').textContent({ timeout: 1000 }).catch(() => null);
}

// Opens the page and waits until it is attached, as a person sees it: the terminal is
// there, the status line ("Connecting…") has gone and a tab is highlighted.
async function openAttached(page, daemon) {
  const response = await page.goto(daemon.url);
  assert.equal(response.status(), 200);
  await waitUntilAttached(page);
}

async function waitUntilAttached(page) {
  await page.locator('.xterm-accessibility-tree').waitFor({ timeout: 10000 });
  await waitFor(() => page.locator('#status').isHidden(), { what: 'the status line to clear once attached' });
  await waitFor(async () => (await selectedTab(page)) !== null, { what: 'a highlighted tab' });
}

function waitForPrompt(page) {
  return withScreen(page, waitFor(async () => (await screenRows(page)).some((row) => row.trim() !== ''),
    { timeout: 15000, what: 'the shell prompt on screen' }));
}

async function run(page, command) {
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
}

function screenshot(page, name) {
  return page.screenshot({ path: join(artifactsDir, name) });
}

test('a shell answers keystrokes typed into the page', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t);
  await openAttached(page, daemon);
  await waitForPrompt(page); // a fresh session: its shell prints a prompt

  // No click first: the page itself must have put the focus in the terminal.
  await run(page, 'echo hello-$((6*7))');
  // The echoed command line says hello-$((6*7)); only the shell's output is hello-42.
  await waitForLine(page, 'hello-42');
  assert.equal((await tabNames(page)).length, 1, 'opening the URL started exactly one session');
  await screenshot(page, 'shell.png');
  assertNoProblems(page);
});

test('the page without its key is refused with 403 and shows no terminal', { timeout: 30000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t);
  for (const path of ['/', '/?k=not-the-key']) {
    const response = await page.goto(new URL(path, daemon.origin).href);
    assert.equal(response.status(), 403, `GET ${path}`);
    assert.equal(await page.locator('.xterm').count(), 0, `GET ${path} must not start a terminal`);
  }
});

test('after the last session exits the page says so and offers a new session', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const name = await selectedTab(page);
  await run(page, 'exit');

  const empty = page.locator('#empty');
  await waitFor(() => empty.isVisible(), { what: 'the empty state once the only session exited' });
  assert.match(await empty.textContent(), new RegExp(`${escape(name)} ended \\(exit code 0\\)`));
  assert.match(await empty.textContent(), /No sessions are running/);
  await waitFor(async () => (await tabNames(page)).length === 0, { what: 'no tab left' });
  await screenshot(page, 'empty.png');

  // Typing into the dead screen sends nothing; Enter (or the button) starts a session.
  await empty.getByRole('button', { name: 'New session' }).click();
  await waitFor(async () => !(await empty.isVisible()), { what: 'the empty state to go away' });
  await waitUntilAttached(page);
  await waitForPrompt(page);
  await run(page, 'echo again-$((2+3))');
  await waitForLine(page, 'again-5');
  assert.equal((await tabNames(page)).length, 1);
  assertNoProblems(page);
});

test('a reload shows the same screen, brought back by the server', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await run(page, 'printf "\\033[1;33mmarker\\033[0m-%s\\n" $((9*9))');
  await waitForLine(page, 'marker-81');
  const tabsBefore = await tabNames(page);
  const before = await screenRows(page);

  await page.reload();
  await waitUntilAttached(page);
  // Nothing typed: the snapshot alone repaints the screen as it was.
  await waitForLine(page, 'marker-81');
  await withScreen(page, waitFor(async () => JSON.stringify(await screenRows(page)) === JSON.stringify(before),
    { what: 'the visible rows to be the same as before the reload' }));
  assert.deepEqual(await tabNames(page), tabsBefore, 'the reload landed on the same session and started none');
  // The same session goes on: typing still works after the reload.
  await run(page, 'echo after-$((8*8))');
  await waitForLine(page, 'after-64');
  await screenshot(page, 'reload.png');
  assertNoProblems(page);
});

test('a second window watches, takes over, and the first one then watches', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const first = await newWindow(t);
  const second = await newWindow(t);
  await openAttached(first, daemon);
  await waitForPrompt(first);
  await run(first, 'echo one-$((1+1))');
  await waitForLine(first, 'one-2');

  // Another browser (no stored session) lands on the most recent session: as a watcher.
  await openAttached(second, daemon);
  await waitForLine(second, 'one-2');
  assert.deepEqual(await tabNames(second), await tabNames(first), 'both windows see the same one session');
  const secondBar = second.locator('#tabs .tab-watcher');
  await waitFor(() => secondBar.isVisible(), { what: 'the second window\'s bar to say it watches' });

  // The watcher types: refused by the server, and the page says why.
  await second.keyboard.type('x');
  const secondNotice = second.locator('#notice');
  await waitFor(() => secondNotice.isVisible(), { what: 'the watcher notice after refused input' });
  assert.equal((await secondNotice.textContent()).trim(), WATCHING);
  await screenshot(second, 'watcher-refused.png');

  // Take over: the second drives, the first is told and watches.
  await second.getByRole('button', { name: 'Take over this session' }).click();
  await waitFor(async () => !(await secondBar.isVisible()), { what: 'the second window to drive' });
  await waitFor(() => first.locator('#tabs .tab-watcher').isVisible(), { what: 'the first window to watch' });
  await waitFor(() => first.locator('#notice').isVisible(), { what: 'the first window to be told it lost the session' });
  assert.equal(await first.locator('.tab.current .tab-driven').count(), 1, 'the first window marks the tab as driven elsewhere');

  // The refused "x" never reached the shell: this command runs as typed.
  await run(second, 'echo two-$((2+2))');
  await waitForLine(second, 'two-4');
  await waitForLine(first, 'two-4');

  // Now the first window's keystrokes are refused.
  const firstNotice = first.locator('#notice');
  await firstNotice.waitFor({ state: 'hidden', timeout: 15000 }); // the take-over notice times out
  await first.keyboard.type('y');
  await waitFor(() => firstNotice.isVisible(), { what: 'the first window\'s notice after refused input' });
  assert.equal((await firstNotice.textContent()).trim(), WATCHING);
  await run(second, 'echo three-$((3*3))');
  await waitForLine(first, 'three-9'); // not "ythree-9" or a failed command

  // Same size, same session: the same screen text in both windows.
  const same = await waitFor(async () => {
    const [a, b] = [await screenRows(first), await screenRows(second)];
    return JSON.stringify(a) === JSON.stringify(b);
  }, { what: 'both windows to show the same rows' }).catch(() => false);
  assert.ok(same, `screens differ:\n--- first\n${(await screenRows(first)).join('\n')}\n--- second\n${(await screenRows(second)).join('\n')}`);
  await screenshot(first, 'watcher.png');
  await screenshot(second, 'driver.png');

  // The window that lost it can take it back.
  await first.getByRole('button', { name: 'Take over this session' }).click();
  await waitFor(() => second.locator('#tabs .tab-watcher').isVisible(), { what: 'the second window to watch again' });
  await run(first, 'echo four-$((2*2))');
  await waitForLine(second, 'four-4');
  assertNoProblems(first, second);
});

test('the tab bar starts, switches, renames and ends sessions', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await run(page, 'echo first-$((4+4))');
  await waitForLine(page, 'first-8');
  const [firstName] = await tabNames(page);

  // "+" starts a second session and attaches to it.
  await page.locator('#tabs').getByRole('button', { name: 'New session' }).click();
  await waitFor(async () => (await tabNames(page)).length === 2, { what: 'two tabs' });
  const names = await tabNames(page);
  assert.equal(new Set(names).size, 2, `two distinct names: ${names}`);
  const secondName = names.find((n) => n !== firstName);
  await waitFor(async () => (await selectedTab(page)) === secondName, { what: 'the new tab to be highlighted' });
  await withScreen(page, waitFor(async () => !(await hasLine(page, 'first-8')),
    { what: 'the new session to show its own screen' }));
  await waitForPrompt(page);
  await run(page, 'echo second-$((4*4))');
  await waitForLine(page, 'second-16');

  // Back to the first tab: its screen comes back.
  await page.getByRole('tab', { name: firstName }).click();
  await waitFor(async () => (await selectedTab(page)) === firstName, { what: 'the first tab highlighted' });
  await waitForLine(page, 'first-8');
  assert.equal(await hasLine(page, 'second-16'), false, 'the first session\'s screen only');
  // Focus stayed in the terminal: typing right away reaches the first session.
  await run(page, 'echo back-$((5+5))');
  await waitForLine(page, 'back-10');
  await screenshot(page, 'tabs.png');

  // Double-click renames (the server sends the new list back).
  await page.getByRole('tab', { name: secondName }).dblclick();
  const field = page.getByRole('textbox', { name: `Rename ${secondName}` });
  await field.fill('work');
  await field.press('Enter');
  await waitFor(async () => (await tabNames(page)).includes('work'), { what: 'the renamed tab' });

  // × on the current tab asks (a small confirm naming it), then ends it and lands on
  // the other session.
  await page.getByRole('button', { name: `End ${firstName}` }).click();
  const question = page.getByRole('alertdialog', { name: `End ${firstName}?` });
  await question.waitFor({ timeout: 5000 });
  await question.getByRole('button', { name: 'End session' }).click();
  await waitFor(async () => (await tabNames(page)).length === 1, { what: 'one tab left' });
  await waitFor(async () => (await selectedTab(page)) === 'work', { what: 'the remaining session to be attached' });
  await waitForLine(page, 'second-16');
  await run(page, 'echo landed-$((6+6))');
  await waitForLine(page, 'landed-12');
  await screenshot(page, 'tabs-after-end.png');
  assertNoProblems(page);
});

test('terminal queries are answered once, by the server, never by the page', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  // The shell asks what xterm.js would answer too (cursor position, device attributes
  // 1 and 2, device status, a DEC mode, the background colour), waits, then reads every
  // reply that came in and prints them base64-encoded, folded, between "replies=" and
  // ".". One reply per query means the server answered and the page's emulator kept
  // quiet. (min 0 time 10: the read returns what has arrived, or nothing after 1 s.)
  await run(page, 'stty -echo -icanon min 0 time 10; '
    + 'printf "\\033[6n\\033[c\\033[>c\\033[5n\\033[?2004\\$p\\033]11;?\\033\\\\"; sleep 1; '
    + 'r=$(dd bs=4096 count=1 2>/dev/null | base64 -w0); stty sane; echo "replies=$r." | fold -w 60');
  const replies = await withScreen(page, waitFor(async () => {
    const rows = (await screenRows(page)).map((row) => row.trim());
    const at = rows.findIndex((row) => row.startsWith('replies='));
    const end = rows.findIndex((row, i) => i >= at && row.endsWith('.'));
    if (at < 0 || end < 0) return null;
    return Buffer.from(rows.slice(at, end + 1).join('').slice('replies='.length, -1), 'base64').toString('latin1');
  }, { timeout: 15000, what: 'the replies the shell read' }));
  const count = (re) => (replies.match(re) ?? []).length;
  const shown = JSON.stringify(replies);
  assert.equal(count(/\x1b\[\d+;\d+R/g), 1, `one cursor position report in ${shown}`);
  assert.equal(count(/\x1b\[\?[\d;]*c/g), 1, `one primary device attributes reply in ${shown}`);
  assert.equal(count(/\x1b\[>[\d;]*c/g), 1, `one secondary device attributes reply in ${shown}`);
  assert.equal(count(/\x1b\[0n/g), 1, `one device status reply in ${shown}`);
  assert.equal(count(/\x1b\[\?2004;\d\$y/g), 1, `one DECRQM reply in ${shown}`);
  assert.equal(count(/\x1b\]11;rgb:/g), 1, `one background colour reply in ${shown}`);
  assertNoProblems(page);
});

test('a dropped daemon shows reconnecting; coming back never starts a session', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t);
  await openAttached(page, daemon);
  await waitForPrompt(page);

  // Stopped (which ends its sessions) but its state kept for the next run.
  daemon.child.kill('SIGTERM');
  await daemon.exited;
  const line = page.getByRole('status');
  const curtain = page.locator('#curtain');
  // A daemon that says `stopping` first gets "stopped"; one that just vanishes, "gone".
  await waitFor(async () => await curtain.isVisible() && ['gone', 'stopped'].includes(await curtain.getAttribute('data-reason')),
    { what: 'the curtain saying the daemon has stopped or is gone' });
  await screenshot(page, 'reconnecting.png');

  // A new daemon on the same address: the page comes back by itself, finds no session
  // and starts none (only opening the URL may start one).
  const again = await restartedDaemon(t, daemon);
  const empty = page.locator('#empty');
  await waitFor(() => empty.isVisible(), { timeout: 20000, what: 'the empty state after reconnecting' });
  assert.match(await empty.textContent(), /No sessions are running/);
  assert.equal(await line.isHidden(), true, 'no status line left over');
  assert.equal(await curtain.isHidden(), true, 'the curtain went away');
  assert.equal((await tabNames(page)).length, 0, 'reconnecting started no session');

  await page.keyboard.press('Enter'); // as the panel says
  await waitUntilAttached(page);
  await waitForPrompt(page);
  await run(page, 'echo back-$((7*6))');
  await waitForLine(page, 'back-42');
  // What the browser logged while the daemon was gone is expected here.
  assert.deepEqual(page.problems.filter((p) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(p)), []);
  again.child.kill('SIGTERM');
  await again.exited;
});

test('wharf restart: the page says wharf is restarting and comes back to the same tabs and screens, with no new key', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await run(page, 'echo before-$((6*7))');
  await waitForLine(page, 'before-42');
  const tabsBefore = await tabNames(page);

  const curtain = page.locator('#curtain');
  const restarted = runWharfRestart(daemon);
  await waitFor(async () => await curtain.isVisible() && await curtain.getAttribute('data-reason') === 'restarting',
    { what: 'the curtain saying wharf is restarting' });
  assert.match(await curtain.textContent(), /sessions keep running/i);
  await screenshot(page, 'restarting.png');
  const r = await restarted;
  assert.equal(r.code, 0, r.stderr);

  // Back by itself, on the same URL and key: the same tab, the same screen, typing works.
  await waitFor(() => curtain.isHidden(), { timeout: 20000, what: 'the curtain to lift' });
  await waitUntilAttached(page);
  assert.deepEqual(await tabNames(page), tabsBefore, 'the same tabs');
  await waitForLine(page, 'before-42');
  await run(page, 'echo after-$((7*7))');
  await waitForLine(page, 'after-49');
  assert.deepEqual(page.problems.filter((p) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(p)), []);
});

test('kill -9 of the daemon: the page waits, and the next daemon brings back the same tab and screen with the same link', { timeout: 90000 }, async (t) => {
  const first = await startDaemon({ key: null });
  const page = await newWindow(t);
  await openAttached(page, first);
  await waitForPrompt(page);
  await run(page, 'echo crash-$((5*9))');
  await waitForLine(page, 'crash-45');
  const tabsBefore = await tabNames(page);

  first.child.kill('SIGKILL');
  await first.exited;
  const curtain = page.locator('#curtain');
  await waitFor(async () => await curtain.isVisible() && await curtain.getAttribute('data-reason') === 'gone',
    { timeout: 15000, what: 'the curtain saying wharf is not answering' });
  assert.notEqual(await curtain.getAttribute('data-reason'), 'key', 'never "expired" for a crash');

  // The next daemon, on the same state dir and port, no key given: it keeps the old one.
  const second = await startDaemon({ key: null, stateDir: first.stateDir, port: first.port });
  t.after(() => second.stop());
  assert.equal(second.key, first.key);
  await waitFor(() => curtain.isHidden(), { timeout: 30000, what: 'the curtain to lift' });
  await waitUntilAttached(page);
  assert.deepEqual(await tabNames(page), tabsBefore, 'the same tab');
  await waitForLine(page, 'crash-45');
  await run(page, 'echo again-$((6*8))');
  await waitForLine(page, 'again-48');
  assert.deepEqual(page.problems.filter((p) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(p)), []);
});

function runWharfRestart(daemon) {
  return new Promise((done) => {
    const child = spawn(wharfBin, ['restart', '--state-dir', daemon.stateDir], {
      env: { ...sanitizerOptions(), PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

test('when the WebGL context is lost the terminal goes on with the DOM renderer', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t);
  await openAttached(page, daemon);
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
  await run(page, 'echo dom-$((3*3))');
  await waitFor(async () => (await page.locator('.xterm-rows > div').allTextContents())
    .some((row) => row.replace(/\u00a0/g, ' ').trim() === 'dom-9'), { timeout: 15000, what: 'dom-9 in the DOM-rendered rows' });
  assertNoProblems(page);
});

function escape(text) {
  return String(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
