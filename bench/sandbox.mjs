#!/usr/bin/env node
// wharf sandbox benchmark: what running a session under bubblewrap costs
// (docs/sandbox.md), against the same shell started without a sandbox by the same daemon,
// runs interleaved.
//
//   node bench/sandbox.mjs [--runs N]
//
//   a  start: from `wharf new --shell bash` to the first command answered in it
//      (`wharf run -c true` succeeding, so the shell is up with its prompt marks); the
//      sandboxed start includes bubblewrap's namespaces and mounts, the egress-free
//      network namespace, and the session's channel.
//   b  a command in a live session: `wharf run -c true`, start to exit status.
// Prints medians and the ratio, never a verdict. Uses build-release/wharf (WHARF_BIN
// overrides); HOME and the state dir are its own.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { printedUrl } from './printed_url.mjs';

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 15;
const bin = process.env.WHARF_BIN ?? new URL('../build-release/wharf', import.meta.url).pathname;

const root = mkdtempSync(join(tmpdir(), 'wharf-bench-sandbox-'));
const home = join(root, 'home');
const ws = join(root, 'ws');
const state = join(root, 'state');
mkdirSync(home);
mkdirSync(ws);
const env = { PATH: process.env.PATH, HOME: home, USER: process.env.USER, XDG_CONFIG_HOME: join(root, 'xdg') };
const child = spawn(bin, ['serve', '--port', '0', '--state-dir', state, '--workspace', ws, '--max-sessions', '64'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
let stderr = '';
child.stderr.on('data', (d) => { stderr += d; });
const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
await printedUrl(child, exited, () => stderr);

const wharf = (a) => spawnSync(bin, [...a, '--state-dir', state], { env, encoding: 'utf8' });
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

function startToFirstCommand(sandbox) {
  const t0 = performance.now();
  const made = wharf(['new', '--shell', 'bash', sandbox ? '--sandbox' : '--no-sandbox']);
  if (made.status !== 0) throw new Error(made.stderr);
  const id = made.stdout.trim();
  for (;;) {
    const r = wharf(['run', '-t', id, '--timeout', '10', '-c', 'true']);
    if (r.status === 0) break;
    if (performance.now() - t0 > 20000) throw new Error(`no command ran in session ${id}: ${r.stderr}`);
  }
  return { id, ms: performance.now() - t0 };
}

const start = { plain: [], sandbox: [] };
const command = { plain: [], sandbox: [] };
for (let i = 0; i < runs; i++) {
  for (const mode of i % 2 ? ['sandbox', 'plain'] : ['plain', 'sandbox']) {
    const { id, ms } = startToFirstCommand(mode === 'sandbox');
    start[mode].push(ms);
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      const r = wharf(['run', '-t', id, '-c', 'true']);
      if (r.status !== 0) throw new Error(r.stderr);
      command[mode].push(performance.now() - t0);
    }
    wharf(['kill', id]);
  }
}
const line = (name, m) => console.log(`${name.padEnd(44)} plain ${median(m.plain).toFixed(1).padStart(7)} ms   sandbox ${median(m.sandbox).toFixed(1).padStart(7)} ms   ratio ${(median(m.sandbox) / median(m.plain)).toFixed(2)}`);
console.log(`wharf sandbox bench: ${runs} runs each, interleaved; ${bin}`);
line('a  start to first command (median)', start);
line('b  `wharf run -c true` in a live session', command);
child.kill('SIGTERM');
await exited;
rmSync(root, { recursive: true, force: true });
