// The page's honest states in a real browser against the real daemon: the curtain falls
// (after its 3 s grace) when the daemon is gone and when the URL's key is spent, but not
// for a socket that drops for a second; the power button asks, names every session and
// stops the daemon. Each test has its own daemon; every wait has a deadline (the only
// wait on the clock is the one that proves the grace held).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt, waitForLine,
  run, tabNames, screenshot, newSession, waitFor, restartDaemon,
} from '../support/bar_page.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

// What a page logs while its daemon is away is expected in these tests.
const expectedWhileDown = /WebSocket|status of 40[13]|ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE|api\/status|HTTP 40[13]|\/ws\?/;
const unexpected = (page) => page.problems.filter((p) => !expectedWhileDown.test(p));

// Records, inside the page, every moment the curtain was up.
function watchCurtain(page) {
  return page.evaluate(() => {
    const curtain = document.getElementById('curtain');
    window.curtainSeen = !curtain.hidden;
    new MutationObserver(() => { if (!curtain.hidden) window.curtainSeen = true; })
      .observe(curtain, { attributes: true });
  });
}

const curtainReason = (page) => page.evaluate(() => {
  const curtain = document.getElementById('curtain');
  return curtain.hidden ? null : curtain.dataset.reason;
});

test('a socket that drops for a second heals without the curtain', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  // Every socket of the page goes through the test, which can cut it and refuse
  // reconnections for a while, as a network blip would.
  let blackoutUntil = 0;
  const sockets = [];
  await page.routeWebSocket(/\/ws\?/, (ws) => {
    if (performance.now() < blackoutUntil) { ws.close({ code: 1006 }); return; }
    ws.connectToServer();
    sockets.push(ws);
  });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await run(page, 'echo before-$((1+1))');
  await waitForLine(page, 'before-2');
  await watchCurtain(page);

  const dropAt = performance.now();
  blackoutUntil = dropAt + 1000;
  sockets.at(-1).close({ code: 1006 });
  // Inert at once: the bar takes no clicks while there is no daemon to answer them.
  await waitFor(() => page.evaluate(() => document.body.classList.contains('inert')), { timeout: 1000, what: 'the page to go inert' });
  // Back by itself with backoff, well within the grace.
  await waitFor(() => page.evaluate(() => !document.body.classList.contains('inert')), { timeout: 8000, what: 'the page to come back' });
  const healedAfter = performance.now() - dropAt;
  // Prove the grace held: wait until it would have run out, then ask whether the curtain ever showed.
  await waitFor(() => performance.now() - dropAt > 3800, { timeout: 6000, what: 'the 3 s grace to pass' });
  assert.equal(await page.evaluate(() => window.curtainSeen), false, `no curtain for a blip (healed after ${healedAfter} ms)`);
  await run(page, 'echo after-$((2+2))');
  await waitForLine(page, 'after-4');
  assert.equal(unexpected(page).length, 0, unexpected(page).join('\n'));
});

test('the curtain says when the daemon is gone, and lifts when it is back', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  // Killed: the daemon goes without a word (a stopped one says `stopping` first).
  const stoppedAt = performance.now();
  daemon.child.kill('SIGKILL');
  await daemon.exited;
  await waitFor(() => page.evaluate(() => document.body.classList.contains('inert')), { what: 'the page to go inert' });
  await waitFor(async () => (await curtainReason(page)) === 'gone', { timeout: 15000, what: 'the curtain: daemon gone' });
  assert.ok(performance.now() - stoppedAt >= 2900, 'the curtain waited out its grace');
  assert.match(await page.locator('#curtain').textContent(), /not answering/);
  await screenshot(page, 'curtain-gone.png');

  // The same state: this browser's pairing (its cookie) opens the new run, and the
  // session the killed daemon left running is back.
  const again = await restartDaemon(t, daemon, { stateDir: daemon.stateDir });
  await waitFor(async () => (await curtainReason(page)) === null, { timeout: 20000, what: 'the curtain to lift' });
  await waitForPrompt(page);
  await screenshot(page, 'state-back-after-restart.png');
  assert.equal(unexpected(page).length, 0, unexpected(page).join('\n'));
  // Stopped here, ending the session, before the first daemon's cleanup empties the state.
  again.child.kill('SIGTERM');
  await again.exited;
});

