#!/usr/bin/env node
// wharf relay benchmark: what the daemon costs between a PTY and a browser-protocol
// client (docs/protocol.md, version 2), measured against a bare PTY reader
// (bench/pty_drain.cpp) running the same program on the same machine.
//
//   node bench/relay.mjs [--quick] [options]
//
// Sections (each prints figures, never a verdict):
//   a  relay throughput: one acking window, a session printing N MB of 99-column lines,
//      from sending the command to seeing its end marker; vs pty_drain on the same
//      producer, runs interleaved; medians, ratio.
//   b  keystroke echo: one byte in, its echo out, with `cat` in the foreground (kernel
//      echo) and with bash's readline at the prompt; vs pty_drain --echo on the same
//      program. Interleaved with wharf's samples, the same byte through a do-nothing Node
//      `ws` echo server (no PTY), as a reference for the WebSocket hop and machine noise.
//   c  idle session cost: daemon VmRSS with 0 sessions, then with K idle shells
//      (`wharf new`), per session. Children are not counted (they are other processes).
//   d  attach latency: a session that printed 3,000 lines; a new window sends `attach`
//      and receives `attached`, `snapshot` and the snapshot frame; median of M.
//   e  stalled window: one window stops reading (socket paused, no acks) while its
//      session prints S MB; daemon VmRSS sampled every 100 ms; PTY drain rate; then the
//      window resumes and we time how long until its screen shows the end.
//   g  sessions at once: 1, 2 and 16 sessions flood at the same time (--mb / 5 MB each),
//      each through its own acknowledging window; the aggregate against as many bare
//      PTY readers at once, and the CPU time of the daemon and of the session hosts.
//
// Options:
//   --quick            small sizes, few runs (< 60 s)
//   --only a,b,...     run only these sections
//   --mb N             (a) MB per run (default 100; quick 20)
//   --runs N           (a) runs (default 5; quick 2)
//   --echo-samples N   (b) samples per measurement (default 400; quick 100)
//   --sessions N       (c) idle sessions (default 50; quick 10)
//   --attach-runs N    (d) attaches (default 20; quick 5)
//   --stall-mb N       (e) MB printed while stalled (default: 1024 if (a) suggests it
//                      drains within ~60 s, else 256; quick 32)
//   --fold N           producer line width (default 99: 100-byte lines; 0: no newlines)
//   --cols C --rows R  window size asked for (default 80x24)
//   --wharf PATH       daemon binary (default $WHARF_BIN, else build-release/wharf if
//                      built (cmake --preset release), else build/wharf (Debug))
//   --pty-drain PATH   baseline binary (default build/bench/wharf_bench_pty_drain, else
//                      compiled with g++ -O2 into a temporary directory)
import { spawn, execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, cpus, loadavg, totalmem, release } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { printedUrl } from './printed_url.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const require = createRequire(join(root, 'package.json'));
const WebSocket = require('ws');

// ---------------------------------------------------------------------------------------
// Options

