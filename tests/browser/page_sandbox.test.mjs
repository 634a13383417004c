// Sandboxes on the page, in a real browser against a real daemon whose config puts every
// session in a sandbox (docs/page.md, "Sandboxes and decisions"):
// - the launcher says what the chosen entry may do, its "Run in a sandbox" toggle starts
//   at the entry's setting, and `sandbox` goes out in `new` only when the person changed
//   it (and then the session really runs without one); a sandboxed tab carries a lock
//   and says it in its tooltip, and the status strip says it too;
// - a guarded `git push` inside a sandboxed shell becomes a card over the terminal (what,
//   the exact command, the session, its directory, when it expires), a count on the tab
//   when another session is on screen; Deny with a note keeps the remote untouched,
//   Approve (from a phone) pushes, and the card goes in every window.
// Screenshots at 1280×800 and at a phone's 390×844 (touch, DPR 3) go to the artifacts
// and to /tmp/h/shots15 for a person to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt, run, screenRows,
  screenshot, waitFor, artifactsDir, selectedTab, tabNames, waitForLine,
} from '../support/bar_page.mjs';
import { runWharf } from '../support/ws_client.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const PHONE = { width: 390, height: 844, hasTouch: true, isMobile: true, deviceScaleFactor: 3 };

async function keepShot(page, name) {
  await screenshot(page, name);
  try { mkdirSync('/tmp/h/shots15', { recursive: true }); copyFileSync(join(artifactsDir, name), join('/tmp/h/shots15', name)); } catch { /* only for a person looking */ }
}

// Whether this build launches sandboxes at all (the lead's wiring): `wharf new` takes
// --sandbox. Without it there is nothing real to show, and the tests say so.
async function sandboxWired() {
  const help = await runWharf(['new', '--help']);
  return /--sandbox\b/.test(help.stdout + help.stderr);
}

