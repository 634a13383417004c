// Typed launch on the real daemon (issue 4): the catalog from a config file, the
// environment layers as a session's program sees them, every refusal leaving no session
// and no process, directory escapes, the moving defaults, /api/status and /api/dirs, and
// the database holding names but never values or prompts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { sessionPrograms, environOf, httpGet, openWs, runWharf, stopDaemon } from '../support/ws_client.mjs';

// A workspace with sub-directories, a file, a symlink leading out, and a repo env layer;
// a config defining actions that print their environment and stay up.
function setup(t, { repoEnv = 'ACME_TICKET=repo\nACME_REGION=repo\n', extraConfig = '' } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'wharf-launch-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const workspace = join(root, 'ws');
  for (const dir of ['apps/api', 'apps/web', 'docs', '.git/objects', 'node_modules/x', '.hidden']) mkdirSync(join(workspace, dir), { recursive: true });
  writeFileSync(join(workspace, 'README'), 'x');
  mkdirSync(join(root, 'outside'));
  symlinkSync(join(root, 'outside'), join(workspace, 'escape'));
  if (repoEnv !== null) {
    mkdirSync(join(workspace, '.wharf'));
    writeFileSync(join(workspace, '.wharf', 'env'), repoEnv);
  }
  const config = join(root, 'config.toml');
  writeFileSync(config, `
[env]
ACME_ACCOUNT = "machine"
ACME_TICKET = "machine"
ACME_REGION = "machine"

[actions.printenv]
argv = ["sh", "-c", "env | grep -E '^(ACME|WHARF)_' | sort; echo PWD=$PWD; echo READY; exec sleep 600"]
interactive = true

[actions.oneshot]
argv = ["true"]

[agents.echoer]
argv = ["sh", "-c", "echo \\"PROMPT<$1>\\"; exec sleep 600", "echoer"]
prompt = "argument"
${extraConfig}
`);
  return { root, workspace, config };
}

async function daemonFor(t, s, env = {}) {
  const d = await startDaemon({ args: ['--config', s.config, '--workspace', s.workspace], env });
  t.after(() => stopDaemon(d));
  return d;
}

const wharf = (d, args) => runWharf([...args, '--state-dir', d.stateDir]);

