// wharf under systemd: the daemon tells a Type=notify unit when it is ready (READY=1,
// once both listeners accept), when it restarts in place (RELOADING=1, then READY=1 from
// the new image) and when it stops (STOPPING=1), on the socket NOTIFY_SOCKET names,
// played here by a small listener (tests/tools/notify_listener.cpp). With stderr as the
// journal (JOURNAL_STREAM), log lines carry `<N>` priorities and no timestamp or colour,
// and the key stays out of the journal. `wharf service install|uninstall` writes and
// removes the user unit and drives systemctl (a stand-in that records its arguments).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, fstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { startDaemon, waitFor, wharfBin, killHosts } from '../support/daemon.mjs';
import { runWharf, stopDaemon } from '../support/ws_client.mjs';

const listenerBin = process.env.WHARF_NOTIFY_LISTENER
  ?? new URL('../../build/tests/wharf_notify_listener', import.meta.url).pathname;

function scratch(t) {
  const dir = mkdtempSync(join(tmpdir(), 'wharf-service-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Binds a datagram socket at `path`; `messages` holds what arrived, one string each.
async function notifySocket(t, path) {
  const child = spawn(listenerBin, [path], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => child.kill('SIGKILL'));
  const messages = [];
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    let nl;
    while ((nl = out.indexOf('\n')) >= 0) { messages.push(out.slice(0, nl)); out = out.slice(nl + 1); }
  });
  await waitFor(() => messages.includes('listening'), { what: 'the notify socket to be bound' });
  messages.length = 0;
  return messages;
}

function portAnswers(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => { socket.destroy(); resolve(true); });
    socket.on('error', () => resolve(false));
  });
}

test('READY=1 once wharf listens, RELOADING=1 and READY=1 on a restart, STOPPING=1 on a stop', async (t) => {
  const dir = scratch(t);
  const socketPath = join(dir, 'notify.sock');
  const messages = await notifySocket(t, socketPath);
  const d = await startDaemon({ env: { NOTIFY_SOCKET: socketPath } });
  const ready = await waitFor(() => messages.find((m) => m.startsWith('READY=1')), { what: 'READY=1' });
  // The status names the port it listens on, and that port accepts.
  const port = Number(/:(\d+)$/.exec(ready)[1]);
  assert.equal(port, d.port, ready);
  assert.ok(await portAnswers(port));
  assert.deepEqual(messages.filter((m) => m.startsWith('STOPPING')), []);

  const restarted = await runWharf(['restart', '--state-dir', d.stateDir]);
  assert.equal(restarted.code, 0, restarted.stderr);
  await waitFor(() => messages.filter((m) => m.startsWith('READY=1')).length === 2,
    { timeout: 20000, what: 'READY=1 from the restarted daemon' });
  assert.ok(messages.some((m) => m === 'RELOADING=1'), messages.join('\n'));
  assert.deepEqual(messages.filter((m) => m.startsWith('STOPPING')), [], 'a restart is no stop');

  await stopDaemon(d);
  await waitFor(() => messages.includes('STOPPING=1'), { what: 'STOPPING=1' });
});

test('with stderr as the journal, lines carry <N> priorities, no timestamps or colour, and no key', async (t) => {
  const dir = scratch(t);
  const stateDir = join(dir, 'state');
  const logFile = join(dir, 'journal.log');
  const fd = openSync(logFile, 'w');
  const { dev, ino } = fstatSync(fd, { bigint: true });
  const key = 'a'.repeat(32);
  const child = spawn(wharfBin, ['serve', '--port', '0', '--state-dir', stateDir], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, WHARF_KEY: key, XDG_CONFIG_HOME: join(dir, 'config'),
      JOURNAL_STREAM: `${dev}:${ino}` },
    // Under systemd stdout and stderr are one stream to the journal.
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  t.after(() => { child.kill('SIGKILL'); killHosts(stateDir); });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  await waitFor(() => readFileSync(logFile, 'utf8').includes('wharf serving'), { what: 'the start to be logged' });
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  const all = readFileSync(logFile, 'utf8').trimEnd().split('\n');
  const address = all.filter((l) => l.startsWith('http'));
  const lines = all.filter((l) => !l.startsWith('http'));
  for (const line of lines) {
    assert.match(line, /^<[0-7]>\S/, `no priority prefix: ${JSON.stringify(line)}`);
    assert.doesNotMatch(line, /\d{4}-\d\d-\d\d \d\d:\d\d/, 'the journal stamps lines itself');
    assert.doesNotMatch(line, /\x1b/, 'no colour');
  }
  assert.ok(lines.some((l) => l.startsWith('<6>wharf serving')), lines.join('\n'));
  // The one stdout line is the address without its key: the journal is readable by more
  // than its owner (the adm group).
  assert.equal(address.length, 1, all.join('\n'));
  assert.match(address[0], /^http:\/\/127\.0\.0\.1:\d+\/ \(`wharf open` prints it with the key\)$/);
  assert.ok(!all.join('\n').includes(key), 'the key stays out of the journal');
});

