// Notifications that leave the page (app/notifier.hpp, docs/config.md [notifications])
// from the real daemon. A local HTTP server stands in for ntfy and records every POST;
// the command hook is a Node program that writes its standard input to a file. Events
// come the ways they do in use: `wharf notify` typed in a session (as an agent's hook
// runs it), the hook commands wharf registers for Claude Code, Codex and opencode (run
// with recorded payloads: they need a model to fire on their own), the terminal bell,
// and output that goes quiet after work. Decisions that send nothing are read from the
// daemon's log line for the event, so no test waits for something not to happen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, writeFileSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, waitFor, wharfBin } from '../support/daemon.mjs';
import { attachedWindow, runWharf } from '../support/ws_client.mjs';

// The ntfy stand-in: every POST with its path, headers and body.
async function startNtfy(t) {
  const posts = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      posts.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"id":"x"}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  return { posts, url: `http://127.0.0.1:${server.address().port}/wharf-topic` };
}

// A daemon with `config` (TOML text) as its config file.
async function daemonWith(t, config) {
  const dir = mkdtempSync(join(tmpdir(), 'wharf-notify-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'config.toml');
  writeFileSync(file, config);
  const d = await startDaemon({ args: ['--config', file] });
  t.after(() => d.stop());
  return { d, dir };
}

// The daemon's log line for the n-th event of `session` ("sent to", "held back: ...").
function eventLines(d, session) {
  const re = new RegExp(`session ${session} is (waiting|finished) \\(([^)]*)\\): notification (.*)`, 'g');
  return [...d.stderr.matchAll(re)].map((m) => ({ kind: m[1], source: m[2], outcome: m[3] }));
}
async function nthEvent(d, session, n) {
  await waitFor(() => eventLines(d, session).length >= n, { timeout: 10000, what: `event ${n} of session ${session} in the log:\n${d.stderr}` });
  return eventLines(d, session)[n - 1];
}

async function typeLine(ws, line) {
  ws.type(`${line}\r`);
}

const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;

test('wharf notify in a session: one ntfy POST with title, priority, tags, token and the deep link; the next within the debounce is held back', async (t) => {
  const ntfy = await startNtfy(t);
  const { d } = await daemonWith(t, `[server]
public_url = "https://wharf.example.net:8443"
[notifications]
ntfy_url = "${ntfy.url}"
ntfy_token = "tk_secret123"
`);
  const { ws, attached } = await attachedWindow(t, d);
  const id = attached.session;
  await typeLine(ws, `${quote(wharfBin)} notify waiting`);
  await waitFor(() => ntfy.posts.length === 1, { what: 'the first POST' });
  const post = ntfy.posts[0];
  assert.equal(post.method, 'POST');
  assert.equal(post.url, '/wharf-topic');
  assert.match(post.headers.title, new RegExp(`^bash ${id} is waiting for you$|^\\S+ ${id} is waiting for you$`));
  assert.equal(post.headers.priority, '4');
  assert.equal(post.headers.tags, 'bell,wharf');
  assert.equal(post.headers.click, `https://wharf.example.net:8443/#session=${id}`);
  assert.equal(post.headers.authorization, 'Bearer tk_secret123');
  assert.match(post.body, new RegExp(`needs your answer.*\\(session ${id}\\)`));
  assert.ok(!post.body.includes('notify waiting'), 'no screen contents in the message');
  assert.deepEqual(await nthEvent(d, id, 1), { kind: 'waiting', source: 'its own word', outcome: 'sent to ntfy, webpush' });

  await typeLine(ws, `${quote(wharfBin)} notify finished`);
  assert.deepEqual(await nthEvent(d, id, 2), { kind: 'finished', source: 'its own word', outcome: 'held back: debounced' });
  assert.equal(ntfy.posts.length, 1, 'nothing more within the debounce window');
  // The token never reaches the log.
  assert.ok(!d.stderr.includes('tk_secret123'), 'the token is not logged');
});

test('debounce 0 lets every event out; without public_url there is no Click; finished is priority 3', async (t) => {
  const ntfy = await startNtfy(t);
  const { d } = await daemonWith(t, `[notifications]
ntfy_url = "${ntfy.url}"
debounce = 0
`);
  const { ws, attached } = await attachedWindow(t, d);
  const id = attached.session;
  await typeLine(ws, `${quote(wharfBin)} notify waiting; ${quote(wharfBin)} notify finished`);
  await waitFor(() => ntfy.posts.length === 2, { what: 'two POSTs' });
  const priorities = ntfy.posts.map((p) => p.headers.priority).sort();
  assert.deepEqual(priorities, ['3', '4']);
  const finished = ntfy.posts.find((p) => p.headers.priority === '3');
  assert.match(finished.headers.title, new RegExp(`${id} has finished$`));
  assert.equal(finished.headers.tags, 'white_check_mark,wharf');
  for (const post of ntfy.posts) assert.equal(post.headers.click, undefined, 'no Click without public_url');
});

test('a window that is looking at the session holds its notifications back; once it looks away they go out', async (t) => {
  const ntfy = await startNtfy(t);
  const { d } = await daemonWith(t, `[notifications]
ntfy_url = "${ntfy.url}"
debounce = 0
`);
  const { ws, attached } = await attachedWindow(t, d);
  const id = attached.session;
  ws.send({ type: 'looking', looking: true });
  await typeLine(ws, `${quote(wharfBin)} notify waiting`);
  assert.equal((await nthEvent(d, id, 1)).outcome, 'held back: looked_at');
  ws.send({ type: 'looking', looking: false });
  await typeLine(ws, `${quote(wharfBin)} notify waiting`);
  assert.equal((await nthEvent(d, id, 2)).outcome, 'sent to ntfy, webpush');
  await waitFor(() => ntfy.posts.length === 1, { what: 'the POST once nobody looks' });
  // A malformed `looking` is refused with the field named, and changes nothing.
  const reply = await ws.request({ type: 'looking', looking: 'yes' }, (m) => m.type === 'error');
  assert.equal(reply.code, 'bad_field');
  assert.match(reply.message, /looking/);
});

test('a watcher looking at another session does not hold this one back', async (t) => {
  const ntfy = await startNtfy(t);
  const { d } = await daemonWith(t, `[notifications]
ntfy_url = "${ntfy.url}"
debounce = 0
`);
  const first = await attachedWindow(t, d);
  const other = await attachedWindow(t, d, { start: false });
  const second = await other.ws.newSession({});
  other.ws.send({ type: 'looking', looking: true });
  assert.notEqual(second.session, first.attached.session);
  await typeLine(first.ws, `${quote(wharfBin)} notify waiting`);
  assert.equal((await nthEvent(d, first.attached.session, 1)).outcome, 'sent to ntfy, webpush');
  await waitFor(() => ntfy.posts.length === 1, { what: 'the POST' });
});

test('the command hook gets the notification as JSON on its standard input', async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'wharf-hook-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const file = join(out, 'note.json');
  const script = `let s='';process.stdin.on('data',c=>s+=c).on('end',()=>require('fs').writeFileSync(${JSON.stringify(file)},s))`;
  const { d } = await daemonWith(t, `[server]
public_url = "http://box.lan:7373"
[notifications]
command = [${JSON.stringify(process.execPath)}, "-e", ${JSON.stringify(script)}]
`);
  const { ws, attached } = await attachedWindow(t, d);
  const id = attached.session;
  await typeLine(ws, `${quote(wharfBin)} notify finished`);
  await waitFor(() => existsSync(file) && readFileSync(file, 'utf8').endsWith('\n'), { what: 'the hook wrote its input' });
  const note = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(note.session, id);
  assert.equal(note.kind, 'finished');
  assert.match(note.title, new RegExp(`${id} has finished$`));
  assert.equal(note.click_url, `http://box.lan:7373/#session=${id}`);
  assert.equal(typeof note.message, 'string');
  assert.equal(typeof note.program, 'string');
});

test('a hook command that never ends is killed after command_timeout', async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'wharf-hook-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const pidFile = join(out, 'pid');
  const script = `require('fs').writeFileSync(${JSON.stringify(pidFile)},String(process.pid));setInterval(()=>{},1000)`;
  const { d } = await daemonWith(t, `[notifications]
command = [${JSON.stringify(process.execPath)}, "-e", ${JSON.stringify(script)}]
command_timeout = 1
`);
  const { ws } = await attachedWindow(t, d);
  await typeLine(ws, `${quote(wharfBin)} notify waiting`);
  await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0, { what: 'the hook started' });
  const pid = Number(readFileSync(pidFile, 'utf8'));
  await waitFor(() => d.stderr.includes('still running after 1 s; killed'), { what: 'the kill in the log' });
  await waitFor(() => { try { process.kill(pid, 0); return false; } catch { return true; } }, { what: `hook ${pid} gone` });
});

