#!/usr/bin/env node
// wharf soak: an hour (by default) of mixed load against one daemon, to see whether
// anything leaks or slows down over time: file descriptors, memory, processes, zombies,
// latency. Prints one line of figures every minute and a summary at the end; it judges
// nothing, a reader compares the first lines with the last.
//
//   node bench/soak.mjs [DURATION_SECONDS] [--interval S] [--wharf PATH]
//
// The load, all at once, each loop at its own pace:
//   churn     sessions started over REST and by WebSocket `new`, ended a few seconds later
//   windows   windows that attach to a session and then stall (stop reading, no acks) for
//             a while before closing; and windows that attach and detach
//   flood     one session printing without pause, read by an acking window and by the
//             stalled ones
//   uploads   a tiny PNG posted to /api/upload every second
//   mcp       tools/call (list_sessions, read_screen) over POST /mcp
//   rest      GET /api/v1/sessions, timed: the "api" latency
//   echo      one byte typed into a session running `cat`, timed until its echo comes
//             back through the window: the "echo" latency
//
// Each line: elapsed time, the daemon's fds and RSS, the hosts' fds and RSS (summed),
// how many hosts, every process under the daemon and the hosts (pids) and how many of
// them are zombies, then p50/p99 of the api and echo latencies over that minute, and how
// many errors each load loop met.
//
// The daemon is the release build (cmake --preset release -B build-release && cmake
// --build build-release --target wharf), else $WHARF_BIN, else build/wharf; --wharf
// names another. It runs with a state directory and HOME of its own, both removed at the
// end.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpGet, openWs } from '../tests/support/ws_client.mjs';
import { printedUrl } from './printed_url.mjs';
import { hostsOf } from '../tests/support/daemon.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

function parseArgs(argv) {
  const o = { duration: 3600, interval: 60, wharf: null };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (a === '--interval') o.interval = Number(argv[++i]);
    else if (a === '--wharf') o.wharf = resolve(argv[++i]);
    else if (a === '-h' || a === '--help') {
      console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 30).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else if (/^\d+$/.test(a)) o.duration = Number(a);
    else throw new Error(`unknown argument ${a}`);
  }
  if (!(o.interval > 0) || !(o.duration > 0)) throw new Error('durations are positive numbers of seconds');
  if (!o.wharf) {
    o.wharf = [join(root, 'build-release/wharf'), process.env.WHARF_BIN, join(root, 'build/wharf')].find((p) => p && existsSync(p));
  }
  if (!o.wharf || !existsSync(o.wharf)) throw new Error('no wharf binary: build one or pass --wharf PATH');
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const cleanups = [];
let stopping = false;

// ---------------------------------------------------------------------------------------
// The daemon

async function startDaemon() {
  const stateDir = mkdtempSync(join(tmpdir(), 'wharf-soak-state-'));
  const home = mkdtempSync(join(tmpdir(), 'wharf-soak-home-'));
  writeFileSync(join(home, '.bashrc'), "PS1='soak$ '\n");
  cleanups.push(() => rmSync(stateDir, { recursive: true, force: true }));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const env = { PATH: process.env.PATH, HOME: home, USER: process.env.USER, SHELL: '/bin/bash', LANG: 'C.UTF-8', XDG_CONFIG_HOME: join(stateDir, 'config') };
  const child = spawn(opts.wharf, ['serve', '--port', '0', '--state-dir', stateDir, '--max-sessions', '40', '--workspace', home], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-16000); });
  const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
  cleanups.push(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
  // A bench that fails half-way leaves no host (nor its session's processes) behind.
  cleanups.push(() => {
    const hosts = hostsOf(stateDir);
    for (const pid of treeOf(hosts).members) { try { process.kill(pid, 'SIGKILL'); } catch {} }
  });
  const url = await printedUrl(child, exited, () => stderr);
  const u = new URL(url);
  return { pid: child.pid, child, exited, stateDir, home, port: Number(u.port), key: u.searchParams.get('k'), origin: u.origin, get stderr() { return stderr; } };
}