async function listSessions(d) {
  const r = await wharf(d, ['ls', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

async function screenText(d, id) {
  const r = await wharf(d, ['read-screen', String(id)]);
  return r.code === 0 ? r.stdout : '';
}

async function startAndRead(d, args, { until = 'READY' } = {}) {
  const r = await wharf(d, ['new', ...args]);
  assert.equal(r.code, 0, `wharf new ${args.join(' ')}: ${r.stderr}`);
  const id = Number(r.stdout.trim());
  const text = await waitFor(async () => { const s = await screenText(d, id); return s.includes(until) ? s : null; }, { what: `${until} on session ${id}` });
  return { id, text };
}

test('environment precedence: session over repo over machine, as the program sees it', async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const { text } = await startAndRead(d, ['--action', 'printenv', '--env', 'ACME_REGION=session', '--env', 'ACME_RUN=7']);
  assert.match(text, /^ACME_ACCOUNT=machine$/m);
  assert.match(text, /^ACME_TICKET=repo$/m);
  assert.match(text, /^ACME_REGION=session$/m);
  assert.match(text, /^ACME_RUN=7$/m);
  assert.match(text, /^WHARF_SESSION_ID=\d+$/m);
  assert.doesNotMatch(text, /WHARF_KEY/);
  // Values are literal: no expansion.
  const literal = await startAndRead(d, ['--action', 'printenv', '--env', 'ACME_LIT=$HOME']);
  assert.match(literal.text, /^ACME_LIT=\$HOME$/m);
});

test('every WHARF_* variable a session is given is one a session may not set (drift guard)', async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const { id } = await startAndRead(d, ['--action', 'printenv']);
  const pid = (await listSessions(d)).find((x) => x.id === id).pid;
  const names = environOf(pid).map((e) => e.slice(0, e.indexOf('='))).filter((n) => n.startsWith('WHARF_'));
  assert.ok(names.includes('WHARF_SESSION_ID'), names.join(','));
  for (const name of names) {
    const r = await wharf(d, ['new', '--action', 'printenv', '--env', `${name}=x`]);
    assert.notEqual(r.code, 0, `${name} is set by wharf but a session may still set it`);
    assert.match(r.stderr, /set by wharf/);
  }
});

test('refusals start nothing: no session, no process, and say why', async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const ws = await openWs(d);
  t.after(() => ws.close());
  await ws.handshake();
  const before = { sessions: (await listSessions(d)).length, children: sessionPrograms(d).length };

  const viaWs = [
    [{ agent: 'skynet' }, /unknown agent 'skynet'/],
    [{ agent: 'gemini' }, /not installed/],
    [{ kind: 'action', entry: 'oneshot' }, /not marked interactive/],
    [{ shell: 'bash', cwd: '../' }, /outside the workspace/],
    [{ shell: 'bash', cwd: '/etc' }, /outside the workspace/],
    [{ shell: 'bash', cwd: 'escape' }, /outside the workspace/],
    [{ shell: 'bash', cwd: 'apps/nope' }, /not an existing directory/],
    [{ shell: 'bash', cwd: 'README' }, /not an existing directory/],
    [{ shell: 'bash', env: { WHARF_SESSION_ID: '1' } }, /set by wharf/],
    [{ shell: 'bash', env: { '1BAD': 'x' } }, /not a variable name/],
    [{ shell: 'bash', env: { '': 'x' } }, /needs a name/],
    [{ shell: 'bash', env: { NUL: 'a\u0000b' } }, /NUL/],
    [{ shell: 'bash', env: ['A=1'] }, /must be an object/],
    [{ shell: 'bash', prompt: 'ls' }, /takes no prompt/],
    [{ shell: 'bash', command: 'rm -rf /' }, /there is no 'command' field/],
    [{ kind: 'program', entry: '/bin/sh' }, /kind/],
  ];
  for (const [fields, pattern] of viaWs) {
    const reply = await ws.newSession(fields);
    assert.equal(reply.type, 'error', `${JSON.stringify(fields)} → ${JSON.stringify(reply)}`);
    assert.match(reply.message, pattern, JSON.stringify(fields));
  }
  const viaCli = [
    [['--shell', 'bash', '--env', 'NOEQUALS'], /has no '='/],
    [['--shell', 'bash', '--env', 'A=1', '--env', 'A=2'], /given twice/],
    [['--shell', 'bash', '--env', '=x'], /needs a name/],
    [['--agent', 'skynet'], /unknown agent/],
    [['--shell', 'bash', '--cwd', join(s.root, 'outside')], /outside the workspace/],
  ];
  for (const [args, pattern] of viaCli) {
    const r = await wharf(d, ['new', ...args]);
    assert.notEqual(r.code, 0, args.join(' '));
    assert.match(r.stderr, pattern, args.join(' '));
  }
  assert.equal((await listSessions(d)).length, before.sessions, 'no session was started');
  assert.equal(sessionPrograms(d).length, before.children, 'no process was started');
});

test('a .wharf/env that breaks the rules refuses every start until fixed', async (t) => {
  const s = setup(t, { repoEnv: 'ACME_OK=1\nLD_PRELOAD=/tmp/evil.so\n' });
  const d = await daemonFor(t, s);
  const r = await wharf(d, ['new', '--shell', 'bash']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /\.wharf\/env:2: .*dynamic loader/);
  assert.equal((await listSessions(d)).length, 0);
  writeFileSync(join(s.workspace, '.wharf', 'env'), 'ACME_OK=1\n');
  const fixed = await startAndRead(d, ['--action', 'printenv']);
  assert.match(fixed.text, /^ACME_OK=1$/m);
});

test('a session starts in the directory it names, inside the workspace', async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const { text } = await startAndRead(d, ['--action', 'printenv', '--cwd', join(s.workspace, 'apps/api')]);
  assert.match(text, new RegExp(`^PWD=${join(s.workspace, 'apps/api')}$`, 'm'));
});

