// The `wharf` command line and the start of `wharf serve`: help and version, the one
// printed line, the key file, a port already in use, and a non-loopback listen address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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
  assert.match(typo.stderr, /unknown command "lss"; did you mean "ls"\?/);
  const far = await runWharf(['frobnicate']);
  assert.equal(far.code, 2);
  assert.match(far.stderr, /unknown command "frobnicate"/);
  assert.doesNotMatch(far.stderr, /did you mean/);
  for (const bad of ['0', '000']) {
    const r = await runWharf(['read-screen', '--', bad]);
    assert.equal(r.code, 2, bad);
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
  assert.equal((await httpGet(d, `/?k=${key}`)).status, 200); // accepted
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
    assert.equal((await httpGet(d, `/?k=${d.key}`)).status, 200); // accepted
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
  assert.equal((await httpGet(d, `/?k=${d.key}`)).status, 200); // accepted
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
  assert.equal((await httpGet(d, `/?k=${d.key}`)).status, 200); // accepted
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
  assert.equal((await httpGet(plain, `/?k=${plain.key}`)).status, 200); // accepted
  assert.ok(!WARNING.test(plain.stderr), `a loopback daemon warned:\n${plain.stderr}`);
});

// ---- The command line's conventions (issue 16): help, exit statuses, stderr, targets ----

// A wharf verb against daemon `d`: the state dir comes from the environment, so the
// arguments are exactly what a person types.
const wharfAt = (d, args, opts = {}) => runWharf(args, { timeout: 30000, ...opts, env: { WHARF_STATE_DIR: d.stateDir, ...(opts.env ?? {}) } });

async function newSession(d, name) {
  const r = await wharfAt(d, ['new', '--shell', 'bash', '--name', name]);
  assert.equal(r.code, 0, r.stderr);
  return Number(r.stdout.trim());
}

test('bare `wharf`, `wharf help`, `wharf help VERB` and `wharf version` answer and exit 0', async () => {
  const bare = await runWharf([]);
  assert.equal(bare.code, 0, bare.stderr);
  assert.match(bare.stdout, /Usage:|SUBCOMMANDS|Subcommands/i);
  assert.match(bare.stdout, /Exit status: 0 done, 1 failed/);
  const help = await runWharf(['help']);
  assert.equal(help.code, 0, help.stderr);
  assert.equal(help.stdout, bare.stdout);
  const verb = await runWharf(['help', 'ls']);
  assert.equal(verb.code, 0, verb.stderr);
  assert.match(verb.stdout, /--json/);
  assert.match(verb.stdout, /Examples:/);
  const unknown = await runWharf(['help', 'lss']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "lss"; did you mean "ls"/);
  const version = await runWharf(['version']);
  assert.equal(version.code, 0, version.stderr);
  assert.equal(version.stdout, (await runWharf(['--version'])).stdout);
  assert.match(version.stdout, /^wharf \d+\.\d+\.\d+/);
});

test('the main verbs show examples in --help', async () => {
  for (const verb of ['serve', 'new', 'ls', 'kill', 'read-screen', 'send-keys', 'send-text', 'run', 'wait', 'attach', 'history', 'completion']) {
    const r = await runWharf([verb, '--help']);
    assert.equal(r.code, 0, `${verb}: ${r.stderr}`);
    assert.match(r.stdout, /Examples:\n  wharf /, `${verb} --help has examples:\n${r.stdout}`);
  }
});

