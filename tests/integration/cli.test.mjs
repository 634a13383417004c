// The `wharf` command line and the start of `wharf serve`: help and version, the one
// printed line, the key file, a port already in use, and a non-loopback listen address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startDaemon, waitFor, wharfBin } from '../support/daemon.mjs';
import { runWharf, httpGet, openWs, stopDaemon, within } from '../support/ws_client.mjs';

function tempDir(t, prefix = 'wharf-cli-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const WARNING = /non-?loopback|beyond this machine|reachable|other (machines|hosts)/i;

test('wharf --help, --version and serve --help exit 0 and print to stdout', async () => {
  const help = await runWharf(['--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /serve/);
  const version = await runWharf(['--version']);
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /\d+\.\d+\.\d+/);
  const serveHelp = await runWharf(['serve', '--help']);
  assert.equal(serveHelp.code, 0, serveHelp.stderr);
  for (const opt of ['--port', '--listen', '--state-dir']) assert.ok(serveHelp.stdout.includes(opt), `serve --help mentions ${opt}:\n${serveHelp.stdout}`);
});

test('an unknown option is an error: non-zero exit, message on stderr, nothing served', async () => {
  const r = await runWharf(['serve', '--no-such-option']);
  assert.notEqual(r.code, 0);
  assert.equal(r.signal, null);
  assert.ok(r.stderr.trim().length > 0);
  assert.ok(!/^http:\/\//m.test(r.stdout), 'no URL printed');
});

test('a mistyped command names the nearest one; a bad session id says what an id is', async () => {
  const typo = await runWharf(['lss']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /'lss' is not a command; did you mean 'ls'\?/);
  const far = await runWharf(['frobnicate']);
  assert.equal(far.code, 2);
  assert.doesNotMatch(far.stderr, /did you mean/);
  for (const bad of ['abc', '0', '-3', '1.5']) {
    const r = await runWharf(['read-screen', '--', bad]);
    assert.notEqual(r.code, 0, bad);
    assert.match(r.stderr, /is not a session id \(a positive number, as `wharf ls` prints\)/, bad);
  }
});

test('the version is the same in --version, /api/status and hello', async (t) => {
  const version = (await runWharf(['--version'])).stdout;
  const d = await startDaemon();
  t.after(() => stopDaemon(d));
  const status = JSON.parse((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } })).body);
  assert.ok(version.includes(status.version), `--version ${JSON.stringify(version)} vs status ${status.version}`);
  const ws = await openWs(d);
  t.after(() => ws.close());
  const { hello } = await ws.handshake();
  assert.ok(hello.server.includes(status.version), `hello.server ${hello.server} vs ${status.version}`);
  assert.equal(hello.protocol, status.protocol, 'the same protocol version in hello and /api/status');
});