test('defaults move with wharf agent, POST /api/agent and /api/cwd; live sessions keep theirs', async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const headers = { 'X-Wharf-Key': d.key, 'Content-Type': 'application/json' };
  const post = (path, body, extra = {}) => httpPost(d, path, JSON.stringify(body), { ...headers, ...extra });

  const shown = await wharf(d, ['agent']);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /\(shell\)/);

  const first = await startAndRead(d, ['--action', 'printenv']);
  const moved = await wharf(d, ['agent', 'echoer']);
  assert.equal(moved.code, 0, moved.stderr);
  assert.match(moved.stdout, /echoer \(agent\)/);
  let status = JSON.parse((await httpGet(d, '/api/status', { headers })).body);
  assert.equal(status.default_agent, 'echoer');
  assert.equal(status.default_kind, 'agent');

  const refusedAgent = await post('/api/agent', { agent: 'skynet' });
  assert.equal(refusedAgent.status, 404);
  assert.match(JSON.parse(refusedAgent.body).error.message, /unknown/);
  const crossSite = await post('/api/agent', { agent: 'printenv' }, { Origin: 'https://evil.example' });
  assert.equal(crossSite.status, 403);
  const notJson = await httpPost(d, '/api/agent', 'agent=printenv', { 'X-Wharf-Key': d.key, 'Content-Type': 'application/x-www-form-urlencoded' });
  assert.equal(notJson.status, 400);
  const noKey = await httpPost(d, '/api/agent', JSON.stringify({ agent: 'printenv' }), { 'Content-Type': 'application/json' });
  assert.equal(noKey.status, 401);
  const viaApi = await post('/api/agent', { agent: 'action:printenv' }, { Origin: d.origin });
  assert.equal(viaApi.status, 200, viaApi.body);

  const escape = await post('/api/cwd', { cwd: '../..' });
  assert.equal(escape.status, 422);
  const cwd = await post('/api/cwd', { cwd: 'apps/web' });
  assert.equal(cwd.status, 200, cwd.body);
  assert.equal(JSON.parse(cwd.body).default_cwd, 'apps/web');

  // `wharf new` with nothing named starts the new default, in the new directory.
  const second = await startAndRead(d, []);
  assert.match(second.text, new RegExp(`^PWD=${join(s.workspace, 'apps/web')}$`, 'm'));
  status = JSON.parse((await httpGet(d, '/api/status', { headers })).body);
  assert.equal(status.running.printenv, 2);
  assert.equal(status.sessions, 2);
  assert.equal(typeof status.attached, 'number');
  assert.ok(status.catalog.some((e) => e.kind === 'agent' && e.name === 'echoer' && e.installed));
  assert.ok(status.catalog.some((e) => e.kind === 'agent' && e.name === 'gemini' && !e.installed));
  // The first session still runs where and what it started with.
  const rows = await listSessions(d);
  assert.equal(rows.find((r) => r.id === first.id).cwd, s.workspace);
});

test('GET /api/dirs: bounded suggestions, documented shape, key required', async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const refused = await httpGet(d, '/api/dirs');
  assert.equal(refused.status, 401);
  const r = await httpGet(d, '/api/dirs', { headers: { 'X-Wharf-Key': d.key } });
  assert.equal(r.status, 200);
  const body = JSON.parse(r.body);
  assert.equal(body.workspace, s.workspace);
  assert.equal(body.default, '.');
  assert.equal(body.truncated, false);
  for (const dir of ['apps', 'apps/api', 'apps/web', 'docs']) assert.ok(body.dirs.includes(dir), `${dir} in ${body.dirs}`);
  for (const hidden of ['.git', '.hidden', 'node_modules', 'escape', 'README', '.wharf']) assert.ok(!body.dirs.includes(hidden), `${hidden} not listed`);
  const statusRefused = await httpGet(d, '/api/status');
  assert.equal(statusRefused.status, 401);
});

test('a prompt reaches the agent as its argument; prompt and env values never reach the database', async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const secret = `SECRET-${randomBytes(8).toString('hex')}`;
  const prompt = `PROMPT-${randomBytes(8).toString('hex')}`;
  const { id, text } = await startAndRead(d, ['--agent', 'echoer', '--prompt', prompt, '--env', `ACME_SECRET=${secret}`], { until: 'PROMPT<' });
  assert.ok(text.includes(`PROMPT<${prompt}>`), text);
  // A prompt that looks like an option is still a message.
  const dashed = await startAndRead(d, ['--agent', 'echoer', '--prompt', '--help'], { until: 'PROMPT<' });
  assert.ok(dashed.text.includes('PROMPT< --help>'), dashed.text);
  await wharf(d, ['kill', String(id)]);
  await waitFor(async () => !(await listSessions(d)).some((x) => x.id === id), { what: 'session ended' });
  const history = await wharf(d, ['history', '--json']);
  assert.equal(history.code, 0, history.stderr);
  const row = JSON.parse(history.stdout).find((r) => r.id === id);
  assert.ok(row, history.stdout);
  assert.deepEqual(row.env_names.filter((n) => n.startsWith('ACME_')).sort(), ['ACME_ACCOUNT', 'ACME_REGION', 'ACME_SECRET', 'ACME_TICKET']);
  assert.equal(row.kind, 'agent');
  assert.equal(row.entry, 'echoer');
  // Stopped by hand so that the state dir (and the database in it) stays to be read.
  d.child.kill('SIGTERM');
  assert.equal((await d.exited).code, 0);
  t.after(() => rmSync(d.stateDir, { recursive: true, force: true }));
  for (const file of readdirSync(d.stateDir).filter((f) => f.startsWith('wharf.db'))) {
    const bytes = readFileSync(join(d.stateDir, file));
    assert.ok(!bytes.includes(secret), `${file} holds an env value`);
    assert.ok(!bytes.includes(prompt), `${file} holds a prompt`);
  }
});