test('usage errors exit 2 with "wharf: ..." on stderr and nothing on stdout, for every verb', async (t) => {
  const empty = tempDir(t);
  const cases = [
    ['serve', '--no-such-option'],
    ['ls', 'extra-word'],
    ['kill'],
    ['read-screen'],
    ['read-screen', '1', '--scrollback', 'abc'],
    ['read-screen', '1', '--scrollback', '9'.repeat(300)],
    ['wait', '1'],
    ['wait', '1', '--idle', '5'],
    ['wait', '1', '--for', 'x', '--timeout', 'soon'],
    ['send-keys', '1'],
    ['send-keys', '1', 'echo hi'],
    ['send-text', '1'],
    ['history', '--limit', '0'],
    ['notify', 'bogus'],
    ['run', '--timeout', 'x', '--', 'true'],
    ['completion', 'fish'],
    ['config'],
    ['key', 'spin'],
    ['--bogus'],
    ['--state-dir', '/tmp', 'ls'],
  ];
  for (const args of cases) {
    const r = await runWharf(args, { env: { WHARF_STATE_DIR: empty } });
    assert.equal(r.code, 2, `wharf ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
    assert.equal(r.stdout, '', `wharf ${args.join(' ')} printed on stdout`);
    assert.match(r.stderr, /^wharf/, `wharf ${args.join(' ')}: ${r.stderr}`);
    assert.ok(r.stderr.length < 400, `wharf ${args.join(' ')}: a short message, not ${r.stderr.length} bytes`);
  }
  // Numbers are checked with messages a person reads, never CLI11's range of doubles.
  const huge = await runWharf(['read-screen', '1', '--scrollback', '9'.repeat(300)]);
  assert.match(huge.stderr, /--scrollback: '9{24}\.\.\.' is not a whole number from 0 to 1000000/);
  const idle = await runWharf(['wait', '1', '--idle', '5']);
  assert.match(idle.stderr, /--idle: '5' is not a whole number from 10 to 3600000/);
  const keys = await runWharf(['send-keys', '1', 'echo hi']);
  assert.match(keys.stderr, /'echo hi' is not a key name; to type text, use `wharf send-text 1/);
  // A usage error points to the verb's own help; an option before any verb says where it goes.
  const waitHelp = await runWharf(['wait', '1', '--text', 'x']);
  assert.match(waitHelp.stderr, /Run `wharf wait --help` for its options/);
  const early = await runWharf(['--bogus']);
  assert.match(early.stderr, /unknown option "--bogus" before a command: options go after it/);
  // Failures (here: no daemon) exit 1, also on stderr.
  for (const args of [['ls'], ['read-screen', '3'], ['kill', '3'], ['read-screen', 'build']]) {
    const r = await runWharf(args, { env: { WHARF_STATE_DIR: empty } });
    assert.equal(r.code, 1, `wharf ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^wharf: no running wharf daemon/);
  }
});

test('sessions are named by id or name, positionally or with -t; an ambiguous name is refused with the candidates', async (t) => {
  const d = await startDaemon();
  t.after(() => stopDaemon(d));
  const build = await newSession(d, 'build');
  const twinA = await newSession(d, 'twin');
  const twinB = await newSession(d, 'twin');
  for (const args of [['read-screen', 'build'], ['read-screen', '-t', 'build'], ['read-screen', String(build)], ['read-screen', '-t', String(build)]]) {
    const r = await wharfAt(d, args);
    assert.equal(r.code, 0, `wharf ${args.join(' ')}: ${r.stderr}`);
  }
  const sent = await wharfAt(d, ['send-text', '-t', 'build', 'echo named-$((6*7))', '--submit']);
  assert.equal(sent.code, 0, sent.stderr);
  const seen = await wharfAt(d, ['wait', 'build', '--for', 'named-42', '--timeout', '10']);
  assert.equal(seen.code, 0, seen.stderr);
  const keys = await wharfAt(d, ['send-keys', '-t', 'build', 'C-c']);
  assert.equal(keys.code, 0, keys.stderr);
  // Words in brackets stay whole: CLI11 would take "[a,b]" for a list.
  const bracketed = await wharfAt(d, ['send-text', 'build', '[a,b]']);
  assert.equal(bracketed.code, 0, bracketed.stderr);
  assert.equal((await wharfAt(d, ['wait', '-t', 'build', '--for', ' \\[a,b\\]$', '--timeout', '10'])).code, 0);
  assert.equal((await wharfAt(d, ['send-keys', 'build', 'C-e', 'C-u'])).code, 0);
  const printed = await wharfAt(d, ['run', '-t', 'build', '--', 'printf', '[%s]', 'x']);
  assert.equal(printed.stdout, '[x]', printed.stderr);

  const twin = await wharfAt(d, ['read-screen', 'twin']);
  assert.equal(twin.code, 1);
  assert.match(twin.stderr, new RegExp(`'twin' names 2 sessions \\(ids ${twinA}, ${twinB}\\)`));
  const none = await wharfAt(d, ['read-screen', 'nosuch']);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no session named 'nosuch'/);

  // Several sessions at once, by id and by name.
  const killed = await wharfAt(d, ['kill', String(twinA), String(twinB), 'build']);
  assert.equal(killed.code, 0, killed.stderr);
  await waitFor(async () => JSON.parse((await wharfAt(d, ['ls', '--json'])).stdout).length === 0, { timeout: 15000, what: 'every session ended' });
});

test('wait says a timeout on stderr, exits 124, and keeps stdout empty', async (t) => {
  const d = await startDaemon();
  t.after(() => stopDaemon(d));
  const id = await newSession(d, 'quiet');
  const r = await wharfAt(d, ['wait', String(id), '--for', 'never-shown-zq', '--timeout', '0.3']);
  assert.equal(r.code, 124, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^wharf: timed out after \d+ ms/);
});

test('`wharf ls` shows what each session runs and keeps its columns aligned with long names', async (t) => {
  const d = await startDaemon();
  t.after(() => stopDaemon(d));
  await newSession(d, 'a');
  const long = 'a-very-long-session-name-that-goes-on-and-on';
  await newSession(d, long);
  await newSession(d, 'émoji 🚢');
  const r = await wharfAt(d, ['ls']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 4, r.stdout);
  assert.match(lines[0], /^ID\s+NAME\s+RUNS\s+STATUS\s+PID\s+DRIVER\s+SANDBOX\s+CWD$/);
  assert.ok(!r.stdout.includes(long), 'the long name is cut');
  assert.match(r.stdout, / a-very-long-session-nam… /, 'cut to 24 cells, the last an ellipsis');
  for (const line of lines.slice(1)) assert.match(line, /bash \(shell\)/);
  // Columns start at the same terminal cell on every line (the emoji takes two cells).
  const cells = (text) => [...text].reduce((n, ch) => n + (/\p{Extended_Pictographic}/u.test(ch) ? 2 : 1), 0);
  const start = (line, word) => cells(line.slice(0, line.indexOf(word)));
  const column = start(lines[0], 'STATUS');
  for (const line of lines.slice(1)) assert.equal(start(line, 'running'), column, `aligned:\n${r.stdout}`);
});

test('`wharf completion bash` completes verbs and, with a daemon, session names; zsh gets a script too', async (t) => {
  const script = await runWharf(['completion', 'bash']);
  assert.equal(script.code, 0, script.stderr);
  const complete = (words, env = {}) => new Promise((resolve, reject) => {
    const program = `source /dev/stdin <<'WHARF_COMPLETION'\n${script.stdout}\nWHARF_COMPLETION\n`
      + `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _wharf; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const child = spawn('bash', ['--norc', '--noprofile', '-c', program], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out.split('\n').filter(Boolean)) : reject(new Error(`bash exited ${code}: ${err}`))));
  });
  assert.deepEqual(await complete([wharfBin, 'l']), ['ls']);
  assert.deepEqual(await complete([wharfBin, 'read-screen', '--sc']), ['--scrollback']);
  const d = await startDaemon();
  t.after(() => stopDaemon(d));
  const id = await newSession(d, 'build');
  assert.deepEqual(await complete([wharfBin, 'read-screen', 'bu'], { WHARF_STATE_DIR: d.stateDir }), ['build']);
  assert.deepEqual(await complete([wharfBin, 'kill', '--state-dir', d.stateDir, '']), [String(id), 'build']);
  assert.ok((await complete([wharfBin, 'new', '--shell', 'ba'], { WHARF_STATE_DIR: d.stateDir })).includes('bash'));
  const zsh = await runWharf(['completion', 'zsh']);
  assert.equal(zsh.code, 0, zsh.stderr);
  assert.match(zsh.stdout, /compdef _wharf wharf/);
});

