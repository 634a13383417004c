// Sessions in a sandbox, as a user meets them (docs/sandbox.md): the real daemon starts
// sessions under the real bubblewrap, with `[sessions] sandbox = true` or `wharf new
// --sandbox`, and commands run inside them through `wharf run` show what the sandbox
// lets through: writes land only in the workspace, the state directory (the key) is not
// there, /proc holds only the session's own processes, the network is loopback alone. Each
// door shows the same capabilities, and what cannot be honoured is refused with a reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { openWs, runWharf, stopDaemon } from '../support/ws_client.mjs';

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', 'true']).status === 0;

function setup(t, extraConfig = '') {
  const root = mkdtempSync(join(tmpdir(), 'wharf-sandbox-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const workspace = join(root, 'ws');
  const outside = join(root, 'outside');
  mkdirSync(workspace);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'not for the sandbox\n');
  const config = join(root, 'config.toml');
  writeFileSync(config, `[sessions]\nsandbox = true\n${extraConfig}\n`);
  return { root, workspace, outside, config };
}

async function daemonFor(t, s) {
  const d = await startDaemon({ args: ['--config', s.config, '--workspace', s.workspace] });
  t.after(() => stopDaemon(d));
  return d;
}

const wharf = (d, args, opts) => runWharf([...args, '--state-dir', d.stateDir], opts);

async function newSession(d, args = []) {
  const r = await wharf(d, ['new', '--shell', 'bash', ...args]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim();
}

// Runs a shell line in the session; answers its output and status.
async function inSession(d, id, line) {
  const r = await wharf(d, ['run', '-t', id, '--timeout', '20', '-c', line], { timeout: 30000 });
  return { code: r.code, out: r.stdout, err: r.stderr };
}

async function sessionRow(d, id) {
  const r = await wharf(d, ['ls', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).find((s) => String(s.id) === id);
}

test('a sandboxed shell writes only its workspace, never sees the state dir, its /proc is its own, and has no network', { skip: !bwrapWorks && 'bubblewrap cannot run here', timeout: 120000 }, async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const id = await newSession(d);

  const row = await sessionRow(d, id);
  assert.deepEqual(row.capabilities, { sandboxed: true, writable: [s.workspace], readable: [], network: 'none', allow: [] });
  // `wharf ls` says it too: its network, in the SANDBOX column.
  const table = (await wharf(d, ['ls'])).stdout.split('\n');
  const at = table[0].indexOf('SANDBOX');
  assert.ok(at > 0, table[0]);
  assert.match(table.find((l) => l.startsWith(`${id} `)).slice(at), /^none\s/);

  // The workspace is writable, and what is written there is on the machine.
  let r = await inSession(d, id, 'echo made-inside > inside.txt && cat inside.txt');
  assert.equal(r.code, 0, r.err);
  assert.equal(readFileSync(join(s.workspace, 'inside.txt'), 'utf8'), 'made-inside\n');

  // Elsewhere: absent, or read-only.
  r = await inSession(d, id, `cat ${s.outside}/secret.txt`);
  assert.notEqual(r.code, 0, 'a file outside the declared paths is absent');
  r = await inSession(d, id, `echo x > ${s.outside}/planted.txt`);
  assert.notEqual(r.code, 0);
  assert.equal(existsSync(join(s.outside, 'planted.txt')), false);
  r = await inSession(d, id, 'echo x > /usr/planted.txt');
  assert.notEqual(r.code, 0, 'the system is read-only');
  r = await inSession(d, id, 'echo x > /tmp/scratch && cat /tmp/scratch');
  assert.equal(r.code, 0, `a private /tmp works: ${r.err}`);
  assert.equal(existsSync('/tmp/scratch'), false, 'and is not the machine\'s');

  // The key file and the whole state directory are out of reach.
  // Only what sessions are meant to read is shown there, read-only: wharf's settings for
  // the agents, the context note, the opencode plugin and the shell integration.
  const onHost = (await import('node:fs')).readdirSync(d.stateDir);
  assert.ok(onHost.length > 5, `the state dir on the machine holds more: ${onHost}`);
  r = await inSession(d, id, `ls -A ${d.stateDir}`);
  const seen = r.out.split(/\s+/).filter(Boolean);
  assert.ok(seen.every((name) => ['claude-settings.json', 'context-note.md', 'opencode', 'shell'].includes(name)), `the state dir shows only what sessions read: ${seen}`);
  for (const secret of onHost.filter((name) => /key|sqlite|hosts|devices|tls|vapid/.test(name))) {
    r = await inSession(d, id, `test -e ${d.stateDir}/${secret} && echo present || echo absent`);
    assert.match(r.out, /absent/, `${secret} is out of reach`);
  }
  r = await inSession(d, id, `echo x >> ${d.stateDir}/context-note.md`);
  assert.notEqual(r.code, 0, 'what is shown is read-only');

  // /proc: the session's own processes only; the daemon is not among them.
  r = await inSession(d, id, `test -e /proc/${d.child.pid} && echo daemon-visible; ls /proc | grep -c '^[0-9]*$'`);
  assert.equal(r.code, 0, r.err);
  assert.doesNotMatch(r.out, /daemon-visible/);
  assert.ok(Number(r.out.trim().split('\n').pop()) < 10, `few processes: ${r.out}`);

  // No network: not even the daemon's own port on the machine's loopback.
  const port = new URL(d.url).port;
  r = await inSession(d, id, `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo reached || echo unreachable`);
  assert.match(r.out, /unreachable/);
  r = await inSession(d, id, 'getent hosts example.com || echo no-dns');
  assert.match(r.out, /no-dns/);
});

test('--no-sandbox and --sandbox choose for one session; every door shows the same capabilities', { skip: !bwrapWorks && 'bubblewrap cannot run here', timeout: 120000 }, async (t) => {
  const s = setup(t);
  const d = await daemonFor(t, s);
  const open = await newSession(d, ['--no-sandbox']);
  assert.deepEqual((await sessionRow(d, open)).capabilities, { sandboxed: false });
  const r = await inSession(d, open, `cat ${s.outside}/secret.txt`);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /not for the sandbox/);

  // A session asked for with --sandbox (here the default anyway) is one.
  const boxed = await newSession(d, ['--sandbox']);
  const boxedRow = await sessionRow(d, boxed);
  assert.equal(boxedRow.capabilities.sandboxed, true);

  // REST and MCP read the same lists: the sessions, and what each entry would get.
  const api = async (path) => {
    const res = await fetch(`${d.origin}/api/v1/${path}`, { headers: { 'X-Wharf-Key': d.key } });
    assert.equal(res.status, 200, path);
    return res.json();
  };
  const sessions = await api('sessions');
  const listed = (sessions.sessions ?? sessions.result?.sessions).find((x) => String(x.id) === boxed);
  assert.deepEqual(listed.capabilities, boxedRow.capabilities);
  const entries = await api('entries');
  const bash = (entries.entries ?? entries.result?.entries).find((e) => e.kind === 'shell' && e.entry === 'bash');
  assert.deepEqual(bash.capabilities, boxedRow.capabilities, 'the launcher sees beforehand what the session gets');
  const status = await (await fetch(`${d.origin}/api/status`, { headers: { 'X-Wharf-Key': d.key } })).json();
  const inStatus = JSON.stringify(status);
  assert.match(inStatus, /"sandboxed":true/, '/api/status shows the capabilities too');
});

test('what cannot be honoured is refused with a reason: a path outside the roots, a bad allow line', { skip: !bwrapWorks && 'bubblewrap cannot run here', timeout: 60000 }, async (t) => {
  const s = setup(t, `[shells.bash.filesystem]\nwritable = ["/srv/elsewhere"]\n\n[shells.sh]\nnetwork = "allow"\nallow = ["not a host"]\n`);
  const d = await daemonFor(t, s);
  let r = await wharf(d, ['new', '--shell', 'bash']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /\/srv\/elsewhere is outside what wharf lets an entry declare/);
  r = await wharf(d, ['new', '--shell', 'sh']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /allow/);
  // Nothing was left behind.
  const list = JSON.parse((await wharf(d, ['ls', '--json'])).stdout);
  assert.equal(list.length, 0);
});

test('a restarted daemon takes a sandboxed session over with its capabilities, and its channel answers again', { skip: !bwrapWorks && 'bubblewrap cannot run here', timeout: 120000 }, async (t) => {
  const s = setup(t);
  const d1 = await startDaemon({ key: null, args: ['--config', s.config, '--workspace', s.workspace, '--keep-sessions'] });
  const id = await newSession(d1);
  const before = await sessionRow(d1, id);
  d1.child.kill('SIGINT');
  assert.equal((await d1.exited).code, 0);

  const d2 = await startDaemon({ stateDir: d1.stateDir, key: null, args: ['--config', s.config, '--workspace', s.workspace] });
  t.after(() => stopDaemon(d2));
  const after = await sessionRow(d2, id);
  assert.deepEqual(after.capabilities, before.capabilities, 'the host kept what the sandbox enforces');
  // `wharf notify` inside reaches the new daemon through the session's channel, made
  // again where the sandbox looks for it.
  const ws = await openWs(d2);
  t.after(() => ws.close());
  // A taken-over shell shows its prompt marks again from its next prompt on.
  assert.equal((await wharf(d2, ['send-keys', '-t', id, 'Enter'])).code, 0);
  let r;
  await waitFor(async () => (r = await inSession(d2, id, '/run/wharf/wharf notify waiting')).code === 0,
    { timeout: 20000, interval: 500, what: 'notify from inside the sandbox' }).catch(() => {});
  assert.equal(r.code, 0, r.out + r.err);
  await waitFor(() => ws.messages.some((m) => m.type === 'sessions' &&
    m.sessions.some((x) => String(x.id) === id && x.activity === 'waiting')), { what: 'the session marked waiting' });
});