test('a command that is not installed is refused at start, with the reason', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wharf-notify-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'config.toml');
  writeFileSync(file, '[notifications]\ncommand = ["wharf-no-such-notifier"]\n');
  await assert.rejects(startDaemon({ args: ['--config', file] }), /cannot find the program 'wharf-no-such-notifier'/);
  writeFileSync(file, '[notifications]\nntfy_url = "ftp://ntfy.sh/x"\n');
  await assert.rejects(startDaemon({ args: ['--config', file] }), /'ntfy_url' is an http:\/\/ or https:\/\/ URL/);
});

test('the terminal bell from a program is "waiting"; the bell that answers a key is not', async (t) => {
  const ntfy = await startNtfy(t);
  const { d } = await daemonWith(t, `[notifications]
ntfy_url = "${ntfy.url}"
debounce = 0
`);
  const { ws, attached } = await attachedWindow(t, d);
  const id = attached.session;
  // Backspace on an empty line: readline rings at once, in answer to the key.
  const before = ws.output.length;
  ws.type('\x7f');
  await waitFor(() => ws.output.slice(before).includes('\x07'), { what: 'the shell rang for the backspace' });
  // A program that rings after a while, as a build script or a tool with no hooks does.
  await typeLine(ws, "sleep 1.5; printf '\\a'");
  const event = await nthEvent(d, id, 1);
  assert.deepEqual(event, { kind: 'waiting', source: 'the bell', outcome: 'sent to ntfy, webpush' });
  await waitFor(() => ntfy.posts.length === 1, { what: 'the POST for the bell' });
  assert.match(ntfy.posts[0].headers.title, / is waiting for you$/);
  assert.match(ntfy.posts[0].body, /rang the terminal bell/);
  assert.equal(eventLines(d, id).length, 1, 'the backspace bell made no event');
});