function parseArgs(argv) {
  const o = { quick: false, only: null, cols: 80, rows: 24 };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    const val = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
    const num = () => { const v = Number(val()); if (!Number.isFinite(v) || v <= 0) throw new Error(`${a}: bad number`); return v; };
    switch (a) {
      case '--quick': o.quick = true; break;
      case '--only': o.only = new Set(val().split(',').map((s) => s.trim())); break;
      case '--mb': o.mb = num(); break;
      case '--runs': o.runs = num(); break;
      case '--echo-samples': o.echoSamples = num(); break;
      case '--sessions': o.sessions = num(); break;
      case '--attach-runs': o.attachRuns = num(); break;
      case '--stall-mb': o.stallMb = num(); break;
      case '--fold': o.fold = Number(val()); if (!Number.isInteger(o.fold) || o.fold < 0) throw new Error('--fold: bad number'); break;
      case '--cols': o.cols = num(); break;
      case '--rows': o.rows = num(); break;
      case '--wharf': o.wharf = val(); break;
      case '--pty-drain': o.ptyDrain = val(); break;
      case '-h': case '--help':
        { const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
          console.log(lines.slice(1, lines.findIndex((l) => l.startsWith('import'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n')); }
        process.exit(0);
        break;
      default: throw new Error(`unknown option ${a} (see --help)`);
    }
  }
  const q = o.quick;
  o.mb ??= q ? 20 : 100;
  o.runs ??= q ? 2 : 5;
  o.echoSamples ??= q ? 100 : 400;
  o.sessions ??= q ? 10 : 50;
  o.attachRuns ??= q ? 5 : 20;
  o.scrollbackLines = 3000;
  o.fold ??= 99;
  o.wharf ??= process.env.WHARF_BIN ?? [join(root, 'build-release', 'wharf'), join(root, 'build', 'wharf')].find((p) => existsSync(p)) ?? join(root, 'build', 'wharf');
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const want = (s) => !opts.only || opts.only.has(s);

// ---------------------------------------------------------------------------------------
// Small utilities

const now = () => process.hrtime.bigint();
const msSince = (t0) => Number(now() - t0) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const token = () => randomBytes(6).toString('hex');

function percentile(values, p) {
  if (!values.length) return NaN;
  const v = [...values].sort((x, y) => x - y);
  const rank = Math.min(v.length, Math.max(1, Math.ceil((p / 100) * v.length)));
  return v[rank - 1];
}
const median = (v) => percentile(v, 50);
const round = (x, d = 2) => (Number.isFinite(x) ? Number(x.toFixed(d)) : null);

async function until(check, { timeout = 10000, interval = 20, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await sleep(interval);
  }
}

function run(file, args, { timeout = 600000 } = {}) {
  return new Promise((res, rej) => {
    execFile(file, args, { timeout, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) { err.message += `\n${stderr}`; rej(err); } else res(stdout);
    });
  });
}

function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number((text.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm')) ?? [])[1] ?? NaN);
  return { rss: kib('VmRSS'), anon: kib('RssAnon'), hwm: kib('VmHWM') };
}

let clkTck = 100;
try { clkTck = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100; } catch { /* 100 */ }
function cpuSeconds(pid) {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / clkTck; // utime + stime
}

// Terminal bytes to the text a person reads (CSI, OSC, DCS and two-byte escapes removed).
function stripEscapes(text) {
  return text
    .replace(/\x1b\][\s\S]*?(?:\x07|\x1b\\)/g, '')
    .replace(/\x1b[P^_][\s\S]*?\x1b\\/g, '')
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[ -/]*[0-~]/g, '');
}

function buildType(binary) {
  try {
    const cache = readFileSync(join(dirname(binary), 'CMakeCache.txt'), 'utf8');
    return (cache.match(/^CMAKE_BUILD_TYPE:STRING=(.*)$/m) ?? [])[1] || 'unknown';
  } catch { return 'unknown (no CMakeCache.txt beside the binary)'; }
}

// ---------------------------------------------------------------------------------------
// The baseline

function findPtyDrain() {
  const candidates = [opts.ptyDrain, join(dirname(opts.wharf), 'bench', 'wharf_bench_pty_drain'), join(root, 'build', 'bench', 'wharf_bench_pty_drain')].filter(Boolean);
  for (const c of candidates) if (existsSync(c)) return c;
  if (opts.ptyDrain) throw new Error(`--pty-drain ${opts.ptyDrain} does not exist`);
  const dir = mkdtempSync(join(tmpdir(), 'wharf-bench-'));
  const out = join(dir, 'pty_drain');
  execFileSync('g++', ['-std=c++20', '-O2', '-o', out, join(here, 'pty_drain.cpp'), '-lutil'], { stdio: 'inherit' });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return out;
}

async function ptyDrain(args) {
  const out = await run(ptyDrainBin, args);
  return JSON.parse(out.trim().split('\n').pop());
}

// The producer: `mb` MB of 'x' in 99-column lines (fold; --fold), through the PTY as
// 100-byte lines plus ONLCR's \r. --fold 0: no newlines at all (one endless line, which
// the kernel moves in ~4 KB reads instead of pushing each line).
const producer = (mb) => `head -c ${Math.round(mb * 1e6)} /dev/zero | tr '\\0' x${opts.fold ? ` | fold -w ${opts.fold}` : ''}`;
const ptyBytes = (mb) => (opts.fold ? Math.round(mb * 1e6) * (1 + 2 / opts.fold) : mb * 1e6);

// ---------------------------------------------------------------------------------------
// The daemon

const cleanups = [];
process.on('exit', () => { for (const c of cleanups.splice(0).reverse()) { try { c(); } catch { /* best effort */ } } });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

async function startDaemon({ maxSessions = 16 } = {}) {
  const stateDir = mkdtempSync(join(tmpdir(), 'wharf-bench-state-'));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, SHELL: process.env.SHELL ?? '/bin/bash', LANG: process.env.LANG ?? 'C.UTF-8' };
  const child = spawn(opts.wharf, ['serve', '--port', '0', '--state-dir', stateDir, '--max-sessions', String(maxSessions)], { cwd: stateDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-8000); });
  const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
  const kill = () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); };
  cleanups.push(kill);
  cleanups.push(() => rmSync(stateDir, { recursive: true, force: true }));
  const url = await printedUrl(child, exited, () => stderr);
  const u = new URL(url);
  return {
    pid: child.pid, stateDir, port: Number(u.port), key: u.searchParams.get('k'), origin: u.origin,
    get stderr() { return stderr; },
    cli: (...args) => run(opts.wharf, [...args, '--state-dir', stateDir], { timeout: 20000 }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(kill, 10000);
      await exited;
      clearTimeout(timer);
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------
// A window (one WebSocket), acknowledging output the way the page does

const ACK_EVERY = 64 * 1024;

class Window {
  static async open(daemon, { cols = opts.cols, rows = opts.rows } = {}) {
    const ws = new WebSocket(`ws://127.0.0.1:${daemon.port}/ws?k=${daemon.key}&cols=${cols}&rows=${rows}`, { headers: { Origin: daemon.origin }, perMessageDeflate: false });
    const w = new Window(ws);
    const listed = w.waitText('sessions', 10000); // may arrive with the upgrade response
    await new Promise((res, rej) => {
      ws.once('open', res);
      ws.once('error', rej);
      ws.once('unexpected-response', (req, r) => rej(new Error(`upgrade refused: HTTP ${r.statusCode}`)));
    });
    await listed;
    return w;
  }

  constructor(ws) {
    this.ws = ws;
    this.hooks = new Set();
    this.attached = null;
    this.pendingSnapshot = null;
    this.epochBytes = 0;
    this.acked = 0;
    this.ackHold = false;
    this.ackScheduled = false;
    this.paused = false;
    this.liveBytes = 0;
    this.frames = 0;
    this.snapshotCount = 0;
    this.lastSnapshot = null;
    this.sinceSnapshot = []; // live output after the last snapshot (up to 8 MiB)
    this.sinceSnapshotBytes = 0;
    this.lastBinaryAt = Date.now();
    this.closeInfo = null;
    this.seen = new Set(); // message types seen
    ws.on('close', (code, reason) => { this.closeInfo = { code, reason: String(reason) }; this.emit('close', this.closeInfo); });
    ws.on('error', () => {});
    ws.on('message', (data, isBinary) => {
      if (isBinary) this.onBinary(Array.isArray(data) ? Buffer.concat(data) : data);
      else this.onText(String(data));
    });
  }

  emit(kind, data, meta) { for (const h of [...this.hooks]) h(kind, data, meta); }

  onText(text) {
    let m;
    try { m = JSON.parse(text); } catch { return; }
    this.seen.add(m.type);
    if (m.type === 'attached') { this.attached = m; this.epochBytes = 0; this.acked = 0; this.ackHold = false; }
    else if (m.type === 'snapshot') this.pendingSnapshot = m;
    else if (m.type === 'exit' || m.type === 'detached') { this.attached = null; this.epochBytes = 0; this.acked = 0; this.ackHold = false; }
    else if (m.type === 'error') this.ackHold = false;
    this.emit('text', m);
  }

  onBinary(buf) {
    this.epochBytes += buf.length;
    this.frames += 1;
    this.lastBinaryAt = Date.now();
    if (this.pendingSnapshot) {
      const meta = this.pendingSnapshot;
      this.pendingSnapshot = null;
      this.snapshotCount += 1;
      this.lastSnapshot = buf;
      this.sinceSnapshot = [];
      this.sinceSnapshotBytes = 0;
      this.emit('snapshot', buf, meta);
    } else {
      this.liveBytes += buf.length;
      if (this.sinceSnapshotBytes < 8 << 20) { this.sinceSnapshot.push(buf); this.sinceSnapshotBytes += buf.length; }
      this.emit('live', buf);
    }
    this.maybeAck();
  }

  maybeAck() {
    if (this.paused || this.ackHold || !this.attached) return;
    if (this.epochBytes - this.acked >= ACK_EVERY) { this.sendAck(); return; }
    if (this.ackScheduled) return;
    this.ackScheduled = true;
    setImmediate(() => { this.ackScheduled = false; if (!this.paused && !this.ackHold && this.attached) this.sendAck(); });
  }

  sendAck() {
    if (this.epochBytes <= this.acked || this.ws.readyState !== WebSocket.OPEN) return;
    this.acked = this.epochBytes;
    this.ws.send(JSON.stringify({ type: 'ack', bytes: this.epochBytes }));
  }

  send(obj) {
    if (obj.type === 'attach' || obj.type === 'new') this.ackHold = true;
    this.ws.send(JSON.stringify(obj));
  }

  type(text) { this.ws.send(Buffer.from(text, 'latin1'), { binary: true }); }

  pause() { this.paused = true; this.ws._socket.pause(); }
  resume() { this.paused = false; this.ws._socket.resume(); this.maybeAck(); }

  // Resolves with the first truthy pred(kind, data, meta) from now on.
  wait(pred, timeout = 10000, what = 'event') {
    return new Promise((res, rej) => {
      let timer = null;
      const hook = (kind, data, meta) => {
        let v;
        try { v = pred(kind, data, meta); } catch (e) { done(); rej(e); return; }
        if (v) { done(); res(v); } else if (kind === 'close') { done(); rej(new Error(`window closed (${JSON.stringify(data)}) waiting for ${what}`)); }
      };
      const done = () => { this.hooks.delete(hook); clearTimeout(timer); };
      this.hooks.add(hook);
      if (this.closeInfo) { done(); rej(new Error(`window closed waiting for ${what}`)); return; }
      timer = setTimeout(() => { done(); rej(new Error(`timed out after ${timeout} ms waiting for ${what}`)); }, timeout);
    });
  }

  waitText(type, timeout) { return this.wait((k, m) => k === 'text' && m.type === type && m, timeout, `message ${type}`); }

  // Sends attach/new; resolves with { attached, snapshot (bytes), ms } once the snapshot
  // frame arrived (ms: from sending to having the whole frame).
  async attach(fields) {
    const t0 = now();
    let attached = null;
    const p = this.wait((k, d, meta) => {
      if (k === 'text' && d.type === 'attached') attached = d;
      if (k === 'text' && (d.type === 'error' || d.type === 'detached')) throw new Error(`attach answered ${JSON.stringify(d)}`);
      return k === 'snapshot' && attached ? { attached, snapshot: d, meta, ms: msSince(t0) } : null;
    }, 20000, 'attached + snapshot');
    this.send(fields);
    return p;
  }

  // Resolves with { t (hrtime), via } once `needle` appears in the output (live or in a
  // snapshot: a window over its budget is sent the screen instead of the bytes).
  watch(needle, timeout = 600000) {
    const n = Buffer.from(needle);
    let tail = Buffer.alloc(0);
    return this.wait((kind, d) => {
      if (kind === 'snapshot') { tail = Buffer.alloc(0); return d.includes(n) ? { t: now(), via: 'snapshot' } : null; }
      if (kind !== 'live') return null;
      if (d.includes(n) || (tail.length && Buffer.concat([tail, d.subarray(0, n.length - 1)]).includes(n))) return { t: now(), via: 'live' };
      tail = Buffer.from(d.subarray(Math.max(0, d.length - (n.length - 1))));
      return null;
    }, timeout, `output ${needle}`);
  }

  // Types a command whose output (not its echo) contains a fresh marker; waits for it.
  async command(cmd, timeout = 600000) {
    const tok = token();
    const p = this.watch(`M2${tok}`, timeout);
    const t0 = now();
    this.type(`${cmd}; echo M$((1+1))${tok}\r`);
    const r = await p;
    return { ...r, ms: Number(r.t - t0) / 1e6 };
  }

  // Waits until the shell runs what is typed: its first output, a moment of quiet, then a
  // command whose output we wait for (typed again if a start-up file swallowed it).
  async ready() {
    await until(() => this.liveBytes > 0 || this.snapshotCount > 0, { timeout: 20000, what: 'the first output' }).catch(() => {});
    await this.quiet(200).catch(() => {});
    for (let attempt = 1; ; attempt += 1) {
      try { await this.command('true', 5000); return; } catch (e) {
        if (attempt >= 6) throw e;
        process.stderr.write(`  (the shell did not answer within 5 s; typing again)\n`);
      }
    }
  }

  async quiet(ms, timeout = 30000) {
    await until(() => Date.now() - this.lastBinaryAt >= ms, { timeout, interval: 10, what: `${ms} ms of quiet` });
  }

  close() { try { this.ws.terminate(); } catch { /* gone */ } }
}

// ---------------------------------------------------------------------------------------
// Sections

const results = { meta: {}, a: null, b: null, c: null, d: null, e: null, g: null };
let ptyDrainBin;

// (g) N sessions flooding at once, each through its own acknowledging window: the
// aggregate against N bare PTY readers at once. Each session's host parses its own
// output, so busy sessions spread over cores; the daemon still copies every screen.
async function sectionParallel() {
  const counts = [1, 2, 16];
  const perSession = Math.max(1, Math.round(opts.mb / 5));
  const out = { mb_per_session: perSession, counts: {} };
  const daemon = await startDaemon({ maxSessions: 16 });
  try {
    const windows = [];
    for (let i = 0; i < Math.max(...counts); i += 1) {
      const w = await Window.open(daemon);
      await w.attach({ type: 'new', shell: 'bash' });
      await w.ready();
      windows.push(w);
    }
    // Daemons before session hosts (issue 12) have none: their hosts' CPU reads 0.
    const hostCpu = () => hostPids(daemon.stateDir).reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    for (const n of counts) {
      const runs = [];
      for (let r = 0; r < Math.max(1, Math.min(opts.runs, 3)); r += 1) {
        const bare0 = now();
        await Promise.all(Array.from({ length: n }, () => ptyDrain(['--cols', String(opts.cols), '--rows', String(opts.rows), '--', 'sh', '-c', producer(perSession)])));
        const bareS = Number(now() - bare0) / 1e9;
        const live0 = windows.slice(0, n).map((w) => w.liveBytes);
        const cpu0 = cpuSeconds(daemon.pid);
        const hosts0 = hostCpu();
        const t0 = now();
        await Promise.all(windows.slice(0, n).map((w) => w.command(producer(perSession))));
        const wharfS = Number(now() - t0) / 1e9;
        const bytes = windows.slice(0, n).reduce((sum, w, i) => sum + (w.liveBytes - live0[i]), 0);
        const total = n * perSession * 1.02e6;
        runs.push({
          bare_mb_s: total / 1e6 / bareS, wharf_mb_s: total / 1e6 / wharfS, ratio: bareS / wharfS,
          live_share: bytes / total,
          daemon_cpu_s: cpuSeconds(daemon.pid) - cpu0, hosts_cpu_s: hostCpu() - hosts0, wall_s: wharfS,
        });
        process.stderr.write(`  (g) ${n} session(s), run ${r + 1}: bare ${runs.at(-1).bare_mb_s.toFixed(1)} MB/s, wharf ${runs.at(-1).wharf_mb_s.toFixed(1)} MB/s\n`);
        await Promise.all(windows.slice(0, n).map((w) => w.quiet(200)));
      }
      const med = (k) => median(runs.map((x) => x[k]));
      out.counts[n] = { runs, bare_mb_s: med('bare_mb_s'), wharf_mb_s: med('wharf_mb_s'), ratio: med('ratio'), daemon_cpu_s: med('daemon_cpu_s'), hosts_cpu_s: med('hosts_cpu_s'), wall_s: med('wall_s') };
    }
    for (const w of windows) w.close();
  } finally { await daemon.stop(); }
  results.g = out;
}

// The session hosts of a daemon (`wharf host --socket STATE/hosts/ID.sock`).
function hostPids(stateDir) {
  const prefix = join(stateDir, 'hosts') + '/';
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv[1] === 'host' && argv.some((a) => a.startsWith(prefix))) pids.push(Number(name));
    } catch { /* gone */ }
  }
  return pids;
}