// ---------------------------------------------------------------------------------------
// Processes: the daemon, its hosts (`wharf host` on this state dir) and everything under them

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0], ppid: Number(rest[1]) };
  } catch { return null; }
}
function fdCount(pid) { try { return readdirSync(`/proc/${pid}/fd`).length; } catch { return 0; } }
function rssKb(pid) {
  try { return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0); } catch { return 0; }
}
// Every process whose parent chain reaches one of `roots` (roots included).
function treeOf(roots) {
  const parent = new Map();
  const state = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(name);
    if (s) { parent.set(Number(name), s.ppid); state.set(Number(name), s.state); }
  }
  const rootSet = new Set(roots);
  const members = [];
  for (const pid of parent.keys()) {
    let p = pid;
    for (let depth = 0; p > 1 && depth < 64; depth += 1) {
      if (rootSet.has(p)) { members.push(pid); break; }
      p = parent.get(p);
    }
  }
  return { members, zombies: members.filter((p) => state.get(p) === 'Z').length };
}

function sample(d) {
  const hosts = hostsOf(d.stateDir);
  const tree = treeOf([d.pid, ...hosts]);
  return {
    daemonFds: fdCount(d.pid), daemonRssMb: rssKb(d.pid) / 1024,
    hosts: hosts.length,
    hostFds: hosts.reduce((n, p) => n + fdCount(p), 0),
    hostRssMb: hosts.reduce((n, p) => n + rssKb(p), 0) / 1024,
    pids: tree.members.length, zombies: tree.zombies,
  };
}

// ---------------------------------------------------------------------------------------
// Latencies and errors, per interval

const latencies = { api: [], echo: [] };
const errors = {};
const counts = {};
function count(what) { counts[what] = (counts[what] ?? 0) + 1; }
function fail(what, e) {
  errors[what] = (errors[what] ?? 0) + 1;
  if ((errors[what] ?? 0) <= 3 && !stopping) console.error(`  ${what}: ${e?.message?.split('\n')[0] ?? e}`);
}
function quantile(xs, q) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}
const ms = (x) => (Number.isNaN(x) ? '-' : x < 10 ? x.toFixed(2) : x.toFixed(1));

// ---------------------------------------------------------------------------------------
// The load loops

async function loop(name, pauseMs, body) {
  while (!stopping) {
    try { await body(); count(name); } catch (e) { fail(name, e); }
    await sleep(pauseMs);
  }
}

function api(d, path, { method = 'GET', body, headers = {} } = {}) {
  return httpGet(d, path, { method, body, timeout: 30000, headers: { 'X-Wharf-Key': d.key, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers } });
}

async function restSession(d, fields = { shell: 'bash' }) {
  const r = await api(d, '/api/v1/sessions', { method: 'POST', body: JSON.stringify(fields) });
  if (r.status !== 200 && r.status !== 201) throw new Error(`POST /api/v1/sessions: ${r.status} ${r.body}`);
  return JSON.parse(r.body).session;
}
async function endSession(d, id) {
  const r = await api(d, `/api/v1/sessions/${id}`, { method: 'DELETE' });
  if (r.status >= 300 && r.status !== 404) throw new Error(`DELETE: ${r.status} ${r.body}`);
}

// A 2x2 PNG, as libpng writes it (the 1x1 one here before had an IDAT length one short:
// it was never a PNG, and the upload decoder said so).
const PNG = Buffer.from('89504e470d0a1a0a0000000d494844520000000200000002080600000072b60d24000000017352474200aece1ce90000001949444154089905c1010d00000cc32096dcbfe51e44d24dc2033eff06003ee79aaf0000000049454e44ae426082', 'hex');

function churn(d) {
  return loop('churn', 1500, async () => {
    const id = await restSession(d);
    await sleep(3000 + Math.random() * 4000);
    await endSession(d, id);
  });
}

function wsChurn(d) {
  return loop('ws-new', 2500, async () => {
    const w = await openWs(d, { keepBytes: 4096 });
    try {
      const reply = await w.newSession({ shell: 'bash' }, { timeout: 20000 });
      if (reply.type !== 'attached') throw new Error(`new: ${JSON.stringify(reply)}`);
      await sleep(2000 + Math.random() * 3000);
      w.send({ type: 'end', session: reply.session });
    } finally { await w.close().catch(() => {}); }
  });
}