test('output that goes quiet after a stretch of work is "finished"', async (t) => {
  const ntfy = await startNtfy(t);
  const { d } = await daemonWith(t, `[notifications]
ntfy_url = "${ntfy.url}"
`);
  const { ws, attached } = await attachedWindow(t, d);
  const id = attached.session;
  await typeLine(ws, 'for i in $(seq 25); do echo working $i; sleep 0.1; done');
  const event = await nthEvent(d, id, 1);
  assert.deepEqual(event, { kind: 'finished', source: 'quiet output', outcome: 'sent to ntfy, webpush' });
  await waitFor(() => ntfy.posts.length === 1, { what: 'the POST' });
  assert.match(ntfy.posts[0].body, /output stopped/);
  assert.ok(!ntfy.posts[0].body.includes('working'), 'no screen contents by default');
});

test('include_screen adds the last lines of the screen to the message', async (t) => {
  const ntfy = await startNtfy(t);
  const { d } = await daemonWith(t, `[notifications]
ntfy_url = "${ntfy.url}"
include_screen = true
`);
  const { ws } = await attachedWindow(t, d);
  await typeLine(ws, `echo the-answer-is-$((6*7)); ${quote(wharfBin)} notify waiting`);
  await waitFor(() => ntfy.posts.length === 1, { what: 'the POST' });
  assert.match(ntfy.posts[0].body, /needs your answer[\s\S]*\n\n[\s\S]*the-answer-is-42/);
});