async function sectionThroughput(daemon) {
  const w = await Window.open(daemon);
  await w.attach({ type: 'attach', start: true });
  await w.ready();
  await w.quiet(200);
  const runs = [];
  for (let i = 0; i < opts.runs; i += 1) {
    const bare = await ptyDrain(['--cols', String(opts.cols), '--rows', String(opts.rows), '--', 'sh', '-c', producer(opts.mb)]);
    const live0 = w.liveBytes; const frames0 = w.frames; const snaps0 = w.snapshotCount;
    const cpu0 = cpuSeconds(daemon.pid); const ncpu0 = process.cpuUsage();
    const r = await w.command(producer(opts.mb));
    const cpu = cpuSeconds(daemon.pid) - cpu0; const ncpu = process.cpuUsage(ncpu0);
    const bytes = w.liveBytes - live0;
    const relayMbs = bytes / 1e6 / (r.ms / 1000);
    runs.push({
      bare_mb_s: bare.mb_per_s, bare_avg_read: bare.avg_read, relay_mb_s: relayMbs, ratio: relayMbs / bare.mb_per_s,
      relay_bytes: bytes, relay_s: r.ms / 1000, frames: w.frames - frames0, avg_frame: bytes / (w.frames - frames0),
      snapshots: w.snapshotCount - snaps0, via: r.via,
      daemon_cpu_s_per_100mb: cpu / (bytes / 1e8), client_cpu_s_per_100mb: (ncpu.user + ncpu.system) / 1e6 / (bytes / 1e8),
    });
    process.stderr.write(`  (a) run ${i + 1}/${opts.runs}: bare ${bare.mb_per_s.toFixed(1)} MB/s, wharf ${relayMbs.toFixed(1)} MB/s\n`);
    await w.quiet(300);
  }
  const med = (k) => median(runs.map((r) => r[k]));
  results.a = {
    mb: opts.mb, runs,
    bare_mb_s: med('bare_mb_s'), relay_mb_s: med('relay_mb_s'),
    ratio_of_medians: med('relay_mb_s') / med('bare_mb_s'), median_ratio: med('ratio'),
    daemon_cpu_s_per_100mb: med('daemon_cpu_s_per_100mb'), client_cpu_s_per_100mb: med('client_cpu_s_per_100mb'),
    avg_frame: med('avg_frame'), snapshots: runs.reduce((s, r) => s + r.snapshots, 0),
  };
  return w;
}

