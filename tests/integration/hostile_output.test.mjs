// No program output can hurt the daemon: every input that once crashed or hung the
// terminal engine (tests/fuzz/known, stopped by the guard in front of libvterm 0.1.4;
// tests/fuzz/open, found by longer fuzzing runs and not stopped by it), at 40x12 as the
// screen fuzzer found them, and then 4 MiB of seeded random bytes at 80x24, are printed
// by a program in a real session, byte for byte. After each, the daemon is alive and serves /api/status, the session's program
// still prints (a marker after the hostile bytes, shown on the screen read-out) and still
// reads what is typed into it, a window attaching over WebSocket gets a snapshot (of the
// hostile screen, then of the reset one), a second session started beforehand still runs
// a typed command, and the session ends cleanly.
//
// The hostile program is an interactive action (the catalog's only way to run a given
// program): it prints the file, PRINTED-<mark>, waits for a line, resets the terminal,
// prints hostile-done-<mark> and then answers every line `...ping-X` with `answer-X-ok`.
// Its terminal is non-canonical with no signal or flow-control characters, so the
// daemon's answers to queries among the hostile bytes, arriving as input, cannot stop,
// interrupt or end it.
//
// One daemon serves every file. A file that kills or hangs it fails its own test, and
// the next test starts a new daemon, so each file gets its own verdict. The random bytes
// come from AES-128-CTR keyed by a seed the test prints (WHARF_HOSTILE_SEED=hex repeats a
// run).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { httpGet, killSession, openWs, stopDaemon, within } from '../support/ws_client.mjs';

const fuzzDir = new URL('../fuzz/', import.meta.url).pathname;
const inputs = ['known', 'open'].flatMap((sub) => readdirSync(join(fuzzDir, sub))
  .filter((name) => name.endsWith('.bin')).sort()
  .map((name) => ({ name: `${sub}/${name}`, path: join(fuzzDir, sub, name) })));

const RANDOM_BYTES = 4 * 1024 * 1024;
const STEP_TIMEOUT = 10000; // one hostile file: each wait
const RANDOM_TIMEOUT = 30000; // the 4 MiB: its first wait (sanitizer builds are slower)

const HOSTILE_SCRIPT = `# Prints a hostile file in a wharf session (tests/integration/hostile_output.test.mjs).
stty -icanon -isig -ixon -iexten
# The daemon reads exactly the file's bytes (no newline becomes CR LF on the way).
stty -opost
cat -- "$HOSTILE_FILE"
stty opost
printf '\\r\\nPRINTED-%s\\r\\n' "$HOSTILE_MARK"
IFS= read -r go
# CAN and ST end whatever sequence the bytes left open; RIS resets the terminal.
printf '\\030\\033\\\\\\033c'
printf 'hostile-done-%s\\n' "$HOSTILE_MARK"
while IFS= read -r line; do printf 'answer-%s-ok\\n' "\${line##*ping-}"; done
`;

function dead(d) {
  return d.child.exitCode !== null || d.child.signalCode !== null;
}

function deathNote(d) {
  const how = d.child.signalCode ?? `exit code ${d.child.exitCode}`;
  return `the daemon died (${how}); stderr tail:\n${d.stderr.slice(-4000)}`;
}

async function api(d, method, path, body, { timeout = 5000 } = {}) {
  const headers = { 'X-Wharf-Key': d.key };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await httpGet(d, path, { method, headers, timeout, body: body === undefined ? undefined : JSON.stringify(body) });
  let json = null;
  try { json = JSON.parse(r.body); } catch { /* not JSON */ }
  return { status: r.status, json, body: r.body };
}

// Throws unless the daemon process is alive and answers /api/status.
async function assertServing(d, when) {
  if (dead(d)) throw new Error(`${when}: ${deathNote(d)}`);
  let r;
  try {
    r = await api(d, 'GET', '/api/status', undefined, { timeout: 3000 });
  } catch (e) {
    throw new Error(`${when}: the daemon runs but does not answer /api/status (${e.message}); stderr tail:\n${d.stderr.slice(-4000)}`);
  }
  assert.equal(r.status, 200, `${when}: /api/status answered ${r.status}: ${r.body}`);
}

// Runs a step; when it fails because the daemon died (a closed WebSocket, a refused
// connection), says so first.
async function step(d, what, fn) {
  try {
    return await fn();
  } catch (e) {
    if (!dead(d)) await within(d.exited, 2000, 'exit').catch(() => {});
    if (dead(d)) throw new Error(`${what}: ${deathNote(d)}\n(the step failed with: ${e.message.split('\n')[0]})`);
    throw new Error(`${what}: ${e.message}`);
  }
}