test('wharf serve prints exactly one line, the URL, on stdout and logs on stderr; SIGTERM exits 0', async (t) => {
  const stateDir = tempDir(t);
  const key = randomBytes(16).toString('hex');
  const child = spawn(wharfBin, ['serve', '--port', '0', '--state-dir', stateDir], {
    cwd: stateDir, env: { PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, WHARF_KEY: key }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  t.after(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  await waitFor(() => stdout.includes('\n'), { timeout: 15000, what: 'the URL line' });
  const m = stdout.match(/^http:\/\/127\.0\.0\.1:(\d+)\/\?k=([0-9a-f]{32})\n/);
  assert.ok(m, `first line: ${JSON.stringify(stdout)}`);
  assert.equal(m[2], key, 'WHARF_KEY pins the key');
  const d = { port: Number(m[1]), key, origin: `http://127.0.0.1:${m[1]}` };
  assert.equal((await httpGet(d, `/?k=${key}`)).status, 200);
  assert.equal((await httpGet(d, '/')).status, 403);
  const ws = await openWs(d);
  await ws.attach({ start: true });
  await ws.waitForPrompt();
  ws.type('echo line-$((1+1))\r');
  await ws.waitForOutput('line-2');
  child.kill('SIGTERM');
  const { code, signal } = await within(exited, 20000, 'wharf serve to exit after SIGTERM');
  assert.equal(signal, null);
  assert.equal(code, 0, stderr);
  await ws.close();
  assert.equal(stdout, `${m[0]}`, 'nothing but the URL line on stdout');
  assert.ok(stderr.length > 0, 'logs go to stderr');
  assert.ok(!stderr.includes(key), 'no key in the logs');
});

test('`wharf open --state-dir DIR` prints the running daemon\'s URL, the one the refusal page points to', async (t) => {
  const d = await startDaemon();
  t.after(() => stopDaemon(d));
  const r = await runWharf(['open', '--state-dir', d.stateDir]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), d.url);
  const none = tempDir(t);
  const missing = await runWharf(['open', '--state-dir', none]);
  assert.notEqual(missing.code, 0, 'no daemon, no URL');
  assert.equal(missing.stdout, '');
});

test('SIGTERM right after the URL line is a clean stop (exit 0) that leaves no stale URL for `wharf open`', async (t) => {
  // The URL line says the daemon is up; from then on a stop request must be handled, not
  // kill it where it stands.
  for (let i = 0; i < 12; i += 1) {
    const stateDir = tempDir(t);
    const child = spawn(wharfBin, ['serve', '--port', '0', '--state-dir', stateDir], {
      cwd: stateDir, env: { PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.after(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    await within(new Promise((resolve) => child.stdout.once('data', resolve)), 15000, 'the URL line');
    child.kill('SIGTERM');
    const { code, signal } = await within(exited, 20000, 'exit after SIGTERM');
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, `attempt ${i + 1}: SIGTERM just after the URL line`);
    const open = await runWharf(['open', '--state-dir', stateDir]);
    assert.notEqual(open.code, 0, `attempt ${i + 1}: wharf open after the daemon stopped printed ${JSON.stringify(open.stdout)}`);
  }
});

test('the key file STATE_DIR/key holds the key with mode 0600', async (t) => {
  const d = await startDaemon();
  t.after(() => stopDaemon(d));
  const file = join(d.stateDir, 'key');
  await waitFor(() => existsSync(file), { timeout: 3000, what: 'the key file' });
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(readFileSync(file, 'utf8').trim(), d.key);
});

test('without WHARF_KEY a fresh random 32-hex key is minted at every start and written to the key file', async (t) => {
  const a = await startDaemon({ env: { WHARF_KEY: undefined } });
  t.after(() => stopDaemon(a));
  const b = await startDaemon({ env: { WHARF_KEY: undefined } });
  t.after(() => stopDaemon(b));
  for (const d of [a, b]) {
    assert.match(d.key, /^[0-9a-f]{32}$/);
    const file = join(d.stateDir, 'key');
    await waitFor(() => existsSync(file), { timeout: 3000, what: 'the key file' });
    assert.equal(readFileSync(file, 'utf8').trim(), d.key);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal((await httpGet(d, `/?k=${d.key}`)).status, 200);
  }
  assert.notEqual(a.key, b.key);
  assert.equal((await httpGet(a, `/?k=${b.key}`)).status, 403);
});

test('a port already in use is a one-line error naming the port, exit non-zero, and no key file is written', async (t) => {
  const d = await startDaemon();
  t.after(() => stopDaemon(d));
  const stateDir = tempDir(t);
  const r = await runWharf(['serve', '--port', String(d.port), '--state-dir', stateDir], { env: { WHARF_KEY: randomBytes(16).toString('hex') }, cwd: stateDir });
  assert.notEqual(r.code, 0, 'exit status');
  assert.equal(r.signal, null);
  assert.equal(r.stdout, '', 'no URL printed');
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line on stderr:\n${r.stderr}`);
  assert.ok(lines[0].includes(String(d.port)), `the error names the port: ${lines[0]}`);
  assert.ok(!existsSync(join(stateDir, 'key')), 'no key file without a bound port');
  // The running daemon is untouched.
  assert.equal((await httpGet(d, `/?k=${d.key}`)).status, 200);
});

test('a second daemon on the same state dir and a taken port leaves the running daemon\'s key file alone', async (t) => {
  const d = await startDaemon();
  t.after(() => stopDaemon(d));
  const file = join(d.stateDir, 'key');
  await waitFor(() => existsSync(file), { timeout: 3000, what: 'the key file' });
  const r = await runWharf(['serve', '--port', String(d.port), '--state-dir', d.stateDir], { env: { WHARF_KEY: randomBytes(16).toString('hex') }, cwd: d.stateDir });
  assert.notEqual(r.code, 0);
  assert.equal(r.stdout, '');
  assert.equal(readFileSync(file, 'utf8').trim(), d.key, 'the key file still holds the running daemon\'s key');
  assert.equal((await httpGet(d, `/?k=${d.key}`)).status, 200);
});

test('--listen 0.0.0.0 warns that wharf is reachable beyond this machine and still serves', async (t) => {
  const d = await startDaemon({ args: ['--listen', '0.0.0.0'] });
  t.after(() => stopDaemon(d));
  await waitFor(() => WARNING.test(d.stderr), { timeout: 3000, what: `a non-loopback warning on stderr; stderr:\n${d.stderr}` });
  const res = await httpGet(d, `/?k=${d.key}`, { host: d.host });
  assert.equal(res.status, 200, `page with Host ${d.host}`);
  assert.ok(!d.stderr.includes(d.key));
  // The default (loopback) start does not warn.
  const plain = await startDaemon();
  t.after(() => stopDaemon(plain));
  assert.equal((await httpGet(plain, `/?k=${plain.key}`)).status, 200);
  assert.ok(!WARNING.test(plain.stderr), `a loopback daemon warned:\n${plain.stderr}`);
});