test('`wharf config check` says OK with the path, or the error with its line, without starting', async (t) => {
  const dir = tempDir(t);
  const good = join(dir, 'good.toml');
  writeFileSync(good, '[server]\nport = 7400\nlog_level = "debug"\n');
  const ok = await runWharf(['config', 'check', '--config', good]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout, `config OK: ${good}\n`);
  const bad = join(dir, 'bad.toml');
  writeFileSync(bad, '[server]\nport = 7400\nlog_levle = "debug"\n');
  const refused = await runWharf(['config', 'check', '--config', bad]);
  assert.equal(refused.code, 1);
  assert.equal(refused.stdout, '');
  assert.match(refused.stderr, new RegExp(`^wharf: config: ${bad}:3: .*log_levle`));
  const missing = await runWharf(['config', 'check', '--config', join(dir, 'nope.toml')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /does not exist/);
});

test('logs: the version at start, page files at debug only, --log-format json, and no colour without a terminal or with NO_COLOR', async (t) => {
  const d = await startDaemon({ args: ['--log-format', 'json'] });
  t.after(() => stopDaemon(d));
  const version = (await runWharf(['version'])).stdout.trim().replace(/^wharf /, '');
  assert.equal((await httpGet(d, `/?k=${d.key}`)).status, 200); // accepted
  assert.equal((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } })).status, 200);
  await waitFor(() => d.stderr.includes('/api/status'), { what: `the API call in the log:\n${d.stderr}` });
  const lines = d.stderr.trimEnd().split('\n');
  const records = lines.map((line) => JSON.parse(line));
  for (const r of records) {
    assert.deepEqual(Object.keys(r), ['time', 'level', 'msg']);
    assert.match(r.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  }
  const serving = records.find((r) => r.msg.includes('serving'));
  assert.ok(serving?.msg.includes(`(version ${version},`), `the start line names version ${version}:\n${d.stderr}`);
  assert.ok(!records.some((r) => /^GET \/(\?|$)/.test(r.msg)), `the page load is not in the info log:\n${d.stderr}`);

  // Text logs through a pipe, and through a terminal with NO_COLOR, carry no escapes.
  const plain = await startDaemon();
  t.after(() => stopDaemon(plain));
  assert.ok(!plain.stderr.includes('\x1b['), plain.stderr);
  const stateDir = tempDir(t);
  const child = spawn('script', ['-qfec', `${wharfBin} serve --port 0 --state-dir ${stateDir}`, '/dev/null'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', XDG_CONFIG_HOME: join(stateDir, 'config') }, stdio: ['pipe', 'pipe', 'pipe'],
  });
  t.after(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  let tty = '';
  child.stdout.on('data', (c) => { tty += c; });
  await waitFor(() => /wharf serving/.test(tty), { timeout: 15000, what: `the log through a terminal:\n${tty}` });
  assert.ok(!tty.includes('\x1b['), `NO_COLOR: no colour escapes on a terminal:\n${JSON.stringify(tty)}`);
  child.stdin.write('\x03');
  await within(new Promise((resolve) => child.on('close', resolve)), 20000, 'the daemon in the terminal to stop');
});

