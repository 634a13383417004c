#!/usr/bin/env node
// wharf page benchmark: what a person feels in the page. Headless Chromium (Debian's
// /usr/bin/chromium through playwright-core, as the browser tests launch it) opens the
// real page with its real xterm.js, attached to a fresh login shell of a daemon started
// for the run; we time what shows on the page's screen. Prints figures, never a verdict.
//
//   node bench/page.mjs [--quick] [options]
//
// Figures (median of --runs runs each; every run a fresh session and a fresh window):
//   cat     `cat FILE` of a --mb MB text file (lines of varied printable text, ending
//           with a unique marker line): from sending Enter (a key press in the page's
//           terminal) to the page showing the final screen (the marker line, then the
//           prompt, and nothing after it). Target: within 1 s.
//   ctrl-c  `yes`, 2 s later Ctrl+C pressed in the terminal: from sending it to the
//           page showing a fresh prompt as its last non-empty line. Target: 200 ms.
//   bare    for comparison, in the same run: how long a bare PTY reader takes to drain
//           the same `cat FILE` (bench/pty_drain.cpp, `pty_drain -- cat FILE`, at the
//           page's terminal size), interleaved with the cat runs.
//   alone   also for comparison: the same file's bytes (\n as \r\n) written straight
//           into the page's terminal (no daemon, no socket), until parsed and painted.
//
// "Shown" is read two ways, both from inside the page (no round trip to Node in the
// timing): painted, the headline figure (xterm.js's buffer at the viewport, read each
// time its renderer has drawn rows: what the canvas shows), and the accessibility tree
// that tests/support/page.mjs reads (screenRows), polled on every animation frame and
// every 10 ms; xterm.js refreshes that tree at most once a second, so it lags. The
// Terminal object is found without touching the page's code (the DevTools protocol's
// Runtime.queryObjects on the prototype of the Terminal class the page imported). The
// page's WebSocket is observed from inside too (a subclass installed before the page's
// scripts): when the page's script got each frame, bytes of live output and of
// snapshots, acks sent, bytes received but not yet acknowledged, and when the marker and
// the prompt first arrived in a frame; plus the main thread's long tasks. That splits
// each figure into "reached the page's script" and "parsed and painted".
//
// Options:
//   --quick            2 runs of a 2 MB file (about 30 s)
//   --runs N           runs of each figure (default 5; quick 2)
//   --mb N             size of the file, MB = 10^6 bytes (default 5; quick 2)
//   --yes-seconds S    how long `yes` runs before Ctrl+C (default 2)
//   --width W --height H   the browser window's viewport (default 1000x640, like the
//                      browser tests)
//   --wharf PATH       daemon binary (default $WHARF_BIN, else build-release/wharf if
//                      built (cmake --preset release), else build/wharf (Debug))
//   --pty-drain PATH   baseline binary (default: wharf_bench_pty_drain beside the daemon
//                      or in build/bench, else compiled with g++ -O2 into a temp dir)
//   --only cat,alone,ctrlc   run only these (bare runs beside cat or alone)
// Diagnostic variants (not what the page does; to see where the page's time goes):
//   --no-webgl         Chromium without WebGL: the page falls back to xterm.js's DOM
//                      renderer
//   --no-screen-reader turn xterm.js's screenReaderMode off once the page has its
//                      prompt (the page keeps it on); only the painted screen is read
//
// Note: headless Chromium has no GPU here; WebGL runs on SwiftShader (software, in the
// GPU process, on the same cores as everything else). The renderer is printed.
import { spawn, execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg, totalmem, release } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { launchBrowser } from '../tests/support/page.mjs';
import { printedUrl } from './printed_url.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

// ---------------------------------------------------------------------------------------
// Options

