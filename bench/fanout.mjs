#!/usr/bin/env node
// wharf fan-out and scale benchmark (docs/performance.md, "Targets"): what many windows and
// many sessions cost the daemon. Prints figures and ratios, never a verdict.
//
//   node bench/fanout.mjs [--quick] [--only f,g] [--wharf PATH]
//
// Sections:
//   f  fan-out: one session prints N MB of 99-column lines while W windows watch it
//      (each acknowledging as it reads, like the page); the PTY drain rate is timed from
//      the command to its end marker on the daemon's own screen (`wharf read-screen`), so
//      slow windows cannot hide in it. W = 1, then 100. Median of R runs each; the ratio
//      of 100 windows to 1 is the figure wharf's target keeps above 80%.
//   g  scale: S idle sessions (an interactive action running `sleep`), then C windows
//      (C/S per session) connecting and attaching at once; time to have every window
//      attached with its snapshot, daemon VmRSS and open descriptors at each step, and
//      one session's keystroke echo p50/p99 with all of them attached.
//
// Options: --quick (small), --mb N, --runs R, --watchers W, --sessions S, --clients C,
//          --wharf PATH (default $WHARF_BIN, else build-release/wharf, else build/wharf)
import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WebSocket = createRequire(join(root, 'package.json'))('ws');

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
if (flag('--help') || flag('-h')) {
  const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
  console.log(lines.slice(1, lines.findIndex((l) => l.startsWith('import'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
const quick = flag('--quick');
const only = value('--only', 'f,g').split(',');
const opts = {
  mb: Number(value('--mb', quick ? 10 : 50)),
  runs: Number(value('--runs', quick ? 1 : 3)),
  watchers: Number(value('--watchers', quick ? 20 : 100)),
  sessions: Number(value('--sessions', quick ? 50 : 500)),
  clients: Number(value('--clients', quick ? 200 : 2000)),
  wharf: resolve(value('--wharf', process.env.WHARF_BIN ?? [join(root, 'build-release/wharf'), join(root, 'build/wharf')].find(existsSync))),
};

const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (v) => { const s = [...v].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };
const pct = (v, p) => { const s = [...v].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]; };
const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
const fds = (pid) => readdirSync(`/proc/${pid}/fd`).length;

async function until(check, { timeout = 60000, interval = 20, what = 'condition' } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(interval);
  }
}

function cli(d, ...a) {
  return new Promise((res) => execFile(opts.wharf, [...a, '--state-dir', d.stateDir], { maxBuffer: 64 << 20 }, (e, stdout, stderr) => res({ code: e ? e.code ?? 1 : 0, stdout, stderr })));
}

const daemons = [];
process.on('exit', () => { for (const d of daemons) try { d.child.kill('SIGKILL'); rmSync(d.stateDir, { recursive: true, force: true }); } catch { /* gone */ } });

async function startDaemon(maxSessions) {
  const stateDir = mkdtempSync(join(tmpdir(), 'wharf-fanout-'));
  const config = join(stateDir, 'config.toml');
  writeFileSync(config, '[actions.idle]\nargv = ["sleep", "86400"]\ninteractive = true\n');
  const child = spawn(opts.wharf, ['serve', '--port', '0', '--state-dir', stateDir, '--config', config, '--max-sessions', String(maxSessions), '--log-level', 'warn'],
    { cwd: stateDir, env: { PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, LANG: 'C.UTF-8' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((res, rej) => {
    let out = '';
    child.stdout.on('data', (c) => { out += c; const nl = out.indexOf('\n'); if (nl >= 0) res(out.slice(0, nl)); });
    child.on('exit', (code) => rej(new Error(`daemon exited ${code}`)));
  });
  const u = new URL(url);
  const d = { child, stateDir, pid: child.pid, port: Number(u.port), key: u.searchParams.get('k'), origin: u.origin };
  daemons.push(d);
  return d;
}

async function stopDaemon(d) {
  d.child.kill('SIGTERM');
  await new Promise((r) => (d.child.exitCode !== null ? r() : d.child.on('exit', r)));
  rmSync(d.stateDir, { recursive: true, force: true });
  daemons.splice(daemons.indexOf(d), 1);
}

// A window that acknowledges everything it reads, as the page does.
function openWindow(d, { cols = 80, rows = 24 } = {}) {
  const ws = new WebSocket(`ws://127.0.0.1:${d.port}/ws?k=${d.key}&cols=${cols}&rows=${rows}`, { headers: { Origin: d.origin }, perMessageDeflate: false });
  const w = { ws, bytes: 0, acked: 0, attached: null, snapshots: 0, messages: [], text: '' };
  let scheduled = false;
  const ack = () => { scheduled = false; if (w.attached && w.bytes > w.acked && ws.readyState === 1) { w.acked = w.bytes; ws.send(JSON.stringify({ type: 'ack', bytes: w.bytes })); } };
  ws.on('message', (data, binary) => {
    if (binary) {
      w.bytes += data.length;
      w.text = (w.text + data.toString('latin1')).slice(-4096);
      if (w.bytes - w.acked >= 65536) ack(); else if (!scheduled) { scheduled = true; setImmediate(ack); }
      return;
    }
    const m = JSON.parse(String(data));
    if (m.type === 'attached') { w.attached = m; w.bytes = 0; w.acked = 0; }
    if (m.type === 'snapshot') w.snapshots += 1;
    w.messages.push(m);
  });
  ws.on('error', () => {});
  w.opened = new Promise((res, rej) => { ws.once('open', res); ws.once('unexpected-response', (_, r) => rej(new Error(`HTTP ${r.statusCode}`))); ws.once('error', rej); });
  w.waitFor = (pred, timeout = 60000) => until(() => w.messages.find(pred), { timeout, what: 'message' });
  return w;
}

async function attach(w, fields) {
  await w.opened;
  const from = w.messages.length;
  w.ws.send(JSON.stringify({ type: 'attach', ...fields }));
  await until(() => w.messages.slice(from).some((m) => m.type === 'attached') && w.snapshots > 0 && w.bytes > 0, { what: 'attach' });
}

async function sectionFanout() {
  const d = await startDaemon(8);
  const out = {};
  const started = await cli(d, 'new', '--shell', 'sh');
  const id = Number(started.stdout.trim());
  for (const watchers of [1, opts.watchers]) {
    const windows = Array.from({ length: watchers }, () => openWindow(d));
    await Promise.all(windows.map((w) => attach(w, { session: id })));
    const rates = [];
    for (let r = 0; r < opts.runs; r += 1) {
      const marker = `END${randomBytes(4).toString('hex')}`;
      const t0 = now();
      // The driver (the first window) types; the marker is split so the echo cannot match.
      windows[0].ws.send(Buffer.from(`head -c ${opts.mb * 1e6} /dev/zero | tr '\\0' x | fold -w 99; echo ${marker.slice(0, 3)}''${marker.slice(3)}\r`), { binary: true });
      await until(async () => (await cli(d, 'read-screen', String(id))).stdout.includes(marker), { timeout: 600000, interval: 50, what: 'marker' });
      rates.push((opts.mb * 1e6 * (1 + 1 / 99)) / ((now() - t0) / 1000) / 1e6);
    }
    out[watchers] = { mb_per_s: median(rates), runs: rates, rss_kib: rssKiB(d.pid), snapshots: windows.reduce((n, w) => n + w.snapshots, 0) - watchers };
    for (const w of windows) w.ws.terminate();
    await sleep(200);
  }
  await stopDaemon(d);
  const one = out[1].mb_per_s;
  const many = out[opts.watchers].mb_per_s;
  console.log(`f  fan-out: ${opts.mb} MB per run, median of ${opts.runs}`);
  console.log(`   1 window:     ${one.toFixed(1)} MB/s drained`);
  console.log(`   ${opts.watchers} windows: ${many.toFixed(1)} MB/s drained (${((100 * many) / one).toFixed(0)}% of one), ${out[opts.watchers].snapshots} catch-up snapshots, daemon RSS ${(out[opts.watchers].rss_kib / 1024).toFixed(1)} MiB`);
  return out;
}

async function sectionScale() {
  const d = await startDaemon(opts.sessions + 8);
  const base = { rss_kib: rssKiB(d.pid), fds: fds(d.pid) };
  const t0 = now();
  const ids = [];
  for (let i = 0; i < opts.sessions; i += 16) {
    const batch = await Promise.all(Array.from({ length: Math.min(16, opts.sessions - i) }, () => cli(d, 'new', '--action', 'idle')));
    for (const r of batch) { if (r.code !== 0) throw new Error(`wharf new: ${r.stderr}`); ids.push(Number(r.stdout.trim())); }
  }
  const startMs = now() - t0;
  const withSessions = { rss_kib: rssKiB(d.pid), fds: fds(d.pid) };

  const t1 = now();
  const windows = Array.from({ length: opts.clients }, () => openWindow(d));
  await Promise.all(windows.map((w, i) => attach(w, { session: ids[i % ids.length] })));
  const attachMs = now() - t1;
  const withClients = { rss_kib: rssKiB(d.pid), fds: fds(d.pid) };

  // Echo through one extra session while every window stays attached.
  const shell = Number((await cli(d, 'new', '--shell', 'sh')).stdout.trim());
  const probe = openWindow(d);
  await attach(probe, { session: shell });
  probe.ws.send(Buffer.from('stty raw -echo; cat\r'), { binary: true });
  await sleep(500);
  const samples = [];
  for (let i = 0; i < 200; i += 1) {
    const before = probe.bytes;
    const t = now();
    probe.ws.send(Buffer.from('x'), { binary: true });
    await until(() => probe.bytes > before, { interval: 0, timeout: 5000, what: 'echo' });
    samples.push(now() - t);
  }
  for (const w of [...windows, probe]) w.ws.terminate();
  await stopDaemon(d);
  const perSession = (withSessions.rss_kib - base.rss_kib) / opts.sessions;
  const perClient = (withClients.rss_kib - withSessions.rss_kib) / opts.clients;
  console.log(`g  scale: ${opts.sessions} sessions, ${opts.clients} windows`);
  console.log(`   started ${opts.sessions} sessions in ${(startMs / 1000).toFixed(1)} s; daemon RSS +${(perSession).toFixed(0)} KiB per session, fds ${withSessions.fds}`);
  console.log(`   ${opts.clients} windows attached (with snapshots) in ${(attachMs / 1000).toFixed(2)} s; RSS +${perClient.toFixed(1)} KiB per window, total ${(withClients.rss_kib / 1024).toFixed(1)} MiB, fds ${withClients.fds}`);
  console.log(`   echo with all attached: p50 ${pct(samples, 50).toFixed(2)} ms, p99 ${pct(samples, 99).toFixed(2)} ms`);
  return { base, withSessions, withClients, startMs, attachMs, per_session_kib: perSession, per_window_kib: perClient, echo_p50_ms: pct(samples, 50), echo_p99_ms: pct(samples, 99) };
}

const results = { wharf: opts.wharf, opts };
console.log(`wharf ${opts.wharf}`);
if (only.includes('f')) results.f = await sectionFanout();
if (only.includes('g')) results.g = await sectionScale();
console.log(JSON.stringify(results));
process.exit(0);