// Polls the screen read-out (/api/v1) until `pred(lines)` holds.
async function waitForScreen(d, id, pred, what, timeout = STEP_TIMEOUT) {
  let last = null;
  try {
    return await waitFor(async () => {
      if (dead(d)) throw new Error(deathNote(d));
      const r = await api(d, 'GET', `/api/v1/sessions/${id}/screen`);
      assert.equal(r.status, 200, `read-screen of session ${id} answered ${r.status}: ${r.body}`);
      last = r.json.lines;
      return pred(last) ? r.json : null;
    }, { timeout, interval: 25, what });
  } catch (e) {
    if (last) e.message += `\nlast screen of session ${id}:\n${last.join('\n')}`;
    throw e;
  }
}

async function typeLine(d, id, text) {
  const r = await api(d, 'POST', `/api/v1/sessions/${id}/text`, { text, submit: true });
  assert.equal(r.status, 200, `send-text to session ${id} answered ${r.status}: ${r.body}`);
}

// The shell started before anything hostile runs a freshly typed command.
async function otherSessionAnswers(d, other) {
  const token = randomBytes(4).toString('hex');
  const n = 100 + Math.floor(Math.random() * 900);
  await typeLine(d, other, `echo alive-${token}-$((${n}*7))`);
  const expected = `alive-${token}-${n * 7}`;
  await waitForScreen(d, other, (lines) => lines.includes(expected), `"${expected}" on the other session's screen`);
}

