// The web pane through every door but the page (tests/browser/page_pane.test.mjs has
// that): `wharf pane show|clear` from inside a session (its own session by default,
// another only if it started it), REST (POST/DELETE /api/v1/sessions/ID/pane, 413 over
// the cap), the operations in OpenAPI, the `pane` message every window attached to the
// session gets, the document at /pane/ID/TOKEN (its policy, a replaced token gone, no key
// in its address), and a feedback round trip over the WebSocket with its refusals.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, waitFor, wharfBin } from '../support/daemon.mjs';
import { httpGet, openWs, stopDaemon, within } from '../support/ws_client.mjs';

async function daemon(t, { config } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'wharf-pane-home-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  writeFileSync(join(home, '.bashrc'), "PS1='pane$ '\n");
  mkdirSync(join(home, 'work'));
  const d = await startDaemon({ args: ['--workspace', join(home, 'work')], env: { HOME: home } });
  t.after(() => stopDaemon(d));
  d.home = home;
  return d;
}

async function window(t, d) {
  const ws = await openWs(d);
  t.after(() => ws.close());
  return ws;
}

function api(d, method, path, body) {
  const headers = { 'X-Wharf-Key': d.key };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return httpGet(d, path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    .then((r) => ({ ...r, json: r.body ? JSON.parse(r.body) : null }));
}

// Runs `wharf ARGS` inside the window's attached shell; resolves with its output and status.
async function wharfInside(ws, d, args) {
  const out = await ws.run(`${wharfBin} ${args} --state-dir ${d.stateDir}; echo "rc=$?"`, { timeout: 20000 });
  const rc = Number(/rc=(\d+)/.exec(out)?.[1]);
  return { out, rc };
}

const paneMessage = (ws, session, from, pred = () => true) =>
  ws.waitForMessage((m) => m.type === 'pane' && m.session === session && pred(m), { from, what: `pane message for ${session}` });

describe('the web pane', { concurrency: 2 }, () => {
  test('a program publishes into its own session; the page is served with its policy and replaced on each publish', async (t) => {
    const d = await daemon(t);
    const ws = await window(t, d);
    const a = (await ws.newSession({ shell: 'bash' })).session;
    await ws.waitForPrompt();
    // Attaching tells the window there is no page yet.
    assert.equal((await paneMessage(ws, a, 0)).page, null);
    const file = join(d.home, 'plan.html');
    writeFileSync(file, '<!doctype html><title>x</title><h1 id="h">The plan</h1>');
    const from = ws.messages.length;
    const shown = await wharfInside(ws, d, `pane show ${file} --title 'Plan  for today'`);
    assert.equal(shown.rc, 0, shown.out);
    const msg = await paneMessage(ws, a, from, (m) => m.page !== null);
    assert.equal(msg.page.title, 'Plan for today');
    assert.match(msg.page.url, new RegExp(`^/pane/${a}/[0-9a-f]{32}$`));
    assert.ok(!msg.page.url.includes(d.key));

    const doc = await httpGet(d, msg.page.url);
    assert.equal(doc.status, 200);
    assert.match(doc.headers['content-type'], /^text\/html/);
    const csp = doc.headers['content-security-policy'];
    for (const part of ["default-src 'none'", "form-action 'none'", "frame-ancestors 'self'", 'sandbox allow-scripts allow-forms'])
      assert.ok(csp.includes(part), `${part} in ${csp}`);
    assert.ok(!/connect-src/.test(csp), 'no network: connect-src falls back to none');
    assert.ok(doc.body.startsWith('<!doctype html>\n<script>'), doc.body.slice(0, 80));
    assert.ok(doc.body.includes('<h1 id="h">The plan</h1>'));
    // The key never rides in a pane address: refused outright.
    assert.equal((await httpGet(d, `${msg.page.url}?k=${d.key}`)).status, 400);
    assert.equal((await httpGet(d, `/pane/${a}/${'0'.repeat(32)}`)).status, 404);
    // The page around it may frame same-origin documents, and nothing else was opened.
    const page = await httpGet(d, '/', { headers: { 'X-Wharf-Key': d.key } });
    assert.ok(page.headers['content-security-policy'].includes("frame-src 'self'"));

    // A second window attaching hears the page too (a reload shows it again).
    const other = await window(t, d);
    await other.attach({ session: a });
    assert.equal((await paneMessage(other, a, 0, (m) => m.page !== null)).page.token, msg.page.token);

    // Published again from stdin: a new token, the old document is gone.
    const from2 = ws.messages.length;
    const again = await wharfInside(ws, d, "pane show - <<< '<p>second</p>'");
    assert.equal(again.rc, 0, again.out);
    const msg2 = await paneMessage(ws, a, from2, (m) => m.page !== null);
    assert.notEqual(msg2.page.token, msg.page.token);
    assert.equal((await httpGet(d, msg.page.url)).status, 404);
    assert.ok((await httpGet(d, msg2.page.url)).body.includes('<p>second</p>'));

    // Cleared: every window hears page null, the document is gone.
    const from3 = other.messages.length;
    const cleared = await wharfInside(ws, d, 'pane clear');
    assert.equal(cleared.rc, 0, cleared.out);
    await paneMessage(other, a, from3, (m) => m.page === null);
    assert.equal((await httpGet(d, msg2.page.url)).status, 404);
  });

  test('refusals: another person\'s session, a page over the cap, no session named from outside', async (t) => {
    const d = await daemon(t);
    const ws = await window(t, d);
    const b = (await ws.newSession({ shell: 'bash' })).session; // the browser's
    const a = (await ws.newSession({ shell: 'bash' })).session;
    await ws.waitForPrompt();
    const file = join(d.home, 'p.html');
    writeFileSync(file, '<p>x</p>');
    const foreign = await wharfInside(ws, d, `pane show ${file} -t ${b}`);
    assert.equal(foreign.rc, 1, foreign.out);
    assert.match(foreign.out, /may only use the sessions it started/);
    // Its own session, named: allowed.
    const own = await wharfInside(ws, d, `pane show ${file} -t ${a}`);
    assert.equal(own.rc, 0, own.out);
    // Too big for any pane: the CLI refuses before sending.
    writeFileSync(join(d.home, 'big.html'), 'x'.repeat(600 * 1024));
    const big = await wharfInside(ws, d, `pane show ${join(d.home, 'big.html')}`);
    assert.equal(big.rc, 1, big.out);
    assert.match(big.out, /more than a pane accepts/);

    // REST: 413 with code too_large just over 512 KiB, 200 at exactly 512 KiB.
    const over = await api(d, 'POST', `/api/v1/sessions/${b}/pane`, { html: 'x'.repeat(512 * 1024 + 1) });
    assert.equal(over.status, 413, over.body);
    assert.equal(over.json.error.code, 'too_large');
    const at = await api(d, 'POST', `/api/v1/sessions/${b}/pane`, { html: 'x'.repeat(512 * 1024), title: 'Big' });
    assert.equal(at.status, 200, at.body);
    assert.equal(at.json.bytes, 512 * 1024);
    const empty = await api(d, 'POST', `/api/v1/sessions/${b}/pane`, { html: '' });
    assert.equal(empty.json.error.code, 'bad_page');
    const missing = await api(d, 'POST', '/api/v1/sessions/999/pane', { html: '<p>x</p>' });
    assert.equal(missing.status, 404);
    assert.equal((await api(d, 'DELETE', `/api/v1/sessions/${b}/pane`)).status, 200);
    // From outside any session the session must be named.
    const { spawnSync } = await import('node:child_process');
    const outside = spawnSync(wharfBin, ['pane', 'clear', '--state-dir', d.stateDir], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: d.home } });
    assert.equal(outside.status, 1, outside.stderr);
    assert.match(outside.stderr, /name the session/);

    // The operations are described once: OpenAPI has the route.
    const openapi = await api(d, 'GET', '/api/v1/openapi.json');
    assert.ok(openapi.json.paths['/sessions/{session}/pane'], Object.keys(openapi.json.paths).join(' '));
  });

  test('a page outlives the daemon with its session; a later session with the same id never sees it', async (t) => {
    const d1 = await startDaemon({ key: null });
    const stateDir = d1.stateDir;
    const ws = await openWs(d1);
    const a = (await ws.newSession({ shell: 'bash' })).session;
    await ws.waitForPrompt();
    assert.equal((await api(d1, 'POST', `/api/v1/sessions/${a}/pane`, { html: '<p>kept</p>', title: 'Kept' })).status, 200);
    const token = (await paneMessage(ws, a, 0, (m) => m.page !== null)).page.token;
    ws.close();
    d1.child.kill('SIGKILL');
    await within(d1.exited, 10000, 'the daemon to die');

    const d2 = await startDaemon({ stateDir, key: null });
    const w2 = await openWs(d2);
    t.after(() => w2.close());
    await w2.attach({ session: a });
    const msg = await paneMessage(w2, a, 0);
    assert.equal(msg.page?.token, token, JSON.stringify(msg));
    assert.equal(msg.page.title, 'Kept');
    assert.ok((await httpGet(d2, msg.page.url)).body.includes('<p>kept</p>'));

    // The session ends; a daemon started afresh hands out the id again: no page.
    const from = w2.messages.length;
    assert.equal((await api(d2, 'DELETE', `/api/v1/sessions/${a}`)).status, 200);
    await w2.waitForMessage((m) => m.type === 'sessions' && m.sessions.length === 0, { from, timeout: 15000 });
    d2.child.kill('SIGKILL');
    await within(d2.exited, 10000, 'the second daemon to die');
    const d3 = await startDaemon({ stateDir, key: null });
    t.after(() => stopDaemon(d3));
    const w3 = await openWs(d3);
    t.after(() => w3.close());
    const b = (await w3.newSession({ shell: 'bash' })).session;
    assert.equal(b, a, 'the id is handed out again');
    assert.equal((await paneMessage(w3, b, 0)).page, null);
    assert.equal((await httpGet(d3, msg.page.url)).status, 404);
  });

  test('a feedback form round trip: filed as JSON, one line typed, refusals by code', async (t) => {
    const d = await daemon(t);
    const ws = await window(t, d);
    const a = (await ws.newSession({ shell: 'bash' })).session;
    await ws.waitForPrompt();
    const from = ws.messages.length;
    const published = await api(d, 'POST', `/api/v1/sessions/${a}/pane`, { html: '<form data-feedback></form>', title: 'Pick "one"\nnow' });
    assert.equal(published.status, 200, published.body);
    const token = (await paneMessage(ws, a, from, (m) => m.page !== null)).page.token;

    const out = ws.textLength;
    const filed = await ws.request({ type: 'pane_feedback', session: a, page: token, fields: { choice: 'b', tags: ['x', 'y'] } },
      (m) => m.type === 'pane_feedback' || m.type === 'error');
    assert.equal(filed.type, 'pane_feedback', JSON.stringify(filed));
    assert.equal(filed.typed, true);
    assert.ok(filed.path.startsWith(join(d.stateDir, 'pane', String(a), 'feedback')), filed.path);
    const record = JSON.parse(readFileSync(filed.path, 'utf8'));
    assert.deepEqual(record.fields, { choice: 'b', tags: ['x', 'y'] });
    assert.equal(record.page, token);
    assert.equal(typeof record.submitted_at, 'number');
    // One line, server text only, typed at the prompt (bash says it is no command).
    await ws.waitForOutput(`[wharf pane: form "Pick "one" now" submitted; read ${filed.path}]`, { from: out });

    const refusal = (fields, page = token) => ws.request({ type: 'pane_feedback', session: a, page, fields },
      (m) => m.type === 'pane_feedback' || m.type === 'error');
    assert.equal((await refusal({ choice: 'again' })).code, 'too_soon');
    assert.equal((await refusal({ choice: 'x' }, 'f'.repeat(32))).code, 'no_page');
    await waitFor(async () => {
      const r = await refusal({ n: 1 });
      return r.code === 'bad_feedback' ? r : null; // once the second has passed
    }, { timeout: 5000, what: 'bad_feedback for a number' });
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`f${i}`, 'v']));
    assert.equal((await refusal(many)).code, 'bad_feedback');
    assert.equal((await refusal({ ['n'.repeat(65)]: 'v' })).code, 'bad_feedback');
    assert.equal((await refusal({ v: 'x'.repeat(8 * 1024 + 1) })).code, 'bad_feedback');
    // Cleared: the page's forms file nothing.
    await api(d, 'DELETE', `/api/v1/sessions/${a}/pane`);
    assert.equal((await refusal({ choice: 'late' })).code, 'no_page');
    assert.ok(existsSync(filed.path));
  });
});
