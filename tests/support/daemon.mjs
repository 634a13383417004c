// Starts the real wharf daemon for a test: a temporary state dir, port 0, no user
// config, a pinned key. Resolves once the daemon printed its URL; `stop()` sends
// SIGTERM and waits for the exit. Tests wait on conditions with deadlines, never sleeps.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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

export async function startDaemon({ args = [], env = {}, cwd, key, stateDir: givenStateDir } = {}) {
  const stateDir = givenStateDir ?? mkdtempSync(join(tmpdir(), 'wharf-test-'));
  const pinnedKey = key ?? randomBytes(16).toString('hex');
  const child = spawn(wharfBin, ['serve', '--port', '0', '--state-dir', stateDir, ...args], {
    cwd: cwd ?? stateDir,
    // XDG_CONFIG_HOME inside the state dir: no user config is ever read by a test's daemon.
    env: { ...sanitizerOptions(), PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, WHARF_KEY: pinnedKey, XDG_CONFIG_HOME: join(stateDir, 'config'), ...env },
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
      rmSync(stateDir, { recursive: true, force: true });
      return result;
    },
  };
}

// Polls `check` until it returns a truthy value or the deadline passes.
export async function waitFor(check, { timeout = 10000, interval = 20, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}