test('config errors stop the start with file, line and reason', async (t) => {
  const s = setup(t);
  writeFileSync(s.config, '[server]\nport = 1\nprot = 2\n');
  const bad = await runWharf(['serve', '--port', '0', '--config', s.config, '--state-dir', join(s.root, 'state')]);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, new RegExp(`${s.config.replace(/[.]/g, '\\.')}:3: unknown key 'prot'`));
  writeFileSync(s.config, '[actions.up]\nargv = ["sudo", "apt", "upgrade"]\ninteractive = true\n');
  const sudo = await runWharf(['serve', '--port', '0', '--config', s.config, '--state-dir', join(s.root, 'state')]);
  assert.notEqual(sudo.code, 0);
  assert.match(sudo.stderr, /:1: .*sudo or doas/);
  const missing = await runWharf(['serve', '--port', '0', '--config', join(s.root, 'nope.toml'), '--state-dir', join(s.root, 'state')]);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /does not exist/);
  writeFileSync(s.config, '[sessions]\ndefault = "skynet"\n');
  const unknownDefault = await runWharf(['serve', '--port', '0', '--config', s.config, '--state-dir', join(s.root, 'state')]);
  assert.notEqual(unknownDefault.code, 0);
  assert.match(unknownDefault.stderr, /default entry: unknown/);
});

function httpPost(d, path, body, headers) {
  return httpGet(d, path, { method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) }, body });
}

test('dangerous environment names are refused at every door unless the operator allows them', async (t) => {
  const s = setup(t, { extraConfig: '[sessions]\nallow_env = ["PATH"]\n' });
  const d = await daemonFor(t, s);
  const before = { sessions: (await listSessions(d)).length, children: sessionPrograms(d).length };
  const key = { 'X-Wharf-Key': d.key, 'Content-Type': 'application/json' };
  const ws = await openWs(d);
  t.after(() => ws.close());
  await ws.handshake();
  for (const name of ['LD_PRELOAD', 'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'NODE_OPTIONS', 'GIT_SSH_COMMAND']) {
    const cli = await wharf(d, ['new', '--action', 'printenv', '--env', `${name}=/tmp/evil`]);
    assert.notEqual(cli.code, 0, `CLI: ${name} was accepted`);
    assert.match(cli.stderr, new RegExp(`'${name}'.*allow_env`), cli.stderr);
    assert.doesNotMatch(cli.stderr, /\/tmp\/evil/, 'the value is never quoted');
    const rest = await httpGet(d, '/api/v1/sessions', { method: 'POST', headers: key, body: JSON.stringify({ kind: 'action', entry: 'printenv', env: { [name]: '/tmp/evil' } }) });
    assert.equal(rest.status, 400, `REST: ${name}: ${rest.body}`);
    const refusal = JSON.parse(rest.body);
    assert.equal(refusal.code ?? refusal.error?.code, 'bad_env', rest.body);
    assert.match(JSON.stringify(refusal), /allow_env/);
    const reply = await ws.newSession({ kind: 'action', entry: 'printenv', env: { [name]: '/tmp/evil' } });
    assert.equal(reply.type, 'error', `WebSocket: ${name}: ${JSON.stringify(reply)}`);
    assert.match(reply.message, /allow_env/);
  }
  assert.equal((await listSessions(d)).length, before.sessions, 'no session was started');
  assert.equal(sessionPrograms(d).length, before.children, 'no process was started');
  // PATH is allowed by this config: over the CLI and over REST it reaches the program.
  const { id } = await startAndRead(d, ['--action', 'printenv', '--env', 'PATH=/opt/acme/bin:/usr/bin:/bin']);
  const pid = (await listSessions(d)).find((x) => x.id === id).pid;
  assert.ok(environOf(pid).includes('PATH=/opt/acme/bin:/usr/bin:/bin'), 'PATH from --env');
  const rest = await httpGet(d, '/api/v1/sessions', { method: 'POST', headers: key, body: JSON.stringify({ kind: 'action', entry: 'printenv', env: { PATH: '/opt/rest/bin:/usr/bin:/bin' } }) });
  assert.ok(rest.status === 200 || rest.status === 201, `${rest.status} ${rest.body}`);
  const restPid = JSON.parse(rest.body).pid;
  assert.ok(environOf(restPid).includes('PATH=/opt/rest/bin:/usr/bin:/bin'), 'PATH from REST');
});

test('PATH from a request is refused where the config does not allow it', async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const r = await wharf(d, ['new', '--action', 'printenv', '--env', 'PATH=/tmp/evil']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /'PATH' chooses which program every command name runs/);
});