test('a JOURNAL_STREAM that is not stderr (a program started from a unit) keeps the usual log', async (t) => {
  const d = await startDaemon({ env: { JOURNAL_STREAM: '1:1' } });
  t.after(() => stopDaemon(d));
  await waitFor(() => d.stderr.includes('wharf serving'), { what: 'the start to be logged' });
  assert.match(d.stderr, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} info /m);
  assert.ok(d.key && d.url.includes(`k=${d.key}`));
});

// A stand-in systemctl on PATH that appends its arguments to `log` and exits `status`.
function fakeSystemctl(dir, status = 0) {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const log = join(dir, 'systemctl.log');
  writeFileSync(join(bin, 'systemctl'), `#!/bin/sh\necho "$*" >> '${log}'\nexit ${status}\n`);
  chmodSync(join(bin, 'systemctl'), 0o755);
  return { bin, log };
}

test('wharf service install --dry-run prints the unit naming this binary and changes nothing', async (t) => {
  const dir = scratch(t);
  const home = join(dir, 'home');
  mkdirSync(home);
  const { bin, log } = fakeSystemctl(dir);
  const r = await runWharf(['service', 'install', '--dry-run'], { env: { HOME: home, PATH: bin } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Type=notify$/m);
  assert.match(r.stdout, /^KillMode=process$/m);
  assert.match(r.stdout, /^Restart=on-failure$/m);
  assert.ok(r.stdout.includes(`ExecStart=${wharfBin} serve --workspace %h\n`), r.stdout);
  assert.ok(r.stdout.includes(`ExecReload=${wharfBin} restart\n`), r.stdout);
  assert.match(r.stdout, /would run: systemctl --user enable --now wharf\.service/);
  assert.ok(!existsSync(join(home, '.config')), 'nothing written');
  assert.ok(!existsSync(log), 'systemctl not run');

  // A binary under HOME is named through %h, so the unit survives a moved home.
  const parent = dirname(dirname(wharfBin));
  const under = await runWharf(['service', 'install', '--dry-run'], { env: { HOME: parent, PATH: bin } });
  assert.ok(under.stdout.includes(`ExecStart=%h/${basename(dirname(wharfBin))}/wharf serve`), under.stdout);
});

test('wharf service install writes the unit and enables it; uninstall disables and removes it', async (t) => {
  const dir = scratch(t);
  const home = join(dir, 'home');
  mkdirSync(home);
  const { bin, log } = fakeSystemctl(dir);
  const unit = join(home, '.config/systemd/user/wharf.service');
  const r = await runWharf(['service', 'install'], { env: { HOME: home, PATH: bin } });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(readFileSync(unit, 'utf8').includes(`ExecStart=${wharfBin} serve`));
  assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'),
    ['--user daemon-reload', '--user enable --now wharf.service']);
  assert.match(r.stdout, /wharf open/);

  rmSync(log);
  const u = await runWharf(['service', 'uninstall'], { env: { HOME: home, PATH: bin } });
  assert.equal(u.code, 0, u.stderr);
  assert.ok(!existsSync(unit));
  assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'),
    ['--user disable --now wharf.service', '--user daemon-reload']);
});

test('wharf service install without systemd writes the unit and says what to run', async (t) => {
  const dir = scratch(t);
  const home = join(dir, 'home');
  mkdirSync(home);
  const config = join(dir, 'xdg');
  const r = await runWharf(['service', 'install'], { env: { HOME: home, PATH: join(dir, 'nothing'), XDG_CONFIG_HOME: config } });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(config, 'systemd/user/wharf.service')), 'XDG_CONFIG_HOME is where systemd looks');
  assert.match(r.stdout, /No systemd user manager answered/);
  assert.match(r.stdout, /systemctl --user enable --now wharf/);
  assert.match(r.stderr, /could not run/);
});