test('a control socket peer of another user is refused with a message, not a broken pipe', { skip: process.getuid() !== 0 && 'needs root to run a daemon as another user' }, async (t) => {
  // A daemon of `nobody`; root (who may open any socket) is another user to it.
  const stateDir = tempDir(t);
  // The clone may sit in a directory only root can enter (a fresh mktemp -d, /root): the
  // daemon of nobody gets its own copy of the page.
  const assets = join(stateDir, 'web');
  cpSync(join(dirname(wharfBin), 'web'), assets, { recursive: true });
  spawnSync('chown', ['-R', '65534:65534', stateDir]);
  const child = spawn('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', wharfBin, 'serve', '--port', '0', '--state-dir', stateDir, '--assets', assets], {
    cwd: stateDir, env: { PATH: process.env.PATH, HOME: stateDir, XDG_CONFIG_HOME: join(stateDir, 'config') }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  t.after(async () => { if (child.exitCode === null) { child.kill('SIGTERM'); await within(exited, 20000, 'the daemon to stop'); } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => { stdout += c; });
  child.stderr.on('data', (c) => { stderr += c; });
  await waitFor(() => stdout.includes('\n') || child.exitCode !== null, { timeout: 15000, what: 'the URL line' });
  assert.ok(stdout.includes('\n'), `the daemon of nobody did not start:\n${stderr}`);
  const r = await runWharf(['ls', '--state-dir', stateDir]);
  assert.equal(r.signal, null, 'no SIGPIPE');
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^wharf: this wharf daemon belongs to another user/);
});
