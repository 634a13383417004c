// The status strip in a real browser against the real daemon (docs/page.md, "The status
// strip"): a bash session's directory and last command's exit status appear under the
// terminal, which ends where the strip starts; a session that reports nothing has no
// strip; switching tabs shows each session's own; an agent's numbers (Claude Code's
// status line, from a recorded payload) join them. Screenshots in both themes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt, run,
  screenshot, waitFor, artifactsDir, selectedTab, tabNames,
} from '../support/bar_page.mjs';
import { wharfBin } from '../support/daemon.mjs';
import { runWharf } from '../support/ws_client.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const PAYLOAD = {
  model: { id: 'claude-opus-4-5', display_name: 'Opus 4.5' }, version: '2.1.197',
  cost: { total_cost_usd: 0.3127 }, effort: { level: 'high' },
  context_window: { total_input_tokens: 84211, context_window_size: 200000, used_percentage: 42.1 },
  rate_limits: { five_hour: { used_percentage: 12.5, resets_at: 1767312000 } },
};

const strip = (page) => page.evaluate(() => {
  const el = document.getElementById('status-strip');
  const term = document.getElementById('terminal').getBoundingClientRect();
  const box = el.getBoundingClientRect();
  return { hidden: el.hidden, text: el.querySelector('.strip-line')?.textContent ?? '', role: el.getAttribute('role'),
    top: box.top, bottom: box.bottom, terminalBottom: term.bottom, viewport: window.innerHeight };
});

async function newShell(daemon, shell) {
  const made = await runWharf(['new', '--shell', shell, '--state-dir', daemon.stateDir]);
  assert.equal(made.code, 0, made.stderr);
}

async function keepShot(page, name) {
  await screenshot(page, name);
  try { mkdirSync('/tmp/h/shots', { recursive: true }); copyFileSync(join(artifactsDir, name), join('/tmp/h/shots', name)); } catch { /* only for a person looking */ }
}

test('the strip shows a shell\'s directory and exit status, hides for a session with nothing, and follows the tab', { timeout: 90000 }, async (t) => {
  const daemon = await ownDaemon(t);
  await newShell(daemon, 'bash');
  const page = await newWindow(t, browser, { width: 1280, height: 800 });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const bashTab = await selectedTab(page);

  await run(page, 'cd /tmp; false');
  await waitFor(async () => { const s = await strip(page); return !s.hidden && /\/tmp/.test(s.text) && /exit 1/.test(s.text); },
    { timeout: 10000, what: 'the strip with /tmp and exit 1' });
  let s = await strip(page);
  assert.equal(s.role, 'status');
  // A daemon that shows capabilities ends the strip with "no sandbox" (page_sandbox tests it).
  assert.match(s.text, /^\/tmp · exit 1 · \d+ ms( · no sandbox)?$/);
  // Between the terminal and the composer: the terminal ends where the strip starts.
  await waitFor(async () => { const b = await strip(page); return Math.abs(b.terminalBottom - b.top) <= 1; },
    { timeout: 5000, what: 'the terminal to end at the strip' });

  // An agent's numbers, through the status line verb inside the session.
  const dir = mkdtempSync(join(tmpdir(), 'wharf-strip-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'p.json'), JSON.stringify(PAYLOAD));
  await run(page, `clear; '${wharfBin}' status-line --quiet < '${dir}/p.json'; ls /nonexistent-dir`);
  await waitFor(async () => /Opus 4\.5 \(high\) · context 42% \(84k of 200k\) · \$0\.31 · 5 h quota 13%/.test((await strip(page)).text),
    { timeout: 10000, what: 'the agent\'s numbers in the strip' });
  s = await strip(page);
  assert.match(s.text, /^\/tmp · exit 2 · /);
  await keepShot(page, 'status_strip.png');
  await page.evaluate(() => { document.documentElement.dataset.theme = 'light'; });
  await keepShot(page, 'status_strip_light.png');
  await page.evaluate(() => { delete document.documentElement.dataset.theme; });

  // A session that reports nothing: no strip, and the terminal takes the row back.
  await newShell(daemon, 'sh');
  await waitFor(async () => (await tabNames(page)).length === 2, { what: 'two tabs' });
  const shTab = (await tabNames(page)).find((n) => n !== bashTab);
  await page.getByRole('tab', { name: shTab }).click();
  await waitFor(async () => (await selectedTab(page)) === shTab, { what: 'the sh tab attached' });
  await waitFor(async () => (await strip(page)).hidden, { timeout: 5000, what: 'no strip for sh' });
  await run(page, 'cd /tmp; false');
  // Nothing sh does shows one (it prints no OSC 7 or 133): the strip stays hidden.
  await waitFor(async () => { const b = await strip(page); return Math.abs(b.terminalBottom - (b.viewport - (await page.evaluate(() => document.getElementById('composer').offsetHeight)))) <= 1; },
    { timeout: 5000, what: 'the terminal to reach the composer' });
  assert.equal((await strip(page)).hidden, true);
  await keepShot(page, 'status_strip_none.png');

  // Back to bash: its own status, at once.
  await page.getByRole('tab', { name: bashTab }).click();
  await waitFor(async () => { const b = await strip(page); return !b.hidden && /^\/tmp · exit 2/.test(b.text); },
    { timeout: 5000, what: 'bash\'s strip again' });
  assertNoProblems(page);
});