// One echo sample per byte, alternating 'x' (echo "x") and DEL, so the line never grows
// (DEL echoes "\b \b" from the line discipline with ECHOE, "\b\e[K" from readline).
// The same rule as pty_drain --echo.
const eraseDone = (s) => s.endsWith('\b \b') || s.endsWith('\x1b[K') || s.endsWith('^?');
async function echoSamples(w, count, floor, warmup = 20) {
  const samples = [];
  const floorSamples = [];
  for (let i = 0; i < count + warmup; i += 1) {
    const del = i % 2 === 1;
    let got = '';
    const p = w.wait((k, d) => {
      if (k !== 'live') return false;
      got += d.toString('latin1');
      return del ? eraseDone(got) : got.includes('x');
    }, 5000, 'echo');
    const t0 = now();
    w.type(del ? '\x7f' : 'x');
    await p;
    const ms = msSince(t0);
    const floorMs = await floor.sample();
    if (i >= warmup) { samples.push(ms); floorSamples.push(floorMs); }
  }
  return { ...summary(samples), ws_floor: summary(floorSamples) };
}

// The transport floor: one byte over a loopback WebSocket to another process (a Node
// `ws` echo server) and back, with no PTY at all. Part of what any WebSocket terminal
// server adds. Its samples are interleaved with wharf's, so both see the same machine
// (other work, scheduling); the difference is the daemon's own share.
async function startWsFloor() {
  const code = `const { WebSocketServer } = require(${JSON.stringify(require.resolve('ws'))});
    const s = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
    s.on('listening', () => console.log(s.address().port));
    s.on('connection', (c) => c.on('message', (d, bin) => c.send(d, { binary: bin })));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => child.kill('SIGKILL'));
  const port = await new Promise((res) => child.stdout.once('data', (d) => res(Number(String(d).trim()))));
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false });
  await new Promise((res, rej) => { ws.once('open', res); ws.once('error', rej); });
  return {
    async sample() {
      const t0 = now();
      await new Promise((res) => { ws.once('message', res); ws.send(Buffer.from('x'), { binary: true }); });
      return msSince(t0);
    },
    close() { ws.terminate(); child.kill('SIGKILL'); },
  };
}

const summary = (samples) => ({ samples: samples.length, p50_ms: percentile(samples, 50), p90_ms: percentile(samples, 90), p99_ms: percentile(samples, 99), max_ms: Math.max(...samples), mean_ms: samples.reduce((a, b) => a + b, 0) / samples.length });

async function sectionEcho(daemon, w) {
  if (!w) {
    w = await Window.open(daemon);
    await w.attach({ type: 'attach', start: true });
    await w.ready();
  }
  const out = {};
  const floor = await startWsFloor();
  // cat in the foreground: canonical mode, the kernel echoes.
  const bareCat = await ptyDrain(['--echo', String(opts.echoSamples), '--', 'cat']);
  // The marker is printed once readline has given the terminal back: a byte typed before
  // that would race the shell (readline could read it, or a mode change drop it).
  const started = w.watch('C2started', 20000);
  w.type('stty echoe; echo C$((1+1))started; cat\r');
  await started;
  await w.quiet(300);
  const wharfCat = await echoSamples(w, opts.echoSamples, floor);
  w.type('\x03');
  await w.ready();
  await w.quiet(300);
  out.cat = { bare: bareCat, wharf: wharfCat };
  // bash readline at the prompt (what a person typing sees).
  const bareBash = await ptyDrain(['--echo', String(opts.echoSamples), '--', 'bash', '--norc', '--noprofile', '-i']);
  const wharfBash = await echoSamples(w, opts.echoSamples, floor);
  w.type('\x15'); // kill the line
  await w.quiet(200);
  out.bash = { bare: bareBash, wharf: wharfBash };
  floor.close();
  for (const k of ['cat', 'bash']) {
    out[k].added_p50_ms = out[k].wharf.p50_ms - out[k].bare.p50_ms;
    out[k].added_p99_ms = out[k].wharf.p99_ms - out[k].bare.p99_ms;
    out[k].over_ws_floor_p50_ms = out[k].wharf.p50_ms - out[k].wharf.ws_floor.p50_ms;
    out[k].over_ws_floor_p99_ms = out[k].wharf.p99_ms - out[k].wharf.ws_floor.p99_ms;
  }
  results.b = out;
  return w;
}

async function sectionAttach(daemon) {
  const w = await Window.open(daemon);
  await w.attach({ type: 'new' });
  const sessionId = w.attached.session;
  await w.ready();
  await w.command(`seq -f 'line %05g the quick brown fox jumps over the lazy dog 0123456789' ${opts.scrollbackLines}`, 60000);
  await w.quiet(300);
  const attachMs = [];
  const connectMs = [];
  let bytes = 0; let lines = 0;
  for (let i = 0; i < opts.attachRuns; i += 1) {
    const t0 = now();
    const v = await Window.open(daemon);
    const r = await v.attach({ type: 'attach', session: sessionId });
    connectMs.push(msSince(t0));
    attachMs.push(r.ms);
    bytes = r.snapshot.length;
    lines = r.snapshot.toString('latin1').split('\n').length;
    v.close();
    await sleep(20);
  }
  w.close();
  results.d = {
    scrollback_lines_printed: opts.scrollbackLines, runs: attachMs.length, snapshot_bytes: bytes, snapshot_lines: lines,
    attach_p50_ms: median(attachMs), attach_max_ms: Math.max(...attachMs),
    connect_attach_p50_ms: median(connectMs), connect_attach_max_ms: Math.max(...connectMs),
  };
}

async function sectionIdle() {
  const daemon = await startDaemon({ maxSessions: opts.sessions + 10 });
  try {
    await sleep(500);
    const before = procStatus(daemon.pid);
    const ids = [];
    for (let i = 0; i < opts.sessions; i += 1) ids.push((await daemon.cli('new')).trim());
    // Wait until every shell printed its prompt: start-up files have finished (stopping
    // the daemon while a shell is still in them could kill, say, `pyenv rehash` holding
    // its lock file, and every later login shell on the machine would wait for it).
    const pending = new Set(ids);
    const t0 = Date.now();
    while (pending.size && Date.now() - t0 < 180000) {
      for (const id of [...pending]) if ((await daemon.cli('read-screen', id)).trim()) pending.delete(id);
      if (pending.size) await sleep(250);
    }
    const promptS = (Date.now() - t0) / 1000;
    let last = procStatus(daemon.pid).rss;
    await until(async () => { await sleep(500); const r = procStatus(daemon.pid).rss; const stable = Math.abs(r - last) <= 16; last = r; return stable; }, { timeout: 15000, interval: 0, what: 'RSS to settle' }).catch(() => {});
    const after = procStatus(daemon.pid);
    const live = JSON.parse(await daemon.cli('ls', '--json')).filter((s) => s.status === 'running').length;
    results.c = {
      sessions: live, without_prompt: pending.size, prompts_after_s: promptS, rss0_kib: before.rss, rss_kib: after.rss, anon0_kib: before.anon, anon_kib: after.anon,
      kib_per_session: (after.rss - before.rss) / live, anon_kib_per_session: (after.anon - before.anon) / live,
    };
  } finally { await daemon.stop(); }
}

async function sectionStall(defaultMb) {
  const mb = opts.stallMb ?? (opts.quick ? 32 : defaultMb);
  const daemon = await startDaemon();
  try {
    const w = await Window.open(daemon);
    const { attached } = await w.attach({ type: 'attach', start: true });
    await w.ready();
    await w.quiet(300);
    const base = procStatus(daemon.pid);
    let peak = base.rss; let peakAnon = base.anon; const series = [];
    const sampler = setInterval(() => {
      try { const s = procStatus(daemon.pid); series.push(s.rss); peak = Math.max(peak, s.rss); peakAnon = Math.max(peakAnon, s.anon); } catch { /* exiting */ }
    }, 100);
    const tok = token();
    const marker = `M2${tok}`;
    w.pause();
    const t0 = now();
    w.type(`${producer(mb)}; echo M$((1+1))${tok}\r`);
    const pollMs = mb >= 200 ? 250 : 100;
    await until(async () => (await daemon.cli('read-screen', String(attached.session))).includes(marker), { timeout: 900000, interval: pollMs, what: 'the end marker on the screen (read-screen)' });
    const drainS = msSince(t0) / 1000;
    clearInterval(sampler);
    const closedWhileStalled = w.closeInfo;
    const received = w.epochBytes;
    // The window comes back: how long until its screen shows the end? A window that
    // stayed stalled past the daemon's idle timeout (it answers no ping while its socket
    // is paused) finds itself dropped; then a new window attaches, as the page would.
    let catchUp = null; let via = null; let closedOnResume = null; let win = w;
    const stalledS = msSince(t0) / 1000;
    {
      const t1 = now();
      const p = w.watch(marker, 120000);
      w.resume();
      try {
        const r = await p;
        catchUp = Number(r.t - t1) / 1e6; via = r.via;
      } catch (e) {
        if (!w.closeInfo) throw e;
        closedOnResume = w.closeInfo;
        win = await Window.open(daemon);
        const a = await win.attach({ type: 'attach', session: attached.session });
        catchUp = msSince(t1); via = a.snapshot.includes(Buffer.from(marker)) ? 'snapshot of a new window' : 'new window, end not in its snapshot';
      }
    }
    await sleep(500);
    const settled = procStatus(daemon.pid);
    // Does what the window was given since its last snapshot (the snapshot, then live
    // output) hold every line the daemon's own screen shows? A weak check (the lines are
    // mostly x), but it catches a lost end or a lost prompt.
    let screenMatches = null;
    if (win.lastSnapshot && !win.closeInfo) {
      await win.quiet(300);
      const screen = (await daemon.cli('read-screen', String(attached.session))).split('\n').map((l) => l.trimEnd()).filter(Boolean);
      const shown = stripEscapes(Buffer.concat([win.lastSnapshot, ...win.sinceSnapshot]).toString('utf8'));
      screenMatches = screen.every((l) => shown.includes(l));
    }
    results.e = {
      mb, drain_s: drainS, drain_mb_s: ptyBytes(mb) / 1e6 / drainS, // PTY bytes: lines + \r\n
      rss_before_kib: base.rss, rss_peak_kib: peak, rss_growth_kib: peak - base.rss, anon_growth_kib: peakAnon - base.anon,
      rss_after_kib: settled.rss, samples: series.length,
      stalled_s: stalledS, bytes_read_while_stalled: received, closed: closedWhileStalled, closed_on_resume: closedOnResume, catch_up_ms: catchUp, catch_up_via: via,
      snapshots_after_resume: w.snapshotCount - 1, screen_lines_found: screenMatches,
    };
    w.close();
    win.close();
  } finally { await daemon.stop(); }
}

// ---------------------------------------------------------------------------------------
// Report

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const line = (r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

function report() {
  const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
  const sf = (x, d = 1) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(d)}` : 'n/a');
  const rows = [['figure', 'bare PTY', 'wharf', 'ratio / added', 'target']];
  const { a, b, c, d, e, g } = results;
  if (a) {
    rows.push([`(a) relay ${a.mb} MB, median of ${a.runs.length}`, `${f(a.bare_mb_s)} MB/s`, `${f(a.relay_mb_s)} MB/s`, `${f(100 * a.ratio_of_medians, 0)}% (per-run median ${f(100 * a.median_ratio, 0)}%)`, '>= 70% of bare, > 46.6 MB/s (ttyd)']);
    rows.push(['(a) daemon CPU per 100 MB', '', `${f(a.daemon_cpu_s_per_100mb, 2)} s`, `client ${f(a.client_cpu_s_per_100mb, 2)} s`, '(ttyd ~1.0 s)']);
  }
  if (b) {
    for (const k of ['cat', 'bash']) {
      const x = b[k];
      rows.push([`(b) echo p50, ${k === 'cat' ? 'cat (kernel echo)' : 'bash readline'}`, `${f(x.bare.p50_ms, 3)} ms`, `${f(x.wharf.p50_ms, 3)} ms`, `${sf(x.added_p50_ms, 3)} ms`, '']);
      rows.push([`(b) echo p99, ${k === 'cat' ? 'cat (kernel echo)' : 'bash readline'}`, `${f(x.bare.p99_ms, 3)} ms`, `${f(x.wharf.p99_ms, 3)} ms`, `${sf(x.added_p99_ms, 3)} ms`, 'added p99 < 1 ms']);
      rows.push([`(b)   reference: Node ws echo server (no PTY), interleaved, p50 / p99`, '', `${f(x.wharf.ws_floor.p50_ms, 3)} / ${f(x.wharf.ws_floor.p99_ms, 3)} ms`, `wharf minus it: ${sf(x.over_ws_floor_p50_ms, 3)} / ${sf(x.over_ws_floor_p99_ms, 3)} ms`, '']);
    }
  }
  if (c) rows.push([`(c) idle session, daemon RSS (${c.sessions} sessions)`, '', `${c.rss0_kib} -> ${c.rss_kib} KiB`, `${f(c.kib_per_session)} KiB/session (anon ${f(c.anon_kib_per_session)})`, '< 256 KiB']);
  if (d) {
    rows.push([`(d) attach -> snapshot frame, ${d.scrollback_lines_printed} lines printed, median of ${d.runs}`, '', `${f(d.attach_p50_ms, 2)} ms`, `max ${f(d.attach_max_ms, 2)} ms; snapshot ${d.snapshot_bytes} B`, '< 10 ms']);
    rows.push(['(d) connect + attach -> snapshot frame', '', `${f(d.connect_attach_p50_ms, 2)} ms`, `max ${f(d.connect_attach_max_ms, 2)} ms`, '']);
  }
  if (e) {
    rows.push([`(e) stalled window, ${e.mb} MB: daemon RSS growth`, '', `+${e.rss_growth_kib} KiB (peak ${e.rss_peak_kib})`, `anon +${e.anon_growth_kib} KiB; ${e.closed_on_resume ? `dropped (${e.closed_on_resume.code}) by the idle timeout` : 'not dropped'}`, 'bounded']);
    rows.push(['(e) PTY drain while stalled', '', `${f(e.drain_mb_s)} MB/s`, a ? `${f(100 * e.drain_mb_s / a.relay_mb_s, 0)}% of (a) relay` : '', 'PTY keeps draining']);
    rows.push(['(e) resumed window sees the end after', '', e.catch_up_ms === null ? 'n/a' : `${f(e.catch_up_ms, 0)} ms`, `via ${e.catch_up_via}; read-screen lines all shown: ${e.screen_lines_found}`, 'screen exact after catch-up']);
  }
  if (g) {
    for (const [n, x] of Object.entries(g.counts)) {
      rows.push([`(g) ${n} session(s) at once, ${g.mb_per_session} MB each, aggregate`, `${f(x.bare_mb_s)} MB/s`, `${f(x.wharf_mb_s)} MB/s`, `${f(100 * x.ratio, 0)}%; CPU daemon ${f(x.daemon_cpu_s, 2)} s, hosts ${f(x.hosts_cpu_s, 2)} s`, 'scales with cores']);
    }
  }
  return table(rows);
}