// A workspace of the test's own and a config that puts every session in a sandbox, with
// one action whose declaration the daemon refuses (it asks to write /etc).
function sandboxedDaemon(t) {
  const root = mkdtempSync(join(tmpdir(), 'wharf-sandbox-page-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const config = join(root, 'config.toml');
  writeFileSync(config, ['[server]', `workspace = "${root}"`, '[sessions]', 'sandbox = true',
    '[actions.outside]', 'argv = ["/bin/sh"]', 'interactive = true', '[actions.outside.filesystem]', 'writable = ["/etc"]', ''].join('\n'));
  return { root, start: () => ownDaemon(t, { args: ['--config', config], cwd: root }) };
}

// Every `new` message this page sends, parsed.
function recordNew(page) {
  const sent = [];
  page.on('websocket', (ws) => ws.on('framesent', ({ payload }) => {
    if (typeof payload !== 'string' || !payload.includes('"new"')) return;
    try { const msg = JSON.parse(payload); if (msg.type === 'new') sent.push(msg); } catch { /* not JSON */ }
  }));
  return sent;
}

const currentTab = (page) => page.locator('#tabs .tab.current');
const stripText = (page) => page.locator('#status-strip .strip-line').textContent();

async function sessionsJson(daemon) {
  const out = await runWharf(['ls', '--json', '--state-dir', daemon.stateDir]);
  assert.equal(out.code, 0, out.stderr);
  const parsed = JSON.parse(out.stdout);
  return Array.isArray(parsed) ? parsed : parsed.sessions;
}

// Starts what the launcher has chosen, optionally flipping its sandbox toggle first, and
// waits for the new tab.
async function launch(page, { flip = false, shot } = {}) {
  const before = await tabNames(page);
  await page.locator('#tabs .tab-chevron').click();
  const caps = page.locator('.launcher-caps');
  await caps.waitFor();
  await page.locator('.launcher-entry[data-kind="shell"][data-name="bash"]').click();
  if (flip) await page.getByRole('checkbox', { name: 'Run in a sandbox' }).click();
  if (shot) await keepShot(page, shot);
  await page.locator('.launcher-buttons .primary').click();
  await waitFor(async () => (await tabNames(page)).length === before.length + 1, { what: 'the new tab' });
  const name = (await tabNames(page)).find((n) => !before.includes(n));
  await waitFor(async () => (await selectedTab(page)) === name, { what: 'the new tab on screen' });
  await waitForPrompt(page);
  return name;
}

test('the launcher, the tab and the strip say what a session may do; the toggle starts one without a sandbox', { timeout: 150000 }, async (t) => {
  if (!await sandboxWired()) { t.skip('this build launches no sandboxes yet (wharf new has no --sandbox)'); return; }
  const { root, start } = sandboxedDaemon(t);
  const daemon = await start();
  const page = await newWindow(t, browser, { width: 1280, height: 800 });
  const sent = recordNew(page);
  await openAttached(page, daemon);
  await waitForPrompt(page);

  // The first session runs in a sandbox, and the daemon says what it may write.
  const [first] = await sessionsJson(daemon);
  assert.equal(first.capabilities?.sandboxed, true, JSON.stringify(first));
  assert.ok(first.capabilities.writable.some((p) => p.startsWith(root)), JSON.stringify(first.capabilities));
  await run(page, 'echo "sandbox=[$WHARF_SANDBOX]"');
  await waitForLine(page, 'sandbox=[1]');

  // The tab: a lock with a name, and the same line in the tooltip.
  const lock = currentTab(page).getByRole('img', { name: 'sandboxed' });
  await lock.waitFor();
  const title = await currentTab(page).locator('[role="tab"]').getAttribute('title');
  assert.match(title, /\nSandbox · writes: \S.* · (no network|network: .+)\n/);
  assert.match(await currentTab(page).locator('[role="tab"]').getAttribute('aria-description'), /in a sandbox/);
  // The strip: first, in the same words.
  await waitFor(async () => /^sandbox: writes \S.*, (no network|network .+) · /.test(await stripText(page)),
    { what: 'the strip saying sandbox' });
  await page.locator('#tabs .tab.current [role="tab"]').hover();
  await keepShot(page, 'sandbox_tab_strip_desktop.png');

  // The launcher: the entry's line, the toggle on; started untouched, `new` has no
  // `sandbox` and the session is sandboxed as the config says.
  await page.locator('#tabs .tab-chevron').click();
  const line = page.locator('.launcher-caps-line');
  await waitFor(async () => /^Sandbox · writes: /.test(await line.textContent()), { what: 'the launcher\'s sandbox line' });
  const toggle = page.getByRole('checkbox', { name: 'Run in a sandbox' });
  assert.equal(await toggle.isChecked(), true);
  assert.equal(await toggle.getAttribute('aria-describedby'), 'launcher-caps-line');
  await keepShot(page, 'sandbox_launcher_desktop.png');
  await page.keyboard.press('Escape');
  const second = await launch(page);
  assert.equal(sent.at(-1).entry, 'bash');
  assert.equal('sandbox' in sent.at(-1), false, JSON.stringify(sent.at(-1)));
  await currentTab(page).getByRole('img', { name: 'sandboxed' }).waitFor();

  // Turned off: the warning line, `sandbox: false` goes out, and the session runs free.
  await page.locator('#tabs .tab-chevron').click();
  await page.getByRole('checkbox', { name: 'Run in a sandbox' }).click();
  assert.equal(await page.locator('.launcher-caps-line').textContent(), 'No sandbox: full access to your files and network');
  assert.equal(await page.locator('.launcher-caps').getAttribute('data-sandboxed'), 'false');
  await keepShot(page, 'sandbox_launcher_off_desktop.png');
  // Another entry puts the toggle back to that entry's own setting.
  await page.locator('.launcher-entry[data-kind="shell"][data-name="sh"]').click();
  assert.equal(await page.getByRole('checkbox', { name: 'Run in a sandbox' }).isChecked(), true);
  // An entry whose declaration the daemon refuses says why, and offers no toggle.
  await page.locator('.launcher-entry[data-kind="action"][data-name="outside"]').click();
  assert.match(await page.locator('.launcher-caps-why').textContent(), /\/etc is outside what wharf lets an entry declare/);
  assert.equal(await page.getByRole('checkbox', { name: 'Run in a sandbox' }).isVisible(), false);
  await keepShot(page, 'sandbox_launcher_refused_desktop.png');
  await page.locator('.launcher-entry[data-kind="shell"][data-name="bash"]').click();
  assert.equal(await page.locator('.launcher-caps-why').isVisible(), false);
  await page.keyboard.press('Escape');
  const third = await launch(page, { flip: true });
  assert.equal(sent.at(-1).sandbox, false, JSON.stringify(sent.at(-1)));
  assert.equal(await currentTab(page).locator('.tab-sandbox').count(), 0);
  assert.match(await currentTab(page).locator('[role="tab"]').getAttribute('title'), /\nNo sandbox: full access to your files and network\n/);
  await run(page, 'echo "sandbox=[$WHARF_SANDBOX]"');
  await waitForLine(page, 'sandbox=[]');
  await waitFor(async () => / · no sandbox$/.test(await stripText(page)), { what: 'the strip saying no sandbox' });
  const listed = await sessionsJson(daemon);
  assert.deepEqual(listed.map((s) => [s.name, s.capabilities?.sandboxed]),
    [[first.name, true], [second, true], [third, false]]);
  assertNoProblems(page);

  // A phone: the strip, the picker's marks, the launcher.
  const phone = await newWindow(t, browser, PHONE);
  await phone.goto(`${daemon.url}#session=${first.id}`);
  await waitFor(async () => (await selectedTab(phone)) === first.name, { what: 'the phone on the first session' });
  await waitFor(async () => /^sandbox: writes/.test(await stripText(phone)), { what: 'the phone\'s strip' });
  // A phone's strip keeps the word and the lock in sight, the details left to the rest.
  assert.equal(await phone.locator('#status-strip .strip-detail').isVisible(), false);
  const word = await phone.locator('#status-strip .strip-part[data-kind="sandbox"]').boundingBox();
  assert.ok(word && word.x + word.width <= 390, `the strip's sandbox word on screen: ${JSON.stringify(word)}`);
  await keepShot(phone, 'sandbox_strip_phone.png');
  await phone.locator('#tabs .tab-picker').tap();
  const rows = phone.locator('.picker-item');
  await waitFor(async () => (await rows.count()) === 3, { what: 'three rows in the picker' });
  assert.deepEqual(await phone.locator('.picker-item .picker-sandbox').allTextContents(), ['sandbox', 'sandbox', 'no sandbox']);
  await keepShot(phone, 'sandbox_picker_phone.png');
  await phone.getByRole('button', { name: 'Choose what to start' }).last().tap();
  await phone.locator('.launcher-caps').waitFor();
  const box = await phone.locator('.launcher').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `the launcher fits the phone's width: ${JSON.stringify(box)}`);
  await keepShot(phone, 'sandbox_launcher_phone.png');
  assertNoProblems(phone);
});

// A work repository with one commit and a bare one as its `origin`, inside the workspace
// (what a sandboxed shell may write).
function repos(root) {
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: root };
  const remote = join(root, 'remote.git');
  const work = join(root, 'work');
  execFileSync('git', ['init', '-q', '--bare', remote], { env });
  execFileSync('git', ['init', '-q', '-b', 'main', work], { env });
  writeFileSync(join(work, 'README'), 'hello\n');
  execFileSync('git', ['-C', work, 'add', 'README'], { env });
  execFileSync('git', ['-C', work, 'commit', '-q', '-m', 'first'], { env });
  execFileSync('git', ['-C', work, 'remote', 'add', 'origin', remote], { env });
  const head = execFileSync('git', ['-C', work, 'rev-parse', 'HEAD'], { env }).toString().trim();
  const remoteMain = () => {
    try { return execFileSync('git', ['--git-dir', remote, 'rev-parse', '--verify', '-q', 'refs/heads/main'], { env, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim(); } catch { return null; }
  };
  return { work, head, remoteMain };
}

const card = (page) => page.getByRole('region', { name: /decision/i });

test('a guarded git push is a card: Deny with a note keeps the remote, Approve from a phone pushes', { timeout: 180000 }, async (t) => {
  if (!await sandboxWired()) { t.skip('this build launches no sandboxes yet (wharf new has no --sandbox)'); return; }
  const { root, start } = sandboxedDaemon(t);
  const daemon = await start();
  const { work, head, remoteMain } = repos(root);
  const page = await newWindow(t, browser, { width: 1280, height: 800 });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  const shell = await selectedTab(page);
  await run(page, 'test -S "$WHARF_CHANNEL" && echo "channel=[yes]" || echo "channel=[no]"');
  const channel = await waitFor(async () => {
    const rows = (await screenRows(page)).map((r) => r.trim());
    return rows.includes('channel=[yes]') ? 'yes' : rows.includes('channel=[no]') ? 'no' : null;
  }, { what: 'whether the session has its channel' });
  if (channel !== 'yes') { t.skip('sandboxed sessions have no WHARF_CHANNEL yet: no guards to decide'); return; }

  await run(page, `cd ${work} && git push origin main`);
  await card(page).waitFor({ timeout: 15000 });
  const decision = page.locator('.decisions .decision');
  await waitFor(async () => (await decision.count()) === 1, { what: 'one decision on the card' });
  assert.equal(await decision.locator('.decision-what').textContent(), 'git push');
  assert.equal(await decision.locator('.decision-command').textContent(), 'git push origin main');
  assert.match(await decision.locator('.decision-where').textContent(), new RegExp(`^${shell} in \\S*work$`));
  assert.match(await decision.locator('.decision-expiry').textContent(), /^expires in \d+ (s|min)$/);
  // Over the terminal, not over all of it; the terminal keeps the keyboard.
  const cardBox = await card(page).boundingBox();
  const termBox = await page.locator('#terminal').boundingBox();
  assert.ok(cardBox.height < termBox.height * 0.8 && cardBox.width < termBox.width / 2, JSON.stringify({ cardBox, termBox }));
  assert.equal(await page.evaluate(() => document.activeElement?.closest('#decisions') === null), true);
  await keepShot(page, 'decision_card_desktop.png');

  // Deny, with a note: the card goes, the push fails with the note, the remote has nothing.
  await decision.getByRole('textbox').fill('not before the review');
  await decision.getByRole('button', { name: 'Deny' }).click();
  await card(page).waitFor({ state: 'hidden' });
  await waitFor(async () => (await screenRows(page)).some((r) => r.includes('not before the review')), { what: 'the note in the session' });
  assert.equal(remoteMain(), null);

  // Another push while a second session is on screen: a count on the first one's tab and
  // a line on the card with Show.
  await run(page, 'git push origin main');
  await card(page).waitFor();
  await page.locator('#tabs').getByRole('button', { name: 'New session', exact: true }).click();
  await waitFor(async () => (await tabNames(page)).length === 2 && (await selectedTab(page)) !== shell, { what: 'the second session on screen' });
  const shellTab = page.locator('#tabs .tab', { has: page.getByRole('tab', { name: shell, exact: true }) });
  await waitFor(async () => (await shellTab.locator('.tab-decisions').textContent().catch(() => '')) === '1', { what: 'a count on the first tab' });
  assert.match(await shellTab.locator('[role="tab"]').getAttribute('aria-description'), /1 decision waiting/);
  await waitFor(async () => (await page.locator('.decisions-other').textContent().catch(() => '')).startsWith(`git push waits in ${shell}`),
    { what: 'the other session\'s line on the card' });
  assert.equal(await page.locator('.decisions .decision').count(), 0);
  await keepShot(page, 'decision_other_tab_desktop.png');

  // A phone answers it: the card fits its screen, Approve pushes, every window's card goes.
  const ids = await sessionsJson(daemon);
  const phone = await newWindow(t, browser, PHONE);
  await phone.goto(`${daemon.url}#session=${ids.find((s) => s.name === shell).id}`);
  await waitFor(async () => (await selectedTab(phone)) === shell, { what: 'the phone on the pushing session' });
  await card(phone).waitFor();
  const box = await card(phone).boundingBox();
  const composerTop = await phone.evaluate(() => document.getElementById('composer').getBoundingClientRect().top);
  assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.y + box.height <= composerTop, `the card fits the phone: ${JSON.stringify({ box, composerTop })}`);
  const approve = phone.locator('.decisions .decision').getByRole('button', { name: 'Approve' });
  const approveBox = await approve.boundingBox();
  assert.ok(approveBox.height >= 38, `a finger-sized Approve: ${JSON.stringify(approveBox)}`);
  await keepShot(phone, 'decision_card_phone.png');
  await approve.tap();
  await card(phone).waitFor({ state: 'hidden' });
  await waitFor(() => remoteMain() === head, { timeout: 15000, what: 'the push to reach the remote' });
  await card(page).waitFor({ state: 'hidden' });
  assert.equal(await shellTab.locator('.tab-decisions').count(), 0);
  assertNoProblems(page, phone);
});