function stalledWindows(d, floodId) {
  return loop('stalled', 500, async () => {
    const w = await openWs(d, { keepBytes: 4096 });
    try {
      await w.attach({ session: floodId }, { timeout: 20000 });
      w.pause();
      await sleep(5000 + Math.random() * 15000);
    } finally { await w.drop().catch(() => {}); }
  });
}

function attachDetach(d, ids) {
  return loop('attach', 700, async () => {
    const w = await openWs(d, { keepBytes: 4096 });
    try {
      for (const id of ids) {
        await w.attach({ session: id }, { timeout: 20000 });
        await sleep(200);
      }
      w.send({ type: 'detach' });
    } finally { await w.close().catch(() => {}); }
  });
}

function uploads(d) {
  return loop('upload', 1000, async () => {
    const r = await httpGet(d, '/api/upload?name=soak.png', { method: 'POST', body: PNG, timeout: 30000, headers: { 'X-Wharf-Key': d.key, 'Content-Type': 'application/octet-stream' } });
    if (r.status !== 200) throw new Error(`upload: ${r.status} ${r.body}`);
  });
}

function mcp(d, readId) {
  let next = 1;
  const call = async (method, params) => {
    const r = await api(d, '/mcp', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: next++, method, params }), headers: { Accept: 'application/json, text/event-stream' } });
    if (r.status !== 200) throw new Error(`mcp ${method}: ${r.status} ${r.body}`);
    const answer = JSON.parse(r.body);
    if (answer.error || answer.result?.isError) throw new Error(`mcp ${method}: ${r.body.slice(0, 200)}`);
    return answer;
  };
  return loop('mcp', 1000, async () => {
    await call('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'soak', version: '1' } });
    await call('tools/call', { name: 'list_sessions', arguments: {} });
    await call('tools/call', { name: 'read_screen', arguments: { session: readId } });
  });
}

function rest(d, readId) {
  return loop('rest', 200, async () => {
    const t0 = performance.now();
    const r = await api(d, '/api/v1/sessions');
    if (r.status !== 200) throw new Error(`GET sessions: ${r.status}`);
    latencies.api.push(performance.now() - t0);
    if (Math.random() < 0.2) {
      const s = await api(d, `/api/v1/sessions/${readId}/screen`);
      if (s.status !== 200) throw new Error(`GET screen: ${s.status}`);
    }
  });
}

// One letter at a time into `cat` (the terminal echoes it), timed from the send to the
// frame that carries it; a carriage return every 40 letters keeps cat's line short.
async function echo(d, echoId) {
  const w = await openWs(d, { keepBytes: 4096 });
  cleanups.push(() => w.drop().catch(() => {}));
  await w.attach({ session: echoId }, { timeout: 20000 });
  let waiting = null;
  let tail = '';
  w.ws.on('message', (data, isBinary) => {
    if (!isBinary || !waiting) return;
    tail = (tail + data.toString('latin1')).slice(-64);
    if (tail.includes(waiting.token)) { const done = waiting; waiting = null; done.resolve(); }
  });
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let n = 0;
  return loop('echo', 100, async () => {
    n += 1;
    if (n % 40 === 0) { w.type('\r'); await sleep(50); }
    const token = letters[n % 26] + letters[(n * 7) % 26] + letters[(n * 11) % 26];
    tail = '';
    // Each wait is its own object: a token comes round again every 26 letters, and an
    // old timer must never end a newer wait.
    let timer;
    const got = new Promise((res, rej) => {
      const me = { token, resolve: () => { clearTimeout(timer); res(); } };
      waiting = me;
      timer = setTimeout(() => { if (waiting === me) { waiting = null; rej(new Error(`no echo within 10 s (window ${w.closeInfo ? `closed ${JSON.stringify(w.closeInfo)}` : 'open'})`)); } }, 10000);
    });
    const t0 = performance.now();
    w.type(token);
    await got;
    latencies.echo.push(performance.now() - t0);
  });
}