function parseArgs(argv) {
  const o = { quick: false, width: 1000, height: 640, yesSeconds: 2 };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    const val = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
    const num = () => { const v = Number(val()); if (!Number.isFinite(v) || v <= 0) throw new Error(`${a}: bad number`); return v; };
    switch (a) {
      case '--quick': o.quick = true; break;
      case '--runs': o.runs = Math.round(num()); break;
      case '--mb': o.mb = num(); break;
      case '--yes-seconds': o.yesSeconds = num(); break;
      case '--width': o.width = Math.round(num()); break;
      case '--height': o.height = Math.round(num()); break;
      case '--wharf': o.wharf = resolve(val()); break;
      case '--pty-drain': o.ptyDrain = resolve(val()); break;
      case '--only': o.only = new Set(val().split(',').map((x) => x.trim())); break;
      case '--no-webgl': o.noWebgl = true; break;
      case '--no-screen-reader': o.noScreenReader = true; break;
      case '-h': case '--help':
        { const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
          console.log(lines.slice(1, lines.findIndex((l) => l.startsWith('import'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n')); }
        process.exit(0);
        break;
      default: throw new Error(`unknown option ${a} (see --help)`);
    }
  }
  o.runs ??= o.quick ? 2 : 5;
  o.mb ??= o.quick ? 2 : 5;
  o.wharf ??= process.env.WHARF_BIN ?? [join(root, 'build-release', 'wharf'), join(root, 'build', 'wharf')].find((p) => existsSync(p)) ?? join(root, 'build', 'wharf');
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const want = (x) => !opts.only || opts.only.has(x);

// ---------------------------------------------------------------------------------------
// Small utilities

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const token = () => randomBytes(4).toString('hex');
const epochMs = () => performance.timeOrigin + performance.now(); // same clock as the page's
const round = (x, d = 2) => (Number.isFinite(x) ? Number(x.toFixed(d)) : null);
function median(values) {
  const v = values.filter(Number.isFinite).sort((x, y) => x - y);
  if (!v.length) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

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

let clkTck = 100;
try { clkTck = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100; } catch { /* 100 */ }
function cpuSeconds(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / clkTck; // utime + stime
  } catch { return NaN; }
}

function buildType(binary) {
  try {
    const cache = readFileSync(join(dirname(binary), 'CMakeCache.txt'), 'utf8');
    return (cache.match(/^CMAKE_BUILD_TYPE:STRING=(.*)$/m) ?? [])[1] || 'unknown';
  } catch { return 'unknown (no CMakeCache.txt beside the binary)'; }
}

const cleanups = [];
function cleanupNow() { for (const c of cleanups.splice(0).reverse()) { try { c(); } catch { /* best effort */ } } }
process.on('exit', cleanupNow);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

// ---------------------------------------------------------------------------------------
// The file, the home and the baseline

// Lines of varied printable ASCII (words, numbers, punctuation; 0 to 180 columns, so
// some wrap), from a seeded generator, then one marker line. Returns its facts.
function makeFile(path, mb, marker) {
  const target = Math.round(mb * 1e6);
  const words = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'terminal', 'session',
    'wharf', 'window', 'snapshot', 'budget', 'scroll', 'render', 'cursor', 'prompt', 'kernel', 'buffer',
    'a', 'of', 'to', 'in', 'is', 'it', 'and', 'for', 'with', 'xterm.js', 'PTY', 'UTF-8', '(ok)', '[42]',
    '{x: 1}', 'foo_bar', 'C++20', '#include', '-->', '=>', 'e.g.', 'i.e.', '100%', '~/src', '/usr/bin'];
  let seed = 0x9e3779b9;
  const rnd = (n) => { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0; return seed % n; };
  const parts = [];
  let size = 0; let lines = 0; let lineNo = 0;
  const end = `${marker}\n`;
  while (size < target - end.length) {
    lineNo += 1;
    const want = rnd(8) === 0 ? 0 : rnd(4) === 0 ? 80 + rnd(100) : 10 + rnd(70);
    let line = rnd(3) === 0 ? `${String(lineNo).padStart(7)}: ` : '';
    while (line.length < want) {
      const r = rnd(10);
      line += r < 7 ? words[rnd(words.length)] : r < 9 ? String(rnd(100000)) : '.,;:!?'[rnd(6)];
      line += rnd(9) === 0 ? '  ' : ' ';
    }
    line = `${line.slice(0, Math.max(0, target - end.length - size - 1)).trimEnd()}\n`;
    parts.push(line);
    size += line.length;
    lines += 1;
  }
  parts.push(end);
  size += end.length;
  lines += 1;
  writeFileSync(path, parts.join(''));
  return { bytes: size, lines, pty_bytes: size + lines }; // ONLCR: \n becomes \r\n
}

function makeHome(prompt) {
  const home = mkdtempSync(join(tmpdir(), 'wharf-bench-page-home-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  // A fixed, unique prompt; no history file; nothing from the user's own start-up files.
  writeFileSync(join(home, '.bashrc'), `PS1='${prompt} '\nunset PROMPT_COMMAND\nHISTFILE=/dev/null\n`);
  writeFileSync(join(home, '.profile'), '. ~/.bashrc\n');
  writeFileSync(join(home, '.bash_profile'), '. ~/.bashrc\n');
  mkdirSync(join(home, 'work'));
  return home;
}

function findPtyDrain() {
  const candidates = [opts.ptyDrain, join(dirname(opts.wharf), 'bench', 'wharf_bench_pty_drain'),
    join(root, 'build-release', 'bench', 'wharf_bench_pty_drain'), join(root, 'build', 'bench', 'wharf_bench_pty_drain')].filter(Boolean);
  for (const c of candidates) if (existsSync(c)) return c;
  if (opts.ptyDrain) throw new Error(`--pty-drain ${opts.ptyDrain} does not exist`);
  const dir = mkdtempSync(join(tmpdir(), 'wharf-bench-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'pty_drain');
  execFileSync('g++', ['-std=c++20', '-O2', '-o', out, join(here, 'pty_drain.cpp'), '-lutil'], { stdio: 'inherit' });
  return out;
}

// ---------------------------------------------------------------------------------------
// The daemon: temporary state dir, port 0, no user config, a HOME of its own, bash.

async function startDaemon(home) {
  const stateDir = mkdtempSync(join(tmpdir(), 'wharf-bench-page-state-'));
  const env = {
    PATH: process.env.PATH, HOME: home, USER: process.env.USER, SHELL: '/bin/bash',
    LANG: process.env.LANG ?? 'C.UTF-8', XDG_CONFIG_HOME: join(stateDir, 'config'),
  };
  const child = spawn(opts.wharf, ['serve', '--port', '0', '--state-dir', stateDir, '--workspace', join(home, 'work')],
    { cwd: join(home, 'work'), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-8000); });
  const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
  const kill = () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); };
  cleanups.push(kill);
  cleanups.push(() => rmSync(stateDir, { recursive: true, force: true }));
  const url = await printedUrl(child, exited, () => stderr);
  return {
    pid: child.pid, url, stateDir,
    get stderr() { return stderr; },
    cli: (...args) => run(opts.wharf, [args[0], '--state-dir', stateDir, ...args.slice(1)], { timeout: 20000 }),
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
// What runs inside the page, before its own scripts (context.addInitScript).

function instrument() {
  const B = {
    rec: null, // the measurement under way: counters since start()
    keyAt: null, // performance.now() of the first keydown after arm()
    armed: false,
    session: null,
    epochBytes: 0, // binary bytes since the last `attached`, and the last ack's count
    acked: 0,
    size: null, // the session's size as the page last asked for or was told
    renderer: null,
  };
  window.__bench = B;
  const fresh = (needles) => ({
    t0: performance.now(), needles, seen: {}, liveBytes: 0, liveFrames: 0, snapshots: 0, snapshotBytes: 0,
    textFrames: 0, acks: 0, ackBytes: 0, lastAckAt: null, liveEndAt: null, maxUnacked: 0, firstFrameAt: null, lastFrameAt: null, tail: '', snapshotAt: [],
    longTaskMs: 0, longTasks: 0, checks: 0, checkMs: 0, afterSeen: null,
  });
  B.start = (needles = []) => { B.rec = fresh(needles); B.rec.unackedAtStart = B.epochBytes - B.acked; return B.rec.t0; };
  B.stats = () => { const r = B.rec; return r ? { ...r, tail: undefined, needles: undefined } : null; };

  // Which frame first carried each needle (live output, or a snapshot). `afterSeen`:
  // needles[1] seen after needles[0] (the prompt after the marker).
  function scan(text, kind, at) {
    const r = B.rec;
    if (!r || !r.needles.length) return;
    const hay = kind === 'live' ? r.tail + text : text;
    for (const n of r.needles) {
      if (r.seen[n] == null && hay.includes(n)) r.seen[n] = { at, via: kind };
    }
    if (r.needles.length > 1 && r.afterSeen == null) {
      const [a, b] = r.needles;
      const ia = hay.lastIndexOf(a);
      const ib = hay.lastIndexOf(b);
      if ((ia >= 0 && ib > ia) || (ia < 0 && r.seen[a] && ib >= 0)) r.afterSeen = { at, via: kind };
    }
    if (kind === 'live') r.tail = text.slice(-200);
    else r.tail = '';
  }

  const decoder = new TextDecoder('latin1');
  const Native = window.WebSocket;
  class Observed extends Native {
    constructor(...args) {
      super(...args);
      let snapshotNext = false;
      this.addEventListener('message', ({ data }) => {
        const at = performance.now();
        const r = B.rec;
        if (typeof data === 'string') {
          let m = null;
          try { m = JSON.parse(data); } catch { /* not ours to judge */ }
          if (m?.type === 'snapshot') snapshotNext = true;
          if (m?.type === 'attached') { B.session = m.session; B.size = { cols: m.cols, rows: m.rows }; B.epochBytes = 0; B.acked = 0; }
          if (m?.type === 'size') B.size = { cols: m.cols, rows: m.rows };
          if (r) r.textFrames += 1;
          return;
        }
        const bytes = data.byteLength ?? data.size ?? 0;
        const kind = snapshotNext ? 'snapshot' : 'live';
        snapshotNext = false;
        B.epochBytes += bytes;
        if (!r) return;
        r.maxUnacked = Math.max(r.maxUnacked, B.epochBytes - B.acked);
        if (kind === 'live' && !r.snapshots) r.liveEndAt = at; // the last live frame before the first snapshot
        r.firstFrameAt ??= at;
        r.lastFrameAt = at;
        if (kind === 'snapshot') { r.snapshots += 1; r.snapshotBytes += bytes; r.snapshotAt.push(at); } else { r.liveBytes += bytes; r.liveFrames += 1; }
        if (r.needles.length && data instanceof ArrayBuffer) scan(decoder.decode(data), kind, at);
      });
    }

    send(data) {
      if (typeof data === 'string' && data.startsWith('{"type":"ack"')) {
        const r = B.rec;
        let n = null;
        try { n = JSON.parse(data).bytes; } catch { /* */ }
        if (Number.isFinite(n)) B.acked = n;
        if (r) { r.acks += 1; r.lastAckAt = performance.now(); r.ackBytes = n; }
      } else if (typeof data === 'string' && data.startsWith('{"type":"resize"')) {
        try { const m = JSON.parse(data); B.size = { cols: m.cols, rows: m.rows }; } catch { /* */ }
      }
      return super.send(data);
    }
  }
  window.WebSocket = Observed;

  addEventListener('keydown', () => { if (B.armed) { B.armed = false; B.keyAt = performance.now(); } }, true);
  B.arm = () => { B.armed = true; B.keyAt = null; };

  try {
    new PerformanceObserver((list) => {
      const r = B.rec;
      if (!r) return;
      for (const e of list.getEntries()) if (e.startTime >= r.t0) { r.longTaskMs += e.duration; r.longTasks += 1; }
    }).observe({ type: 'longtask' });
  } catch { /* no long task timing */ }

  // The screen as tests/support/page.mjs reads it: the rows of the accessibility tree.
  B.rows = () => Array.from(document.querySelectorAll('.xterm-accessibility-tree > div'),
    (row) => row.textContent.replace(/\u00a0/g, ' ').trimEnd());
  const lastNonEmpty = (rows, before = rows.length) => { for (let i = before - 1; i >= 0; i -= 1) if (rows[i].trim()) return i; return -1; };
  const conditions = {
    // The marker line, then the prompt, and nothing after it.
    final: (rows, { marker, prompt }) => {
      const p = lastNonEmpty(rows);
      return p > 0 && rows[p].trim() === prompt && rows[lastNonEmpty(rows, p)]?.trim() === marker;
    },
    // A fresh prompt as the last non-empty line.
    prompt: (rows, { prompt }) => { const p = lastNonEmpty(rows); return p >= 0 && rows[p].trim() === prompt; },
    // This line as the last non-empty one.
    last: (rows, { line }) => { const p = lastNonEmpty(rows); return p >= 0 && rows[p].trim() === line; },
    // The prompt with this command typed after it.
    typed: (rows, { prompt, command }) => { const p = lastNonEmpty(rows); return p >= 0 && rows[p].trim() === `${prompt} ${command}`; },
  };
  // The painted screen: xterm.js's buffer at the viewport, read each time the renderer
  // has drawn rows (term.onRender fires right after it drew them), so it is what the
  // WebGL canvas shows. The terminal object is handed over by Node (setTerm) once the
  // page runs.
  B.term = null;
  B.painted = () => {
    const t = B.term; const buf = t.buffer.active; const out = [];
    for (let y = 0; y < t.rows; y += 1) out.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
    return out;
  };
  const renderHooks = new Set();
  B.setTerm = (term) => { B.term = term; term.onRender(() => { for (const h of [...renderHooks]) h(); }); };

  // Resolves once the condition holds on both readings of the screen (or the deadline
  // passes): { painted: { at, ok }, a11y: { at, ok }, rows }. The painted screen is
  // checked after every render; the accessibility tree (which xterm.js refreshes at most
  // once a second: TimeBasedDebouncer) on every animation frame and every 10 ms.
  B.watch = (name, params, timeoutMs = 120000) => new Promise((resolve) => {
    const started = performance.now();
    const out = { painted: B.term ? null : { at: null, ok: false, missing: true }, a11y: null, rows: null };
    let raf = 0; let timer = 0;
    const finish = () => {
      if (!out.painted || !out.a11y) return;
      cancelAnimationFrame(raf);
      clearInterval(timer);
      renderHooks.delete(checkPainted);
      resolve(out);
    };
    const timedOut = (t) => t - started > timeoutMs;
    function checkA11y() {
      if (out.a11y) return;
      if (!document.querySelector('.xterm-accessibility-tree')) { out.a11y = { at: null, ok: false, missing: true }; finish(); return; }
      const c0 = performance.now();
      const rows = B.rows();
      const ok = conditions[name](rows, params);
      const c1 = performance.now();
      if (B.rec) { B.rec.checks += 1; B.rec.checkMs += c1 - c0; }
      if (ok || timedOut(c1)) { out.a11y = { at: c0, ok }; out.rows ??= rows; finish(); }
    }
    function checkPainted() {
      if (out.painted) return;
      const c0 = performance.now();
      const rows = B.painted();
      const ok = conditions[name](rows, params);
      const c1 = performance.now();
      if (B.rec) { B.rec.checks += 1; B.rec.checkMs += c1 - c0; }
      if (ok || timedOut(c1)) { out.painted = { at: c0, ok }; out.rows = rows; finish(); }
    }
    const frame = () => { checkA11y(); if (out.painted === null && timedOut(performance.now())) checkPainted(); if (!out.a11y || !out.painted) raf = requestAnimationFrame(frame); };
    if (B.term) renderHooks.add(checkPainted);
    raf = requestAnimationFrame(frame);
    timer = setInterval(() => { checkA11y(); if (out.painted === null && timedOut(performance.now())) checkPainted(); }, 10);
    if (B.term) checkPainted();
    checkA11y();
  });
  // The page's terminal alone: the file's bytes (as the PTY turns them, \n -> \r\n)
  // written straight into xterm.js in 64 KiB pieces, no daemon, no socket; from the
  // first write to xterm.js having parsed the last piece, and to the marker painted.
  B.feed = async (text, line) => {
    const data = new TextEncoder().encode(text.replace(/\n/g, '\r\n'));
    const watching = B.watch('last', { line }, 120000);
    const t0 = performance.now();
    let parsedAt = null;
    for (let i = 0; i < data.length; i += 65536) {
      const last = i + 65536 >= data.length;
      B.term.write(data.subarray(i, i + 65536), last ? () => { parsedAt = performance.now(); } : undefined);
    }
    const shown = await watching;
    return { parsed_ms: parsedAt - t0, shown_ms: shown.painted.ok ? shown.painted.at - t0 : null, bytes: data.length };
  };
  B.detectRenderer = () => {
    const canvases = [...document.querySelectorAll('#terminal .xterm-screen canvas')];
    const gl = canvases.map((c) => { try { return c.getContext('webgl2'); } catch { return null; } }).find(Boolean);
    if (gl) {
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      B.renderer = `webgl (${info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)})`;
    } else B.renderer = document.querySelector('#terminal .xterm-rows') ? 'dom' : 'unknown';
    return B.renderer;
  };
}

// ---------------------------------------------------------------------------------------
// One window on a fresh session

let browser;
let daemon;
let prompt;
let problems = [];

async function openWindow() {
  const context = await browser.newContext({ viewport: { width: opts.width, height: opts.height } });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  const response = await page.goto(daemon.url);
  if (response.status() !== 200) throw new Error(`the page answered HTTP ${response.status()}`);
  await page.locator('.xterm-accessibility-tree').waitFor({ timeout: 15000 });
  const terms = await findTerminal(context, page);
  const shown = await page.evaluate(([p]) => window.__bench.watch('prompt', { prompt: p }, 30000), [prompt]);
  if (!shown.a11y.ok && !shown.painted.ok) throw new Error(`no prompt "${prompt}" in the page within 30 s; screen:\n${shown.rows.join('\n')}`);
  if (opts.noScreenReader && terms) await page.evaluate(() => { window.__bench.term.options.screenReaderMode = false; });
  const info = await page.evaluate(() => ({ session: window.__bench.session, size: window.__bench.size, renderer: window.__bench.detectRenderer(), rows: window.__bench.rows().length }));
  return { context, page, terms, ...info };
}

// The page's xterm.js Terminal, without touching the page's code: import the module the
// page loaded (same URL, same module instance), and ask the DevTools protocol for every
// object whose prototype is its Terminal's (Runtime.queryObjects). Hands the first to
// the page's instrument. Returns how many were found (1 expected; 0: a11y only).
async function findTerminal(context, page) {
  const cdp = await context.newCDPSession(page);
  try {
    const proto = await cdp.send('Runtime.evaluate', {
      expression: `import(document.querySelector('link[rel=modulepreload][href*="xterm"]')?.href ?? '/static/vendor/xterm/xterm.mjs').then((m) => m.Terminal.prototype)`,
      awaitPromise: true,
    });
    if (!proto.result?.objectId) return 0;
    const found = await cdp.send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId });
    const r = await cdp.send('Runtime.callFunctionOn', {
      objectId: found.objects.objectId, returnByValue: true,
      functionDeclaration: 'function () { if (this.length) window.__bench.setTerm(this[0]); return this.length; }',
    });
    return r.result.value;
  } catch (e) {
    problems.push(`finding the terminal: ${e.message}`);
    return 0;
  } finally { await cdp.detach().catch(() => {}); }
}

async function closeWindow(w) {
  await w.context.close().catch(() => {});
  if (w.session != null) await daemon.cli('kill', String(w.session)).catch(() => {});
  // The next window must start a session of its own: wait until this one is gone.
  await until(async () => JSON.parse(await daemon.cli('ls', '--json')).length === 0, { timeout: 20000, interval: 100, what: 'the session to end' })
    .catch((e) => process.stderr.write(`  (${e.message})\n`));
}

async function typeCommand(page, command) {
  await page.keyboard.type(command);
  const typed = await page.evaluate(([p, c]) => window.__bench.watch('typed', { prompt: p, command: c }, 10000), [prompt, command]);
  if (!typed.a11y.ok && !typed.painted.ok) throw new Error(`"${command}" not echoed; screen:\n${typed.rows.join('\n')}`);
  await sleep(300); // let the page settle before the timed key
}

// Starts counting, arms the keydown stamp and the screen watcher, presses the key (as
// the page gets it: a key press in the focused terminal), resolves once the condition
// holds on both readings of the screen. Times are in the page's performance.now();
// `sentAt` is when Node sent the key, on the same clock (performance.timeOrigin).
async function timedKey(page, key, watch, params, needles, timeoutMs) {
  await page.evaluate(([w, p, n, t]) => {
    const B = window.__bench;
    B.start(n);
    B.arm();
    B.pending = B.watch(w, p, t);
  }, [watch, params, needles, timeoutMs]);
  const sentEpoch = epochMs();
  await page.keyboard.press(key);
  const shown = await page.evaluate(() => window.__bench.pending);
  const st = await page.evaluate(() => ({ stats: window.__bench.stats(), keyAt: window.__bench.keyAt, origin: performance.timeOrigin }));
  return { shown, ...st, sentAt: sentEpoch - st.origin };
}

// Everything relative to the moment the key was sent.
function summarise(r) {
  const s = r.stats;
  const rel = (t) => (t == null ? null : t - r.sentAt);
  return {
    shown_ms: r.shown.painted.ok ? rel(r.shown.painted.at) : null, // painted (what a person sees)
    a11y_shown_ms: r.shown.a11y.ok ? rel(r.shown.a11y.at) : null, // the accessibility tree (what the tests read)
    ok: r.shown.painted.ok, a11y_ok: r.shown.a11y.ok,
    key_lag_ms: rel(r.keyAt), // sent by Node -> keydown in the page
    first_frame_ms: s.firstFrameAt > r.sentAt ? rel(s.firstFrameAt) : null,
    last_frame_before_shown_ms: rel(s.lastFrameAt),
    last_ack_ms: rel(s.lastAckAt), // xterm.js had processed everything it had been sent
    live_end_ms: rel(s.liveEndAt), // the last live frame before the first snapshot
    max_unacked_bytes: Math.max(s.maxUnacked, s.unackedAtStart), // the most the page held unacknowledged (budget: 1 MiB)
    unacked_at_key_bytes: s.unackedAtStart, // received by the page, not yet processed by xterm.js, when the key was sent
    live_bytes: s.liveBytes, live_frames: s.liveFrames, snapshots: s.snapshots, snapshot_bytes: s.snapshotBytes,
    snapshot_at_ms: s.snapshotAt.map(rel),
    acks: s.acks, ack_bytes: s.ackBytes, long_tasks: s.longTasks, long_task_ms: s.longTaskMs,
    screen_checks: s.checks, screen_check_ms: s.checkMs,
  };
}

// ---------------------------------------------------------------------------------------
// The figures

async function catRun(file, marker, facts) {
  const w = await openWindow();
  try {
    const command = `cat ${file}`;
    await typeCommand(w.page, command);
    const cpu0 = cpuSeconds(daemon.pid);
    const r = await timedKey(w.page, 'Enter', 'final', { marker, prompt }, [marker, prompt], 120000);
    const cpu = cpuSeconds(daemon.pid) - cpu0;
    const s = r.stats;
    const out = {
      ...summarise(r),
      marker_frame_ms: s.seen[marker] ? s.seen[marker].at - r.sentAt : null,
      marker_via: s.seen[marker]?.via ?? null,
      prompt_frame_ms: s.afterSeen ? s.afterSeen.at - r.sentAt : null,
      prompt_via: s.afterSeen?.via ?? null,
      skipped_bytes: facts.pty_bytes - s.liveBytes, // roughly: the prompt and echo are in live bytes too
      daemon_cpu_s: cpu,
      size: w.size, renderer: w.renderer, terminals_found: w.terms,
    };
    if (!r.shown.painted.ok || !r.shown.a11y.ok) out.screen = r.shown.rows;
    return out;
  } finally { await closeWindow(w); }
}

async function ctrlcRun() {
  const w = await openWindow();
  try {
    await typeCommand(w.page, 'yes');
    // Enter: `yes` runs; the page keeps counting what it is sent.
    await w.page.evaluate(() => window.__bench.start([]));
    const yesAt = epochMs();
    await w.page.keyboard.press('Enter');
    const cpu0 = cpuSeconds(daemon.pid);
    await sleep(opts.yesSeconds * 1000);
    const during = await w.page.evaluate(() => window.__bench.stats());
    const cpuYes = cpuSeconds(daemon.pid) - cpu0;
    const r = await timedKey(w.page, 'Control+c', 'prompt', { prompt }, [prompt], 60000);
    const s = r.stats;
    const out = {
      ...summarise(r),
      prompt_frame_ms: s.seen[prompt] ? s.seen[prompt].at - r.sentAt : null,
      prompt_via: s.seen[prompt]?.via ?? null,
      yes_ms: r.origin + r.sentAt - yesAt,
      yes_live_bytes: during.liveBytes, yes_snapshots: during.snapshots, yes_snapshot_bytes: during.snapshotBytes,
      yes_acks: during.acks, yes_acked_bytes: during.ackBytes, yes_long_task_ms: during.longTaskMs,
      daemon_cpu_yes_s: cpuYes,
      size: w.size, renderer: w.renderer, terminals_found: w.terms,
    };
    if (!r.shown.painted.ok || !r.shown.a11y.ok) out.screen = r.shown.rows;
    return out;
  } finally { await closeWindow(w); }
}

async function aloneRun(text, marker) {
  const w = await openWindow();
  try {
    if (!w.terms) return { shown_ms: null, parsed_ms: null, note: 'no terminal object found', size: w.size, renderer: w.renderer };
    await sleep(300);
    const cpu0 = cpuSeconds(daemon.pid);
    const r = await w.page.evaluate(([t, m]) => { window.__bench.start([]); return window.__bench.feed(t, m); }, [text, marker]);
    const st = await w.page.evaluate(() => window.__bench.stats());
    return { ...r, long_task_ms: st.longTaskMs, daemon_cpu_s: cpuSeconds(daemon.pid) - cpu0, size: w.size, renderer: w.renderer };
  } finally { await closeWindow(w); }
}

async function ptyDrain(bin, file, size) {
  const out = await run(bin, ['--cols', String(size?.cols ?? 80), '--rows', String(size?.rows ?? 24), '--', 'cat', file]);
  return JSON.parse(out.trim().split('\n').pop());
}

// ---------------------------------------------------------------------------------------
// Report

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const line = (r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

const f = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const list = (runs, k, d = 0) => runs.map((r) => f(r[k], d)).join(' / ');

function report(results) {
  const { cat, ctrlc, bare, alone } = results;
  const via = (runs, k) => [...new Set(runs.map((r) => r[k]))].join(', ');
  const rows = [['figure', 'median', 'runs', 'target']];
  if (bare) rows.push([`bare PTY: pty_drain -- cat FILE (${results.file.mb} MB)`, `${f(bare.median_ms)} ms (${f(bare.median_mb_s, 1)} MB/s)`, list(bare.runs.map((b) => ({ ms: b.seconds * 1000 })), 'ms'), '']);
  if (alone) {
    rows.push(['xterm.js alone: the file written into the page\'s terminal -> parsed', `${f(alone.median_parsed_ms)} ms (${f(results.file.pty_bytes / 1e3 / alone.median_parsed_ms, 1)} MB/s)`, list(alone.runs, 'parsed_ms'), '']);
    rows.push(['xterm.js alone: -> the marker painted', `${f(alone.median_shown_ms)} ms`, list(alone.runs, 'shown_ms'), '']);
  }
  if (cat) {
    rows.push([`page: cat ${results.file.mb} MB, Enter -> final screen painted`, `${f(cat.median_shown_ms)} ms`, list(cat.runs, 'shown_ms'), '< 1000 ms']);
    rows.push(['  the same on the accessibility tree (screenRows)', `${f(cat.median_a11y_shown_ms)} ms`, list(cat.runs, 'a11y_shown_ms'), '']);
    rows.push(['  Enter -> last live frame before the snapshot', `${f(cat.median_live_end_ms)} ms`, list(cat.runs, 'live_end_ms'), '']);
    rows.push(['  most bytes the page held unacknowledged', `${f(cat.median_max_unacked_bytes / 1024)} KiB`, cat.runs.map((r) => f(r.max_unacked_bytes / 1024)).join(' / '), 'budget 1024 KiB']);
    rows.push(['  Enter -> marker arrives in a frame', `${f(cat.median_marker_frame_ms)} ms`, `${list(cat.runs, 'marker_frame_ms')} (via ${via(cat.runs, 'marker_via')})`, '']);
    rows.push(['  Enter -> prompt after it arrives', `${f(cat.median_prompt_frame_ms)} ms`, list(cat.runs, 'prompt_frame_ms'), '']);
    rows.push(['  Enter -> last ack (xterm.js done parsing)', `${f(cat.median_last_ack_ms)} ms`, list(cat.runs, 'last_ack_ms'), '']);
    rows.push(['  live bytes to the page / snapshots', `${f(cat.median_live_bytes / 1e6, 2)} MB / ${f(cat.median_snapshots)}`, cat.runs.map((r) => `${f(r.live_bytes / 1e6, 2)}/${r.snapshots}`).join(' '), `file: ${f(results.file.pty_bytes / 1e6, 2)} MB through the PTY`]);
    rows.push(['  page main thread in long tasks', `${f(cat.median_long_task_ms)} ms`, list(cat.runs, 'long_task_ms'), '']);
    rows.push(['  daemon CPU during the run', `${f(cat.median_daemon_cpu_s * 1000)} ms`, cat.runs.map((r) => f(r.daemon_cpu_s * 1000)).join(' / '), '']);
  }
  if (ctrlc) {
    rows.push([`page: yes ${opts.yesSeconds} s, Ctrl+C -> prompt painted`, `${f(ctrlc.median_shown_ms)} ms`, list(ctrlc.runs, 'shown_ms'), '< 200 ms']);
    rows.push(['  the same on the accessibility tree (screenRows)', `${f(ctrlc.median_a11y_shown_ms)} ms`, list(ctrlc.runs, 'a11y_shown_ms'), '']);
    rows.push(['  Ctrl+C -> keydown in the page', `${f(ctrlc.median_key_lag_ms, 1)} ms`, list(ctrlc.runs, 'key_lag_ms', 1), '']);
    rows.push(['  received by the page, not yet acknowledged, at Ctrl+C', `${f(ctrlc.median_unacked_at_key_bytes / 1024)} KiB`, ctrlc.runs.map((r) => f(r.unacked_at_key_bytes / 1024)).join(' / '), 'budget 1024 KiB']);
    rows.push(['  Ctrl+C -> prompt arrives in a frame', `${f(ctrlc.median_prompt_frame_ms)} ms`, `${list(ctrlc.runs, 'prompt_frame_ms')} (via ${via(ctrlc.runs, 'prompt_via')})`, '']);
    rows.push(['  Ctrl+C -> last ack (xterm.js done parsing)', `${f(ctrlc.median_last_ack_ms)} ms`, list(ctrlc.runs, 'last_ack_ms'), '']);
    rows.push(['  during yes: live bytes / snapshots to the page', `${f(ctrlc.median_yes_live_bytes / 1e6, 2)} MB / ${f(ctrlc.median_yes_snapshots)}`, ctrlc.runs.map((r) => `${f(r.yes_live_bytes / 1e6, 2)}/${r.yes_snapshots}`).join(' '), '']);
    rows.push(['  after Ctrl+C: live bytes / snapshots', `${f(ctrlc.median_live_bytes / 1e3)} kB / ${f(ctrlc.median_snapshots)}`, ctrlc.runs.map((r) => `${f(r.live_bytes / 1e3)}k/${r.snapshots}`).join(' '), '']);
    rows.push(['  after Ctrl+C: page main thread in long tasks', `${f(ctrlc.median_long_task_ms)} ms`, list(ctrlc.runs, 'long_task_ms'), '']);
  }
  return table(rows);
}

function medians(runs, keys) {
  const out = {};
  for (const k of keys) out[`median_${k}`] = median(runs.map((r) => r[k]));
  return out;
}

// ---------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(opts.wharf)) throw new Error(`no daemon binary at ${opts.wharf} (build it, or --wharf PATH)`);
  const ptyDrainBin = findPtyDrain();
  const version = (await run(opts.wharf, ['--version'])).trim();
  const tok = token();
  prompt = `pb-${tok}$`;
  const marker = `END-OF-FILE-${tok}-MARK`;
  const home = makeHome(prompt);
  const file = join(home, 'work', 'big.txt');
  const facts = makeFile(file, opts.mb, marker);

  const results = {
    meta: {
      date: new Date().toISOString(), mode: opts.quick ? 'quick' : 'full', wharf: opts.wharf, version, build_type: buildType(opts.wharf),
      pty_drain: ptyDrainBin, chromium: null, cpu: cpus()[0]?.model, cores: cpus().length, mem_gib: round(totalmem() / 2 ** 30, 1),
      kernel: release(), node: process.version, viewport: `${opts.width}x${opts.height}`, runs: opts.runs, yes_seconds: opts.yesSeconds,
      loadavg_start: loadavg().map((x) => round(x)),
    },
    file: { mb: opts.mb, ...facts },
    bare: null, alone: null, cat: null, ctrlc: null,
  };
  const m = results.meta;
  console.log(`wharf page benchmark (${m.mode}) ${m.date}\n  ${m.version}, build type ${m.build_type} (${opts.wharf}); ${m.cores} x ${m.cpu}; load ${m.loadavg_start.join(' ')}`);
  if (!/^Rel/i.test(m.build_type)) console.log(`  note: ${opts.wharf} is not an optimised build; build the release preset for representative figures`);
  const t0 = Date.now();

  if (opts.noWebgl) {
    // launchBrowser's Chromium, with WebGL off (the page then uses the DOM renderer).
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required', '--disable-webgl'],
    });
  } else browser = await launchBrowser();
  cleanups.push(() => { browser?.close().catch(() => {}); });
  m.chromium = browser.version();
  m.variants = [opts.noWebgl && 'no-webgl', opts.noScreenReader && 'no-screen-reader'].filter(Boolean);
  daemon = await startDaemon(home);
  try {
    const catRuns = []; const bareRuns = []; const aloneRuns = []; const ctrlcRuns = [];
    const text = want('alone') ? readFileSync(file, 'latin1') : null;
    // Interleaved, so that each sees the machine as the others do.
    for (let i = 0; i < opts.runs && (want('cat') || want('alone')); i += 1) {
      let size = null;
      if (want('cat')) {
        const r = await catRun(file, marker, facts);
        catRuns.push(r);
        size = r.size;
        m.terminal ??= r.size; m.renderer ??= r.renderer;
        process.stderr.write(`  cat run ${i + 1}/${opts.runs}: page ${f(r.shown_ms)} ms${r.ok ? '' : ' (NOT SHOWN)'} (a11y ${f(r.a11y_shown_ms)} ms), marker frame ${f(r.marker_frame_ms)} ms via ${r.marker_via}, live ${f(r.live_bytes / 1e6, 2)} MB, ${r.snapshots} snapshot(s)\n`);
      }
      const b = await ptyDrain(ptyDrainBin, file, size ?? m.terminal);
      bareRuns.push(b);
      process.stderr.write(`  bare PTY run ${i + 1}/${opts.runs}: ${f(b.seconds * 1000)} ms\n`);
      if (want('alone')) {
        const r = await aloneRun(text, marker);
        aloneRuns.push(r);
        m.terminal ??= r.size; m.renderer ??= r.renderer;
        process.stderr.write(`  xterm.js alone run ${i + 1}/${opts.runs}: parsed ${f(r.parsed_ms)} ms, painted ${f(r.shown_ms)} ms\n`);
      }
    }
    for (let i = 0; i < opts.runs && want('ctrlc'); i += 1) {
      const r = await ctrlcRun();
      ctrlcRuns.push(r);
      m.terminal ??= r.size; m.renderer ??= r.renderer;
      process.stderr.write(`  ctrl-c run ${i + 1}/${opts.runs}: page ${f(r.shown_ms)} ms${r.ok ? '' : ' (NOT SHOWN)'} (a11y ${f(r.a11y_shown_ms)} ms), prompt frame ${f(r.prompt_frame_ms)} ms via ${r.prompt_via}; during yes ${f(r.yes_live_bytes / 1e6, 2)} MB live, ${r.yes_snapshots} snapshot(s)\n`);
    }
    if (bareRuns.length) results.bare = { runs: bareRuns, median_ms: median(bareRuns.map((b) => b.seconds * 1000)), median_mb_s: median(bareRuns.map((b) => b.mb_per_s)) };
    if (aloneRuns.length) results.alone = { runs: aloneRuns, ...medians(aloneRuns, ['parsed_ms', 'shown_ms', 'long_task_ms']) };
    if (catRuns.length) {
      results.cat = { runs: catRuns, ...medians(catRuns, ['shown_ms', 'a11y_shown_ms', 'last_ack_ms', 'live_end_ms', 'max_unacked_bytes', 'marker_frame_ms', 'prompt_frame_ms', 'first_frame_ms', 'live_bytes', 'snapshots', 'snapshot_bytes', 'skipped_bytes', 'acks', 'long_task_ms', 'daemon_cpu_s', 'key_lag_ms']) };
      results.cat.page_over_bare = results.cat.median_shown_ms / results.bare.median_ms;
    }
    if (ctrlcRuns.length) results.ctrlc = { runs: ctrlcRuns, ...medians(ctrlcRuns, ['shown_ms', 'a11y_shown_ms', 'last_ack_ms', 'max_unacked_bytes', 'unacked_at_key_bytes', 'prompt_frame_ms', 'first_frame_ms', 'live_bytes', 'snapshots', 'snapshot_bytes', 'acks', 'long_task_ms', 'yes_live_bytes', 'yes_snapshots', 'yes_acked_bytes', 'daemon_cpu_yes_s', 'key_lag_ms']) };
  } finally {
    await daemon.stop().catch(() => {});
    await browser.close().catch(() => {});
  }
  results.problems = problems;
  results.meta.seconds = round((Date.now() - t0) / 1000, 1);
  results.meta.loadavg_end = loadavg().map((x) => round(x));
  console.log(`  terminal ${m.terminal?.cols}x${m.terminal?.rows} (viewport ${m.viewport}), renderer ${m.renderer}${m.variants.length ? `, variants: ${m.variants.join(', ')}` : ''}, chromium ${m.chromium}; file ${facts.bytes} bytes, ${facts.lines} lines`);
  console.log(report(results));
  console.log(`  ${results.meta.seconds} s; load at end ${results.meta.loadavg_end.join(' ')}${problems.length ? `; the page logged ${problems.length} problem(s): ${problems.slice(0, 3).join(' | ')}` : ''}`);
  console.log(JSON.stringify(results, (k, v) => (typeof v === 'number' && !Number.isInteger(v) ? round(v, 3) : v)));
}

main().then(() => { cleanupNow(); process.exit(0); }, (e) => { console.error(`page.mjs: ${e.stack ?? e}`); process.exit(1); });