// ---------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(opts.wharf)) throw new Error(`no daemon binary at ${opts.wharf} (build it, or --wharf PATH)`);
  ptyDrainBin = findPtyDrain();
  const version = (await run(opts.wharf, ['--version'])).trim();
  results.meta = {
    date: new Date().toISOString(), mode: opts.quick ? 'quick' : 'full', wharf: opts.wharf, version, build_type: buildType(opts.wharf),
    pty_drain: ptyDrainBin, cpu: cpus()[0]?.model, cores: cpus().length, mem_gib: round(totalmem() / 2 ** 30, 1), kernel: release(), node: process.version,
    window: `${opts.cols}x${opts.rows}`, producer: producer(opts.mb), loadavg_start: loadavg().map((x) => round(x)),
  };
  const m = results.meta;
  console.log(`wharf relay benchmark (${m.mode}) ${m.date}\n  ${m.version}, build type ${m.build_type}; ${m.cores} x ${m.cpu}; kernel ${m.kernel}; node ${m.node}; load ${m.loadavg_start.join(' ')}`);
  if (!/^Rel/i.test(m.build_type)) console.log(`  note: ${opts.wharf} is not an optimised build; build the release preset for representative figures`);
  const t0 = Date.now();

  if (want('c')) { process.stderr.write('(c) idle sessions...\n'); await sectionIdle(); }
  if (want('a') || want('b') || want('d')) {
    const daemon = await startDaemon();
    try {
      let w = null;
      if (want('a')) { process.stderr.write('(a) throughput...\n'); w = await sectionThroughput(daemon); }
      if (want('b')) { process.stderr.write('(b) echo...\n'); w = await sectionEcho(daemon, w); }
      if (w) w.close();
      if (want('d')) { process.stderr.write('(d) attach...\n'); await sectionAttach(daemon); }
    } finally { await daemon.stop(); }
  }
  if (want('g')) { process.stderr.write('(g) sessions at once...\n'); await sectionParallel(); }
  if (want('e')) {
    // 1 GiB if the relay rate of (a) says it drains within about a minute, else 256 MB.
    const rate = results.a?.relay_mb_s ?? 0;
    const defaultMb = rate * 60 >= 1074 ? 1024 : 256;
    process.stderr.write('(e) stalled window...\n');
    await sectionStall(defaultMb);
  }
  results.meta.seconds = round((Date.now() - t0) / 1000, 1);
  results.meta.loadavg_end = loadavg().map((x) => round(x));
  console.log(report());
  console.log(`  ${results.meta.seconds} s; load at end ${results.meta.loadavg_end.join(' ')}`);
  console.log(JSON.stringify(results, (k, v) => (typeof v === 'number' && !Number.isInteger(v) ? round(v, 4) : v)));
}

main().then(() => process.exit(0), (e) => { console.error(`relay.mjs: ${e.stack ?? e}`); process.exit(1); });