test('a daemon that no longer knows this browser: the curtain says how to pair again', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await daemon.stop();
  // Another state directory and key: neither the address (its key was traded for a
  // cookie) nor the cookie opens it.
  await restartDaemon(t, daemon, { key: randomBytes(16).toString('hex') });
  await waitFor(async () => (await curtainReason(page)) === 'device', { timeout: 20000, what: 'the curtain: not paired' });
  const text = await page.locator('#curtain').textContent();
  assert.match(text, /wharf pair/);
  assert.match(text, /wharf open/);
  assert.equal(await page.getByRole('alertdialog').count(), 1, 'one curtain');
  await screenshot(page, 'curtain-key-spent.png');
  assert.equal(unexpected(page).length, 0, unexpected(page).join('\n'));
});

test('the power button asks, names every session, and stops the daemon', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await newSession(page);
  const names = await tabNames(page);
  const power = page.locator('#tabs').getByRole('button', { name: 'Stop wharf', exact: true });

  await power.click();
  const question = page.getByRole('alertdialog', { name: 'Stop wharf?' });
  await question.waitFor({ timeout: 5000 });
  assert.deepEqual(await question.locator('li').allTextContents(), names, 'every session that will end is named');
  await screenshot(page, 'power-confirm.png');
  await question.getByRole('button', { name: 'Cancel' }).click();
  await question.waitFor({ state: 'detached', timeout: 5000 });
  assert.equal(daemon.child.exitCode, null, 'Cancel stops nothing');

  await power.click();
  await page.getByRole('alertdialog', { name: 'Stop wharf?' }).getByRole('button', { name: 'Stop wharf' }).click();
  const outcome = await waitFor(async () => {
    if (daemon.child.exitCode !== null || daemon.child.signalCode !== null) return 'stopped';
    const line = await page.locator('#status').textContent();
    return /cannot be stopped from the page|refused to stop/.test(line ?? "") ? "unsupported" : null;
  }, { timeout: 20000, what: 'the daemon to stop' });
  if (outcome === 'unsupported') {
    t.skip('this daemon has no POST /api/stop yet');
    return;
  }
  await waitFor(async () => ['stopping', 'stopped'].includes(await curtainReason(page)), { what: 'the curtain: stopping/stopped' });
  await waitFor(async () => (await curtainReason(page)) === 'stopped', { timeout: 10000, what: 'the curtain: stopped' });
  await screenshot(page, 'curtain-stopped.png');
  assert.equal(unexpected(page).length, 0, unexpected(page).join('\n'));
});

test('`stopping` shows a wait at once, and the closing socket turns it into stopped', { timeout: 60000 }, async (t) => {
  const daemon = await ownDaemon(t);
  const page = await newWindow(t, browser);
  // The daemon's frames pass through the test, which can add a `stopping` and close the
  // socket the way a stopping daemon does, whatever this daemon's own stop path is.
  let route = null;
  let refuse = false;
  await page.routeWebSocket(/\/ws\?/, (ws) => {
    if (refuse) { ws.close({ code: 1006 }); return; }
    ws.connectToServer();
    route = ws;
  });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await watchCurtain(page);
  route.send(JSON.stringify({ type: 'stopping' }));
  await waitFor(async () => (await curtainReason(page)) === 'stopping', { timeout: 2000, what: 'the stopping curtain at once' });
  assert.match(await page.locator('#curtain').textContent(), /stopping/);
  await screenshot(page, 'curtain-stopping.png');
  refuse = true;
  await daemon.stop();
  route.close({ code: 1000 });
  await waitFor(async () => (await curtainReason(page)) === 'stopped', { timeout: 10000, what: 'the stopped curtain' });
  assert.match(await page.locator('#curtain').textContent(), /wharf has stopped/);
  await screenshot(page, 'curtain-stopped.png');
  assert.equal(unexpected(page).length, 0, unexpected(page).join('\n'));
});
