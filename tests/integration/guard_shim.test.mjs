// The git/gh shim (docs/sandbox.md, "Guards") as a sandboxed program meets it: the wharf
// binary started under the name `git` or `gh`. A Unix socket served by this test plays the
// daemon's session channel, so each answer (pending, approved + exited, denied, expired,
// error, a lost connection) and the shim's exit status and words can be checked. The
// daemon side (fds, decisions, the real run) has its own tests (session_channel_test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, symlinkSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const WHARF = process.env.WHARF_BIN;
const dir = mkdtempSync(path.join(os.tmpdir(), 'wharf-shim-'));
for (const name of ['git', 'gh']) symlinkSync(WHARF, path.join(dir, name));

// Runs the shim; resolves with its exit code and output.
function run(name, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(path.join(dir, name), args, {
      cwd: dir,
      env: { PATH: '/usr/bin:/bin', HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

// A channel that answers every request with `answer(request, socket)`; collects requests.
async function channel(answer) {
  const socketPath = path.join(dir, `channel-${Math.random().toString(16).slice(2)}.sock`);
  const requests = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    socket.on('data', (data) => {
      buffer += data;
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      const request = JSON.parse(buffer.slice(0, newline));
      requests.push(request);
      answer(request, socket);
    });
    socket.on('error', () => {});
  });
  await new Promise((resolve) => server.listen(socketPath, resolve));
  return { socketPath, requests, close: () => new Promise((r) => server.close(r)) };
}

const line = (obj) => JSON.stringify(obj) + '\n';

test('a guarded command waits for approval and exits with the real command status', async () => {
  const ch = await channel((request, socket) => {
    socket.write(line({ type: 'pending', id: 12, expires_in_s: 600 }));
    socket.write(line({ type: 'approved', by: 'phone' }));
    socket.end(line({ type: 'exited', code: 3 }));
  });
  const result = await run('git', ['-C', dir, 'push', 'origin', 'main'], { WHARF_CHANNEL: ch.socketPath });
  await ch.close();
  assert.equal(result.code, 3);
  assert.match(result.stderr,
    new RegExp('wharf: `git -C \\S+ push origin main` needs your approval \\(decision 12\\); ' +
      'answer it in the page, `wharf decisions`, or MCP\\.'));
  assert.equal(ch.requests.length, 1);
  assert.equal(ch.requests[0].type, 'guard');
  assert.deepEqual(ch.requests[0].argv.slice(1), ['-C', dir, 'push', 'origin', 'main']);
  assert.equal(ch.requests[0].cwd, dir);
});

test('a signal that ended the real command becomes 128 + N', async () => {
  const ch = await channel((request, socket) => {
    socket.write(line({ type: 'pending', id: 1, expires_in_s: 60 }));
    socket.write(line({ type: 'approved', by: 'cli' }));
    socket.end(line({ type: 'exited', signal: 9 }));
  });
  const result = await run('gh', ['pr', 'merge', '7'], { WHARF_CHANNEL: ch.socketPath });
  await ch.close();
  assert.equal(result.code, 137);
});

test('denied, expired, refused and lost requests fail with their reason', async () => {
  const cases = [
    [{ type: 'denied', by: 'cli', note: 'not today' }, /wharf: denied by cli: not today/],
    [{ type: 'expired' }, /was not approved in time; it did not run/],
    [{ type: 'error', message: 'the real git is not on this machine' }, /did not run: the real git is not on this machine/],
    [null, /lost the answer/],
  ];
  for (const [answer, words] of cases) {
    const ch = await channel((request, socket) => {
      socket.write(line({ type: 'pending', id: 2, expires_in_s: 60 }));
      if (answer) socket.end(line(answer));
      else socket.end();
    });
    const result = await run('gh', ['issue', 'create', '-t', 'x'], { WHARF_CHANNEL: ch.socketPath });
    await ch.close();
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, words);
  }
});

test('outside a sandbox a guarded command is refused and says why', async () => {
  const result = await run('git', ['push']);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /`git push` is guarded .* WHARF_CHANNEL is not set/);
  const unreachable = await run('git', ['push'], { WHARF_CHANNEL: path.join(dir, 'none.sock') });
  assert.equal(unreachable.code, 1);
  assert.match(unreachable.stderr, /cannot reach the session channel/);
});

test('a command that is not guarded goes to the real program, which is absent here', async () => {
  // /run/wharf/real/git exists only inside a sandbox: the shim says so and exits 127,
  // without asking the channel anything.
  const ch = await channel(() => assert.fail('the channel must not be asked'));
  const result = await run('git', ['status'], { WHARF_CHANNEL: ch.socketPath });
  await ch.close();
  assert.equal(result.code, 127);
  assert.match(result.stderr, /cannot run the real git \(\/run\/wharf\/real\/git\)/);
  assert.equal(ch.requests.length, 0);
});

test('wharf notify inside a sandbox goes over the channel', async () => {
  const ch = await channel((request, socket) => socket.end(line({ type: 'ok' })));
  const notify = await new Promise((resolve) => {
    const child = spawn(WHARF, ['notify', 'finished'], {
      env: { PATH: '/usr/bin:/bin', HOME: process.env.HOME, WHARF_CHANNEL: ch.socketPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
  await ch.close();
  assert.equal(notify.code, 0, notify.stderr);
  assert.deepEqual(ch.requests, [{ type: 'notify', state: 'finished' }]);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