test("the agents' hooks: Claude Code's settings, Codex's notify argv and opencode's plugin each mark the session", async (t) => {
  const ntfy = await startNtfy(t);
  const { d } = await daemonWith(t, `[notifications]
ntfy_url = "${ntfy.url}"
debounce = 0
`);
  const { ws, attached } = await attachedWindow(t, d);
  const id = attached.session;

  // Claude Code: the settings file wharf passes with --settings holds the two hooks.
  const settings = JSON.parse(readFileSync(join(d.stateDir, 'claude-settings.json'), 'utf8'));
  const notification = settings.hooks?.Notification?.[0]?.hooks?.[0];
  const stop = settings.hooks?.Stop?.[0]?.hooks?.[0];
  assert.equal(notification?.type, 'command');
  assert.equal(stop?.type, 'command');
  assert.match(notification.command, / notify waiting >\/dev\/null 2>&1 \|\| true$/);
  assert.match(stop.command, / notify finished >\/dev\/null 2>&1 \|\| true$/);
  assert.ok(settings.statusLine, 'the status line is still there');
  // Claude runs a hook's command through a shell, inside the session: so do we.
  await typeLine(ws, notification.command);
  assert.deepEqual(await nthEvent(d, id, 1), { kind: 'waiting', source: 'its own word', outcome: 'sent to ntfy, webpush' });
  await typeLine(ws, stop.command);
  assert.equal((await nthEvent(d, id, 2)).kind, 'finished');

  // Codex: its notify program gets the event's JSON as one more argument (recorded
  // payload of an agent-turn-complete).
  const payload = JSON.stringify({ type: 'agent-turn-complete', 'turn-id': '1', 'input-messages': ['fix it'], 'last-assistant-message': 'Done.' });
  await typeLine(ws, `${quote(wharfBin)} notify finished --from-codex ${quote(payload)}`);
  assert.equal((await nthEvent(d, id, 3)).kind, 'finished');
  // Without --from-codex an extra argument is refused.
  const refused = await runWharf(['notify', 'finished', '{}', '--state-dir', d.stateDir]);
  assert.notEqual(refused.code, 0);

  // opencode: the plugin wharf wrote, loaded as opencode loads it, handed recorded events.
  const plugin = join(d.stateDir, 'opencode', 'wharf-notify.js');
  assert.ok(existsSync(plugin), 'the plugin file exists');
  const run = `import(${JSON.stringify('file://' + plugin)}).then(async (m) => { const p = await m.WharfNotify({}); await p.event({ event: { type: 'permission.asked', properties: {} } }); await p.event({ event: { type: 'session.idle', properties: { sessionID: 's1' } } }); await p.event({ event: { type: 'message.updated' } }); })`;
  await typeLine(ws, `${quote(process.execPath)} -e ${quote(run)}`);
  await nthEvent(d, id, 5);
  const kinds = eventLines(d, id).slice(3).map((e) => e.kind).sort();
  assert.deepEqual(kinds, ['finished', 'waiting']);
  await waitFor(() => ntfy.posts.length === 5, { what: 'five POSTs' });
  // Nothing more comes of the event the plugin ignores.
  await typeLine(ws, `${quote(wharfBin)} notify waiting`);
  await nthEvent(d, id, 6);
  assert.equal(eventLines(d, id).length, 6);
});

// An https ntfy stand-in with a certificate made here for "localhost" (openssl CLI).
async function startTlsNtfy(t) {
  const { execFileSync } = await import('node:child_process');
  const https = await import('node:https');
  const dir = mkdtempSync(join(tmpdir(), 'wharf-tls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  const posts = [];
  const server = https.createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      posts.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), servername: req.socket.servername });
      res.writeHead(200);
      res.end('ok');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  return { posts, port: server.address().port, cert };
}

async function tlsDaemon(t, url, env) {
  const dir = mkdtempSync(join(tmpdir(), 'wharf-notify-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'config.toml');
  writeFileSync(file, `[notifications]\nntfy_url = "${url}"\n`);
  const d = await startDaemon({ args: ['--config', file], env });
  t.after(() => d.stop());
  return d;
}

test('ntfy over https: the certificate is checked against the CA store and the host name, with SNI', async (t) => {
  const ntfy = await startTlsNtfy(t);
  // Trusted (SSL_CERT_FILE is OpenSSL's CA store), and the name matches: delivered.
  const good = await tlsDaemon(t, `https://localhost:${ntfy.port}/topic`, { SSL_CERT_FILE: ntfy.cert });
  const { ws } = await attachedWindow(t, good);
  await typeLine(ws, `${quote(wharfBin)} notify waiting`);
  await waitFor(() => ntfy.posts.length === 1, { what: `the POST over TLS:\n${good.stderr}` });
  assert.equal(ntfy.posts[0].servername, 'localhost', 'SNI names the host');
  assert.match(ntfy.posts[0].headers.title, /is waiting for you$/);

  // Not trusted: refused in the handshake, said in the log, nothing posted.
  const untrusted = await tlsDaemon(t, `https://localhost:${ntfy.port}/topic`, {});
  const second = await attachedWindow(t, untrusted);
  await typeLine(second.ws, `${quote(wharfBin)} notify waiting`);
  await waitFor(() => /ntfy: the notification for session \d+ did not go out: the TLS handshake with localhost:\d+ failed/.test(untrusted.stderr),
    { what: `the refusal in the log:\n${untrusted.stderr}` });

  // Trusted, but the certificate is for another name than the URL's: refused too.
  const wrongName = await tlsDaemon(t, `https://127.0.0.1:${ntfy.port}/topic`, { SSL_CERT_FILE: ntfy.cert });
  const third = await attachedWindow(t, wrongName);
  await typeLine(third.ws, `${quote(wharfBin)} notify waiting`);
  await waitFor(() => /did not go out: the TLS handshake with 127\.0\.0\.1:\d+ failed/.test(wrongName.stderr),
    { what: `the name mismatch in the log:\n${wrongName.stderr}` });
  assert.equal(ntfy.posts.length, 1);
  assert.ok(!untrusted.stderr.includes('/topic') && !wrongName.stderr.includes('/topic'), 'the topic is not logged');
});
