// The page's side of notifications in a real Chromium against the real daemon: a
// `#session=ID` link (what a notification's Click carries) opens the page on that
// session and the hash leaves the address; on an open page a changed hash switches
// sessions; an unknown id lands where the page would land anyway. The page tells the
// daemon it is being looked at (`looking`), which holds back a notification for the
// session it shows (read from the daemon's log line for the event). Every wait has a
// deadline; nothing sleeps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, waitUntilAttached, screenshot,
} from '../support/page.mjs';
import { waitFor, wharfBin } from '../support/daemon.mjs';
import { openWs, runWharf } from '../support/ws_client.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const selectedSession = (page) => page.evaluate(() => {
  const tab = document.querySelector('[role="tab"][aria-selected="true"]')?.closest('.tab');
  return tab ? Number(tab.dataset.session) : null;
});

// Two sessions started over the protocol; the page has never been on either.
async function twoSessions(t, daemon) {
  const ws = await openWs(daemon);
  t.after(() => ws.close());
  const first = await ws.attach({ start: true });
  const second = await ws.newSession({});
  return [first.session, second.session];
}

test('#session=ID opens the page on that session and leaves the address clean; a new hash switches', async (t) => {
  const daemon = await ownDaemon(t);
  const [first, second] = await twoSessions(t, daemon);
  // One window per session, so that one of them is not where the page lands anyway.
  let page;
  for (const id of [second, first]) {
    page = await newWindow(t, browser);
    await page.goto(`${daemon.url}#session=${id}`);
    await waitUntilAttached(page);
    await waitFor(async () => (await selectedSession(page)) === id, { what: `session ${id} selected` });
    assert.equal(new URL(page.url()).hash, '', 'the hash is cleared');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.deepLink), String(id));
  }
  await screenshot(page, 'notify-deep-link.png');

  await page.evaluate((id) => { location.hash = `session=${id}`; }, second);
  await waitFor(async () => (await selectedSession(page)) === second, { what: `session ${second} selected after the hash changed` });
  await waitFor(async () => new URL(page.url()).hash === '', { what: 'the hash cleared again' });

  // An id nobody runs: the page stays where it is.
  await page.evaluate(() => { location.hash = 'session=999'; });
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.deepLink)) === '999', { what: 'the link was read' });
  assert.equal(await selectedSession(page), second);
  assertNoProblems(page);
});

test('a link to a session that has ended lands on one that runs', async (t) => {
  const daemon = await ownDaemon(t);
  const [first] = await twoSessions(t, daemon);
  const page = await newWindow(t, browser);
  await page.goto(`${daemon.url}#session=424242`);
  await waitUntilAttached(page);
  assert.ok(Number.isInteger(await selectedSession(page)) && (await selectedSession(page)) >= first);
  assert.equal(new URL(page.url()).hash, '');
  assertNoProblems(page);
});

test('the page that shows a session holds back its notifications; hidden, it does not', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wharf-notify-page-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'config.toml');
  // A command channel that does nothing: the daemon's log says what was decided.
  writeFileSync(file, `[notifications]\ncommand = ["${process.execPath}", "-e", ""]\ndebounce = 0\n`);
  const daemon = await ownDaemon(t, { args: ['--config', file] });
  const page = await newWindow(t, browser);
  await page.goto(daemon.url);
  await waitUntilAttached(page);
  const id = await selectedSession(page);
  // The settings say what this daemon sends away from the page (/api/status).
  await waitFor(async () => (await page.locator('#settings-delivery-note').textContent()) !== '', { what: 'the delivery note' });
  assert.equal(await page.locator('#settings-delivery-note').textContent(),
    'Away from the page this daemon also notifies through a command (every event; without links (no public_url)).');
  await page.locator('.xterm-screen').click();
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.looking)) === 'true', { what: 'the page says it is looked at' });
  const lines = () => [...daemon.stderr.matchAll(new RegExp(`session ${id} is waiting \\(its own word\\): notification (.*)`, 'g'))].map((m) => m[1]);
  await page.keyboard.type(`'${wharfBin}' notify waiting`);
  await page.keyboard.press('Enter');
  await waitFor(() => lines().length === 1, { what: `the event in the log:\n${daemon.stderr}` });
  assert.equal(lines()[0], 'held back: looked_at');

  // The tab goes to the background (another page of the same browser in front).
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.looking)) === 'false', { what: 'the page says nobody looks' });
  // From outside the session this time (an agent's MCP call or a script does the same).
  const marked = await runWharf(['notify', 'waiting', '-t', String(id), '--state-dir', daemon.stateDir]);
  assert.equal(marked.code, 0, marked.stderr);
  await waitFor(() => lines().length === 2, { what: `the second event in the log:\n${daemon.stderr}` });
  assert.equal(lines()[1], 'sent to command, webpush');
  assertNoProblems(page);
});

test('in a background tab the chime shows a browser notification that says "waiting"; a click comes back to the session', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wharf-notify-page-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'config.toml');
  writeFileSync(file, '[page]\nnotifications = true\n');
  const daemon = await ownDaemon(t, { args: ['--config', file] });
  const page = await newWindow(t, browser);
  // The Notification API as a browser with permission granted has it, recorded.
  await page.addInitScript(() => {
    window.__notes = [];
    window.Notification = class {
      static permission = 'granted';
      static requestPermission() { return Promise.resolve('granted'); }
      constructor(title, options) { this.title = title; this.body = options?.body; this.tag = options?.tag; window.__notes.push(this); }
      close() { this.closed = true; }
    };
  });
  await page.goto(daemon.url);
  await waitUntilAttached(page);
  const id = await selectedSession(page);
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const marked = await runWharf(['notify', 'waiting', '-t', String(id), '--state-dir', daemon.stateDir]);
  assert.equal(marked.code, 0, marked.stderr);
  // The chime comes once nobody has looked for ten seconds (core/activity.hpp).
  await waitFor(async () => (await page.evaluate(() => window.__notes.length)) === 1, { timeout: 20000, what: 'a browser notification' });
  const note = await page.evaluate(() => ({ title: window.__notes[0].title, body: window.__notes[0].body, tag: window.__notes[0].tag }));
  assert.match(note.title, / is waiting for you$/);
  assert.equal(note.tag, `wharf-${id}`);
  await page.evaluate(() => window.__notes[0].onclick());
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.deepLink)) === String(id), { what: 'the click went to the session' });
  assert.equal(await page.evaluate(() => window.__notes[0].closed), true);
  assertNoProblems(page);
});
