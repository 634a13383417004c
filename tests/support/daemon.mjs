// Starts the real wharf daemon for a test: a temporary state dir, port 0, no user
// config, a pinned key. Resolves once the daemon printed its URL; `stop()` sends
// SIGTERM and waits for the exit. Tests wait on conditions with deadlines, never sleeps.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const wharfBin = process.env.WHARF_BIN ?? new URL('../../build/wharf', import.meta.url).pathname;

// Sanitizer builds read their settings from the environment; a test's daemon gets them.
export function sanitizerOptions() {
  const out = {};
  for (const name of ['ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS', 'TSAN_OPTIONS'])
    if (process.env[name]) out[name] = process.env[name];
  return out;
}

// Every state dir a daemon of this test process used: when the process exits, whatever
// hosts a failed test left behind on them are killed (a host outlives its daemon).
const usedStateDirs = new Set();
process.on('exit', () => { for (const dir of usedStateDirs) killHosts(dir); });

export async function startDaemon({ args = [], env = {}, cwd, key, stateDir: givenStateDir, bin = wharfBin, port = 0 } = {}) {
  const stateDir = givenStateDir ?? mkdtempSync(join(tmpdir(), 'wharf-test-'));
  usedStateDirs.add(stateDir);
  // `key: null` pins no key: the daemon mints one, or keeps its last one when it takes
  // over sessions an earlier daemon left.
  const pinned = key === null ? {} : { WHARF_KEY: key ?? randomBytes(16).toString('hex') };
  const child = spawn(bin, ['serve', '--port', String(port), '--state-dir', stateDir, ...args], {
    cwd: cwd ?? stateDir,
    // XDG_CONFIG_HOME inside the state dir: no user config is ever read by a test's daemon.
    env: { ...sanitizerOptions(), PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, ...pinned, XDG_CONFIG_HOME: join(stateDir, 'config'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`daemon printed no URL in 15 s; stderr:\n${stderr}`)), 15000);
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) { clearTimeout(timer); resolve(out.slice(0, nl).trim()); }
    });
    exited.then(({ code, signal }) => { clearTimeout(timer); reject(new Error(`daemon exited (${code ?? signal}) before printing its URL; stderr:\n${stderr}`)); });
  });
  const parsed = new URL(url);
  return {
    url, key: parsed.searchParams.get('k'), port: Number(parsed.port), host: parsed.host,
    origin: parsed.origin, stateDir, child, exited,
    get stderr() { return stderr; },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const result = await exited;
      // A daemon that was killed (or kept its sessions) leaves their hosts: a test leaves
      // nothing running behind it.
      killHosts(stateDir);
      rmSync(stateDir, { recursive: true, force: true });
      return result;
    },
  };
}

// The session hosts (`wharf host`, one per session) serving the daemon on `stateDir`.
export function hostsOf(stateDir) {
  const prefix = join(stateDir, 'hosts') + '/';
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let argv;
    try { argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0'); } catch { continue; }
    if (argv[1] === 'host' && argv.some((a) => a.startsWith(prefix))) out.push(Number(name));
  }
  return out;
}

// SIGKILLs every host of `stateDir` and every process of the sessions they hold.
export function killHosts(stateDir) {
  for (const host of hostsOf(stateDir)) {
    let kids = [];
    try { kids = readFileSync(`/proc/${host}/task/${host}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number); } catch { /* gone */ }
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      let stat;
      try { stat = readFileSync(`/proc/${name}/stat`, 'utf8'); } catch { continue; }
      const sid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
      if (kids.includes(sid)) { try { process.kill(Number(name), 'SIGKILL'); } catch { /* gone */ } }
    }
    try { process.kill(host, 'SIGKILL'); } catch { /* gone */ }
  }
}

// Polls `check` until it returns a truthy value or the deadline passes.
export async function waitFor(check, { timeout = 10000, interval = 20, what = 'condition' } = {}) {
  const deadline = performance.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}
