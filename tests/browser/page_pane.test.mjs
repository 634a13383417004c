// The web pane in a real browser (Debian's chromium) against the real daemon: a hostile
// page can reach nothing (the page around it, the key, the daemon's API, cookies, the
// network, a popup, top navigation), a feedback form's answers reach a file and one line
// in the session, and the layout: beside the terminal on a wide window (the terminal
// refits, the PTY follows this driving window), in place of it on a phone at a button's
// press (the terminal keeps its size). Each test has its own daemon; every wait has a
// deadline; nothing sleeps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  launchBrowser, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt, run,
  screenshot, screenRows, waitForMatch, artifactsDir,
} from '../support/page.mjs';
import { waitFor } from '../support/daemon.mjs';
import { httpGet } from '../support/ws_client.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

function api(d, method, path, body) {
  const headers = { 'X-Wharf-Key': d.key };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return httpGet(d, path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    .then((r) => ({ ...r, json: r.body ? JSON.parse(r.body) : null }));
}

async function onlySession(d) {
  const list = await api(d, 'GET', '/api/v1/sessions');
  assert.equal(list.json.sessions.length, 1, list.body);
  return list.json.sessions[0].id;
}

// Shots go to the artifacts and, for a person to look at, to /tmp/h/shots when it exists.
async function shot(page, name) {
  await screenshot(page, name);
  if (existsSync('/tmp/h/shots')) copyFileSync(join(artifactsDir, name), join('/tmp/h/shots', name));
}

// A server that counts every request: where a hostile page would send what it stole.
async function sink(t) {
  const hits = [];
  const server = http.createServer((req, res) => { hits.push(`${req.method} ${req.url}`); res.end('got it'); });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  return { url: `http://127.0.0.1:${server.address().port}`, hits };
}

// Everything a page might try; each outcome is written into the page as JSON for the
// test to read through the frame.
function hostilePage(sinkUrl, daemonOrigin) {
  return `<!doctype html><meta charset="utf-8"><title>hostile</title>
<body style="background:#300;color:#fcc;font:14px monospace"><h1>hostile page</h1><pre id="report">running</pre>
<script>
const r = {};
const attempt = async (name, fn) => { try { const v = await fn(); r[name] = 'ALLOWED ' + String(v).slice(0, 80); } catch (e) { r[name] = 'blocked'; } };
(async () => {
  await attempt('parent_document', () => parent.document.title);
  await attempt('parent_url', () => parent.location.href);
  await attempt('top_document', () => top.document.body.innerHTML.length);
  await attempt('cookie', () => document.cookie);
  await attempt('local_storage', () => localStorage.length);
  await attempt('fetch_api', () => fetch('${daemonOrigin}/api/v1/sessions').then((x) => x.status));
  await attempt('fetch_relative', () => fetch('/api/status').then((x) => x.status));
  await attempt('fetch_sink', () => fetch('${sinkUrl}/fetch').then((x) => x.status));
  await attempt('xhr_sink', () => new Promise((ok, no) => { const x = new XMLHttpRequest(); x.open('GET', '${sinkUrl}/xhr'); x.onload = () => ok(x.status); x.onerror = no; x.send(); }));
  await attempt('websocket', () => new Promise((ok, no) => { const w = new WebSocket('${daemonOrigin.replace('http', 'ws')}/ws'); w.onopen = () => ok('open'); w.onerror = no; }));
  await attempt('image_sink', () => new Promise((ok, no) => { const i = new Image(); i.onload = () => ok('loaded'); i.onerror = no; i.src = '${sinkUrl}/img'; }));
  await attempt('window_open', () => { const w = window.open('${sinkUrl}/popup'); if (!w) throw new Error('null'); return 'window'; });
  await attempt('top_navigation', () => { top.location = '${sinkUrl}/top'; return 'assigned'; });
  r.base_uri = document.baseURI;
  r.referrer = document.referrer;
  r.location = location.href;
  document.getElementById('report').textContent = JSON.stringify(r);
})();
</script></body>`;
}

test('a hostile pane reaches nothing: not the page, the key, the daemon, cookies, the network, a popup or the top window', { timeout: 120000 }, async (t) => {
  const d = await ownDaemon(t);
  const out = await sink(t);
  const page = await newWindow(t, browser, { width: 1280, height: 800 });
  await openAttached(page, d);
  await waitForPrompt(page);
  const id = await onlySession(d);
  const published = await api(d, 'POST', `/api/v1/sessions/${id}/pane`, { html: hostilePage(out.url, d.origin), title: 'Hostile' });
  assert.equal(published.status, 200, published.body);

  const frame = page.frameLocator('#pane iframe');
  const report = frame.locator('#report');
  await waitFor(async () => (await report.textContent().catch(() => 'running')) !== 'running', { timeout: 20000, what: 'the hostile page\'s report' });
  const r = JSON.parse(await report.textContent());
  for (const name of ['parent_document', 'parent_url', 'top_document', 'cookie', 'local_storage', 'fetch_api', 'fetch_relative',
    'fetch_sink', 'xhr_sink', 'websocket', 'image_sink', 'window_open']) {
    assert.equal(r[name], 'blocked', `${name}: ${r[name]}`);
  }
  // Neither what the page can read of itself nor its referrer holds the key.
  for (const name of ['base_uri', 'referrer', 'location']) assert.ok(!String(r[name]).includes(d.key), `${name}: ${r[name]}`);
  assert.equal(r.referrer, '');
  // The window is still wharf, at its own (key-less) address: the top navigation went nowhere.
  assert.equal(page.url(), `${new URL(d.url).origin}/`);
  await page.locator('#terminal .xterm').waitFor();

  // A form that is not a feedback form, posted elsewhere (its own policy's form-action
  // and the page's frame-src both refuse it), and a page that navigates itself away (the
  // page's frame-src keeps it in). Either would replace the document, so each has its own.
  // Each is refused with a report on the console; the next page waits for it.
  const refused = () => page.waitForEvent('console', {
    predicate: (m) => /frame-src|form-action/.test(m.text()), timeout: 10000,
  });
  let blocked = refused();
  const post = await api(d, 'POST', `/api/v1/sessions/${id}/pane`, {
    html: `<form id="f" action="${out.url}/form" method="post"><input name="loot" value="x"></form><script>document.getElementById('f').submit();</script>`,
  });
  assert.equal(post.status, 200);
  await blocked;
  blocked = refused();
  const nav = await api(d, 'POST', `/api/v1/sessions/${id}/pane`, {
    html: `<p id="p">leaving</p><script>location.href = '${out.url}/self';</script>`, title: 'Leaving',
  });
  assert.equal(nav.status, 200);
  await blocked;
  // The next page arrives after that attempt; by then nothing may have reached the sink.
  await api(d, 'POST', `/api/v1/sessions/${id}/pane`, { html: '<p id="calm">calm</p>', title: 'Calm' });
  await frame.locator('#calm').waitFor({ timeout: 10000 });
  assert.deepEqual(out.hits, [], 'nothing the pane did reached the network');
  // The daemon is still up and its sessions untouched.
  assert.equal((await api(d, 'GET', '/api/v1/sessions')).json.sessions.length, 1);
});

test('a feedback form: the answers reach a JSON file and one line in the session', { timeout: 120000 }, async (t) => {
  const d = await ownDaemon(t);
  const page = await newWindow(t, browser, { width: 1280, height: 800 });
  await openAttached(page, d);
  await waitForPrompt(page);
  const id = await onlySession(d);
  const html = `<!doctype html><meta charset="utf-8">
<body style="font:15px system-ui;background:#f6f8fa;color:#1f2328;padding:12px">
<h2>Which plan?</h2>
<form data-feedback>
  <label><input type="radio" name="plan" value="small"> Small change</label><br>
  <label><input type="radio" name="plan" value="rewrite"> Rewrite</label><br>
  <label><input type="checkbox" name="also" value="tests" checked> tests</label>
  <label><input type="checkbox" name="also" value="docs" checked> docs</label><br>
  <textarea name="text" rows="3" cols="30"></textarea><br>
  <button type="submit">Send</button>
</form>
<p id="result"></p><pre id="log"></pre>
<script>addEventListener('message', (e) => {
  if (!e.data || e.data.type !== 'wharf-feedback-result') return;
  const line = e.data.ok ? 'sent' : 'refused ' + e.data.message;
  document.getElementById('result').textContent = line;
  document.getElementById('log').textContent += line + ' | ';
});</script>
</body>`;
  const published = await api(d, 'POST', `/api/v1/sessions/${id}/pane`, { html, title: 'Which plan?' });
  assert.equal(published.status, 200, published.body);
  const frame = page.frameLocator('#pane iframe');
  await frame.getByLabel('Rewrite').check();
  await frame.locator('textarea').fill('do it "carefully"\nplease');
  await frame.getByRole('button', { name: 'Send' }).click();
  await frame.locator('#result').filter({ hasText: 'sent' }).waitFor({ timeout: 10000 }).catch(async (e) => {
    e.message += `\nthe page says: ${await frame.locator('#result').textContent()}; the pane: ${await page.locator('.pane-note').textContent()}`;
    throw e;
  });

  const dir = join(d.stateDir, 'pane', String(id), 'feedback');
  const file = await waitFor(() => existsSync(dir) && readdirSync(dir).find((f) => f.endsWith('.json')), { what: 'the feedback file' });
  const record = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  assert.deepEqual(record.fields, { plan: 'rewrite', also: ['tests', 'docs'], text: 'do it "carefully"\nplease' });
  assert.equal(record.title, 'Which plan?');
  // The line, as the session shows it (wrapped rows joined).
  await waitFor(async () => (await screenRows(page)).join('').includes(`[wharf pane: form "Which plan?" submitted; read ${join(dir, file)}]`),
    { timeout: 10000, what: 'the feedback line on the terminal' });
  await page.locator('.pane-note').filter({ hasText: 'Sent' }).waitFor();

  // Twice at once: one may go (a second has likely passed), the other is refused by the
  // rate, said in the pane and to the page.
  await frame.locator('form').evaluate((form) => { form.requestSubmit(); form.requestSubmit(); });
  await frame.locator('#log').filter({ hasText: 'refused too_soon' }).waitFor({ timeout: 10000 });
  await page.locator('.pane-note.error').filter({ hasText: 'once a second' }).waitFor();
  assertNoProblems(page);
});

test('wide: beside the terminal, which refits; phone: a button switches pane and terminal', { timeout: 120000 }, async (t) => {
  const d = await ownDaemon(t);
  const page = await newWindow(t, browser, { width: 1280, height: 800 });
  await openAttached(page, d);
  await waitForPrompt(page);
  const id = await onlySession(d);
  await run(page, 'echo size1 $(stty size)');
  const before = await waitForMatch(page, /^size1 (\d+) (\d+)$/);
  assert.equal(await page.locator('#pane').isHidden(), true, 'no page, no pane');
  assert.equal(await page.locator('.pane-toggle').isHidden(), true);

  const html = `<!doctype html><meta charset="utf-8"><body style="margin:0;font:14px system-ui;background:#0e1116;color:#d6dae0">
<div style="padding:14px"><h2 style="margin-top:0">Release plan</h2>
<table style="border-collapse:collapse;width:100%">${['Build', 'Test', 'Package', 'Publish'].map((s, i) =>
    `<tr><td style="border-bottom:1px solid #303a48;padding:6px">${i + 1}</td><td style="border-bottom:1px solid #303a48;padding:6px">${s}</td><td style="border-bottom:1px solid #303a48;padding:6px;color:${i < 2 ? '#7ee787' : '#e5c07b'}">${i < 2 ? 'done' : 'next'}</td></tr>`).join('')}
</table></div></body>`;
  await api(d, 'POST', `/api/v1/sessions/${id}/pane`, { html, title: 'Release plan' });
  await page.frameLocator('#pane iframe').locator('h2').waitFor();
  const pane = await page.locator('#pane').boundingBox();
  const term = await page.locator('#terminal').boundingBox();
  assert.ok(pane.x > 500 && pane.x + pane.width <= 1281, JSON.stringify(pane));
  assert.ok(term.x + term.width <= pane.x + 1, `terminal ${JSON.stringify(term)} ends where the pane ${JSON.stringify(pane)} starts`);
  assert.equal(await page.locator('.pane-title').textContent(), 'Release plan');
  // This window drives: the PTY follows the narrower terminal.
  await run(page, 'echo size2 $(stty size)');
  const narrower = await waitForMatch(page, /^size2 (\d+) (\d+)$/);
  assert.ok(Number(narrower[2]) < Number(before[2]), `cols ${narrower[2]} < ${before[2]}`);
  await shot(page, 'pane_wide.png');

  // Hide: the terminal takes the width back; the button in the bar shows it again.
  await page.locator('.pane-hide').click();
  await waitFor(() => page.locator('#pane').isHidden(), { what: 'the pane put away' });
  await run(page, 'echo size3 $(stty size)');
  const back = await waitForMatch(page, /^size3 (\d+) (\d+)$/);
  assert.equal(back[2], before[2]);
  await page.locator('.pane-toggle').click();
  await page.locator('#pane').waitFor();

  // The same page in a phone-sized window: the terminal first, the pane at a press.
  const phone = await newWindow(t, browser, { width: 390, height: 844, hasTouch: true });
  await openAttached(phone, d);
  await phone.locator('.pane-toggle').waitFor();
  assert.equal(await phone.locator('#pane').isHidden(), true, 'on a phone the terminal comes first');
  assert.equal(await phone.locator('.pane-toggle.fresh').count(), 1, 'the button says a page waits');
  await shot(phone, 'pane_phone_terminal.png');
  await phone.locator('.pane-toggle').click();
  await phone.frameLocator('#pane iframe').locator('h2').waitFor();
  const phonePane = await phone.locator('#pane').boundingBox();
  assert.ok(phonePane.x <= 1 && phonePane.width >= 388, JSON.stringify(phonePane));
  await shot(phone, 'pane_phone.png');
  await phone.locator('.pane-toggle').click();
  await waitFor(() => phone.locator('#pane').isHidden(), { what: 'back to the terminal' });
  assert.equal(await phone.locator('.pane-toggle.fresh').count(), 0, 'seen: no dot');

  // Cleared: the pane and its button go, in every window.
  await api(d, 'DELETE', `/api/v1/sessions/${id}/pane`);
  await waitFor(() => page.locator('#pane').isHidden(), { what: 'the pane gone after clear' });
  await waitFor(() => phone.locator('.pane-toggle').isHidden(), { what: 'the phone\'s button gone after clear' });
  // A reload shows what the session has: nothing now; publish and reload: the page.
  await api(d, 'POST', `/api/v1/sessions/${id}/pane`, { html: '<p id="again">again</p>' });
  await page.frameLocator('#pane iframe').locator('#again').waitFor({ timeout: 10000 });
  await phone.locator('.pane-toggle').waitFor(); // its window hears of it too (not shown)
  await page.reload();
  await page.frameLocator('#pane iframe').locator('#again').waitFor({ timeout: 10000 });
  assertNoProblems(page, phone);
});