// One daemon, a config with the hostile action, and a bash session started before any
// hostile output; replaced when a test left the daemon dead or hung.
class Lab {
  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'wharf-hostile-'));
    this.script = join(this.dir, 'print_hostile.sh');
    this.config = join(this.dir, 'config.toml');
    writeFileSync(this.script, HOSTILE_SCRIPT);
    writeFileSync(this.config, `[actions.hostile]\nargv = ["/bin/sh", ${JSON.stringify(this.script)}]\ninteractive = true\n`);
    this.d = null;
    this.other = null;
    this.otherPids = [];
  }

  async ready(t) {
    if (this.d) {
      let healthy = !dead(this.d);
      if (healthy) healthy = await assertServing(this.d, 'health check').then(() => true, () => false);
      if (healthy) return this.d;
      t.diagnostic('an earlier test left the daemon dead or hung: starting a new one');
      await this.discard();
    }
    const d = await startDaemon({ args: ['--config', this.config] });
    this.d = d;
    const r = await api(d, 'POST', '/api/v1/sessions', { shell: 'bash' });
    assert.equal(r.status, 201, `starting the other session: ${r.body}`);
    this.other = r.json.session;
    this.otherPids.push(r.json.pid);
    await waitForScreen(d, this.other, (lines) => lines.some((l) => /[$#]$/.test(l)), 'the other session\'s prompt', 15000);
    return d;
  }

  // A dead or hung daemon: killed if need be, its state dir removed. Its sessions end
  // with its PTYs.
  async discard() {
    const d = this.d;
    this.d = null;
    if (!dead(d)) d.child.kill('SIGKILL');
    await d.stop();
  }

  async close() {
    try {
      if (this.d && !dead(this.d)) await stopDaemon(this.d);
      else if (this.d) await this.d.stop();
    } finally {
      for (const pid of this.otherPids) killSession(pid);
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}

// Prints `file` in a new session of the hostile action and checks everything around it.
async function throughSession(t, lab, d, file, { cols, rows, printTimeout = STEP_TIMEOUT }) {
  const mark = randomBytes(6).toString('hex').toUpperCase();
  const timings = {};
  let started = performance.now();
  const lap = (name) => { const now = performance.now(); timings[name] = now - started; started = now; };

  // A window on the session from its start: it receives the hostile bytes live.
  const live = await openWs(d, { keepBytes: 1 << 20, query: `&cols=${cols}&rows=${rows}` });
  t.after(() => live.close());
  const at = await step(d, 'starting the hostile session', () => live.newSession({ kind: 'action', entry: 'hostile', env: { HOSTILE_FILE: file, HOSTILE_MARK: mark } }));
  assert.equal(at.type, 'attached', `the hostile session started: ${JSON.stringify(at)}`);
  const id = at.session;
  t.after(() => killSession(at.pid));

  // Live, or in the snapshot a window that fell behind the flood is given instead.
  await step(d, 'the hostile bytes and PRINTED after them, in the window', () => live.waitForText(`PRINTED-${mark}`, { timeout: printTimeout }));
  lap('print');
  await assertServing(d, 'after the hostile bytes');

  // A window attaching now gets the hostile screen as its snapshot.
  await step(d, 'a window attaching to the hostile screen', async () => {
    const w = await openWs(d);
    try {
      const a = await w.attach({ session: id });
      assert.equal(a.session, id);
      const snap = w.lastSnapshot;
      assert.equal(snap.meta.session, id);
      assert.equal(snap.meta.bytes, snap.bytes.length, 'the snapshot frame is as long as announced');
    } finally { await w.close(); }
  });
  await assertServing(d, 'after a snapshot of the hostile screen');
  lap('snapshot');

  // The program resets the terminal and prints its marker; the screen read-out shows it.
  await step(d, 'typing the line the program waits for', () => typeLine(d, id, 'go'));
  const screen = await step(d, 'the marker after the reset', () => waitForScreen(d, id, (lines) => lines.includes(`hostile-done-${mark}`), `hostile-done-${mark} on the session's screen`));
  assert.deepEqual([screen.cols, screen.rows], [cols, rows], 'the session has the window\'s size');
  // It still reads input, through the daemon.
  const token = randomBytes(4).toString('hex');
  await step(d, 'the session answering a typed line', async () => {
    await typeLine(d, id, `ping-${token}`);
    await waitForScreen(d, id, (lines) => lines.includes(`answer-${token}-ok`), `answer-${token}-ok on the session's screen`);
  });
  lap('marker');

  await step(d, 'the other session', () => otherSessionAnswers(d, lab.other));
  lap('other');

  // A fresh window's snapshot shows the reset screen with the marker and the answer.
  await step(d, 'a window attaching after the reset', async () => {
    const w = await openWs(d);
    try {
      await w.attach({ session: id });
      const { text } = w.lastSnapshot;
      assert.ok(text.includes(`hostile-done-${mark}`) && text.includes(`answer-${token}-ok`), `the snapshot shows the marker and the answer: ${JSON.stringify(text.slice(-600))}`);
    } finally { await w.close(); }
  });
  lap('attach');

  // Ending the session (its screen model goes with it) does not hurt either.
  await step(d, 'ending the hostile session', async () => {
    const r = await api(d, 'DELETE', `/api/v1/sessions/${id}`);
    assert.equal(r.status, 200, r.body);
    await waitFor(async () => {
      if (dead(d)) throw new Error(deathNote(d));
      const list = await api(d, 'GET', '/api/v1/sessions');
      return !list.json.sessions.some((s) => s.id === id);
    }, { timeout: STEP_TIMEOUT, what: `session ${id} to end` });
  });
  await live.close();
  await assertServing(d, 'after the hostile session ended');
  lap('end');
  return timings;
}

// 4 MiB from AES-128-CTR keyed by the seed: the same seed, the same bytes.
function seededBytes(seedHex, size) {
  const key = createHash('sha256').update(seedHex).digest().subarray(0, 16);
  const cipher = createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
  return Buffer.concat([cipher.update(Buffer.alloc(size)), cipher.final()]);
}

describe('hostile output', () => {
  const lab = new Lab();
  after(() => lab.close());

  for (const input of inputs) {
    test(`${input.name}: printed in a session, the daemon lives, every session answers, windows get snapshots`, async (t) => {
      const d = await lab.ready(t);
      // The size the screen fuzzer found them at.
      const timings = await throughSession(t, lab, d, input.path, { cols: 40, rows: 12 });
      t.diagnostic(`${input.name}: ${JSON.stringify(timings)} ms`);
    });
  }

  test('4 MiB of seeded random bytes: the daemon lives, a reset and a marker show on the screen, every session answers, windows get snapshots', async (t) => {
    const seed = process.env.WHARF_HOSTILE_SEED ?? randomBytes(8).toString('hex');
    t.diagnostic(`random bytes seed ${seed} (WHARF_HOSTILE_SEED=${seed} repeats this run)`);
    const file = join(lab.dir, `random-${seed}.bin`);
    writeFileSync(file, seededBytes(seed, RANDOM_BYTES));
    const d = await lab.ready(t);
    try {
      const timings = await throughSession(t, lab, d, file, { cols: 80, rows: 24, printTimeout: RANDOM_TIMEOUT });
      t.diagnostic(`random: ${JSON.stringify(timings)} ms`);
    } catch (e) {
      e.message = `[seed ${seed}] ${e.message}`;
      throw e;
    }
  });
});