// ---------------------------------------------------------------------------------------

async function main() {
  console.log(`wharf soak: ${opts.duration} s against ${opts.wharf}, a line every ${opts.interval} s`);
  const d = await startDaemon();
  const base = sample(d);
  console.log(`idle daemon: ${base.daemonFds} fds, ${base.daemonRssMb.toFixed(1)} MB`);

  const floodId = await restSession(d);
  const echoId = await restSession(d);
  const quietId = await restSession(d);
  // The flood: numbered lines as fast as the session drains them.
  const flooder = await openWs(d, { keepBytes: 65536 });
  cleanups.push(() => flooder.drop().catch(() => {}));
  await flooder.attach({ session: floodId }, { timeout: 20000 });
  await flooder.waitForPrompt({ timeout: 20000 });
  // Bursts: about 600 KB every two seconds, so the flood is a load and not the only one.
  flooder.type('while :; do seq 1 100000; sleep 2; done\r');
  const echoer = await openWs(d, { keepBytes: 4096 });
  await echoer.attach({ session: echoId }, { timeout: 20000 });
  await echoer.waitForPrompt({ timeout: 20000 });
  echoer.type('exec cat\r');
  await sleep(500);
  await echoer.close();

  const loops = [
    churn(d), wsChurn(d), stalledWindows(d, floodId), stalledWindows(d, floodId),
    attachDetach(d, [quietId, floodId, echoId]), uploads(d), mcp(d, quietId), rest(d, quietId),
    echo(d, echoId),
  ];

  const header = 'time    daemon fds  rss MB | hosts  fds  rss MB | pids zombies | api p50  p99 ms | echo p50  p99 ms | errors';
  console.log(header);
  const started = Date.now();
  const report = () => {
    const s = sample(d);
    const api50 = quantile(latencies.api, 0.5); const api99 = quantile(latencies.api, 0.99);
    const e50 = quantile(latencies.echo, 0.5); const e99 = quantile(latencies.echo, 0.99);
    const t = Math.round((Date.now() - started) / 1000);
    const errs = Object.entries(errors).map(([k, v]) => `${k}:${v}`).join(' ') || '0';
    console.log(`${String(Math.floor(t / 60)).padStart(3)}:${String(t % 60).padStart(2, '0')}  ${String(s.daemonFds).padStart(10)} ${s.daemonRssMb.toFixed(1).padStart(7)} | ${String(s.hosts).padStart(5)} ${String(s.hostFds).padStart(4)} ${s.hostRssMb.toFixed(1).padStart(7)} | ${String(s.pids).padStart(4)} ${String(s.zombies).padStart(7)} | ${ms(api50).padStart(7)} ${ms(api99).padStart(5)}    | ${ms(e50).padStart(8)} ${ms(e99).padStart(5)}    | ${errs}`);
    latencies.api.length = 0;
    latencies.echo.length = 0;
    for (const k of Object.keys(errors)) delete errors[k];
    return s;
  };
  let last = null;
  while (Date.now() - started < opts.duration * 1000) {
    if (d.child.exitCode !== null || d.child.signalCode !== null) throw new Error(`the daemon exited; stderr:\n${d.stderr}`);
    const wait = Math.min(opts.interval * 1000, opts.duration * 1000 - (Date.now() - started));
    await sleep(Math.max(0, wait));
    last = report();
  }
  stopping = true;
  await Promise.race([Promise.allSettled(loops), sleep(30000)]);
  console.log(`done: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  d.child.kill('SIGTERM');
  await Promise.race([d.exited, sleep(15000)]);
  const after = treeOf([d.pid, ...hostsOf(d.stateDir)]);
  console.log(`after stop: ${hostsOf(d.stateDir).length} hosts, ${after.members.length} processes left; last sample ${JSON.stringify(last)}`);
}

main().catch((e) => { console.error(e.stack ?? e); process.exitCode = 1; }).finally(() => {
  stopping = true;
  for (const c of cleanups.reverse()) { try { c(); } catch {} }
  setTimeout(() => process.exit(), 2000).unref();
});
