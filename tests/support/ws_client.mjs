// Helpers shared by the integration tests: a WebSocket client for the browser protocol
// (docs/protocol.md, version 2) that records everything the daemon sends and acknowledges
// output the way the page does, raw HTTP requests with full control over headers (Host
// included), a shell runner with unique markers, and /proc inspection of the daemon's
// children and of a session's processes. Everything waits on conditions with deadlines,
// never sleeps.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import WebSocket from 'ws';
import { hostsOf, sanitizerOptions, waitFor, wharfBin } from './daemon.mjs';

export const PROTOCOL = 2;
const ACK_EVERY = 64 * 1024; // as the page: at least every 64 KiB, and whenever input drains

// ---------------------------------------------------------------------------------------
// WebSocket

// Opens `ws://127.0.0.1:PORT/ws?k=KEY` (or `path`) with the page's own Origin unless told
// otherwise. Resolves with a Conn once the upgrade succeeded and (unless `handshake` is
// false) `hello` and the first `sessions` list arrived. The window is attached to nothing
// yet: `conn.attach({ start: true })` attaches (and starts the default program if there is
// no session).
//
// Options of the Conn: `autoAck` (default true) acknowledges binary output as it arrives;
// `keepBytes` bounds what is retained of the output (decoded text and the raw bytes since
// the last snapshot; default unbounded), for tests that stream hundreds of MiB.
export async function openWs(daemon, {
  key = daemon.key, path, origin = daemon.origin, headers = {}, query = '', timeout = 10000,
  perMessageDeflate = false, handshake = true, autoAck = true, keepBytes = Infinity, ...wsOptions
} = {}) {
  const target = path ?? `/ws?k=${encodeURIComponent(key)}${query}`;
  const h = { ...headers };
  if (origin !== undefined && origin !== null) h.Origin = origin;
  const ws = new WebSocket(`ws://127.0.0.1:${daemon.port}${target}`, { headers: h, handshakeTimeout: timeout, perMessageDeflate, ...wsOptions });
  const conn = new Conn(ws, { autoAck, keepBytes });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('unexpected-response', (req, res) => {
      res.resume();
      reject(new Error(`WebSocket upgrade refused with HTTP ${res.statusCode}`));
    });
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`WebSocket closed (${code}) before opening`)));
  });
  if (handshake) await conn.handshake({ timeout });
  return conn;
}

// Attempts an upgrade that is expected to be refused. Resolves with
// { upgraded: false, status, body } or { upgraded: true } (after closing it again).
export function tryUpgrade(daemon, { key = daemon.key, path, origin, headers = {}, timeout = 5000, ...wsOptions } = {}) {
  const target = path ?? `/ws?k=${encodeURIComponent(key)}`;
  const h = { ...headers };
  if (origin !== undefined && origin !== null) h.Origin = origin;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${daemon.port}${target}`, { headers: h, handshakeTimeout: timeout, ...wsOptions });
    let settled = false;
    const done = (v, err) => { if (settled) return; settled = true; if (err) reject(err); else resolve(v); };
    ws.on('open', () => { ws.terminate(); done({ upgraded: true }); });
    ws.on('unexpected-response', (req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => { done({ upgraded: false, status: res.statusCode, headers: res.headers, body }); req.destroy(); });
      res.on('error', () => done({ upgraded: false, status: res.statusCode, headers: res.headers, body }));
    });
    ws.on('error', (e) => done(null, new Error(`WebSocket attempt failed without an HTTP answer: ${e.message}`)));
  });
}

// Removes escape sequences (CSI, OSC, DCS, two-byte ESC) from terminal bytes, leaving the
// text a person would read (with its control characters).
export function stripEscapes(text) {
  return text
    .replace(/\x1b\][\s\S]*?(?:\x07|\x1b\\)/g, '')
    .replace(/\x1b[P^_][\s\S]*?\x1b\\/g, '')
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[ -/]*[0-~]/g, '');
}

// One window of the browser protocol. Records every message: JSON control messages in
// `messages` (any text frame that is not JSON in `nonJsonText`); each snapshot (the binary
// frame after a `snapshot` message) in `snapshots` as { meta, bytes, text, ... } (the last 16
// are kept; `snapshotCount` counts them all); live output decoded as UTF-8 into `output`
// (a character split across frames is joined; nothing is stripped); `liveBytes` counts
// live output bytes, `totalBytes` every binary byte (snapshots included).
//
// Flow control: `epochBytes` counts binary bytes since the last `attached` (snapshots
// included), which is what `ack` reports. With `autoAck` the window acknowledges once per
// batch of frames and at least every 64 KiB, like the page. Between sending `attach` or
// `new` and the reply, nothing is acknowledged (the server restarts its count at the new
// `attached`). `pause()` stops reading the socket and acknowledging; `resume()` restarts
// both.
export class Conn {
  constructor(ws, { autoAck = true, keepBytes = Infinity } = {}) {
    this.ws = ws;
    this.autoAck = autoAck;
    this.keepBytes = keepBytes;
    this.messages = [];
    this.nonJsonText = [];
    this.closeInfo = null;
    this.hello = null;
    this.window = null;
    this.attached = null; // the current `attached` message, null when attached to nothing
    this.lastSessions = null; // the last `sessions` list
    this.size = null; // { cols, rows } of the attached session as last announced
    // Live output, decoded.
    this.decoder = new StringDecoder('utf8');
    this.pieces = []; // decoded output pieces, in arrival order
    this.starts = []; // absolute character offset of each retained piece
    this.textLength = 0; // absolute: characters of live output ever received
    this.retained = 0; // characters currently retained in `pieces`
    this.liveBytes = 0;
    this.totalBytes = 0;
    // Snapshots and the raw stream since the last one (what the window's terminal shows).
    this.snapshots = [];
    this.snapshotCount = 0;
    this.pendingSnapshot = null; // `snapshot` message whose binary frame comes next
    this.screenChunks = []; // raw bytes since (and including) the last snapshot
    this.screenBytes = 0;
    this.screenTruncated = false;
    // Flow control.
    this.epoch = 0;
    this.epochBytes = 0;
    this.acked = 0;
    this.ackHold = false; // after sending attach/new, until the reply
    this.paused = false;
    this.ackScheduled = false;
    this.acksSent = 0;

    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString() };
        resolve(this.closeInfo);
      });
    });
    ws.on('error', () => {}); // surfaced through `closed`
    ws.on('message', (data, isBinary) => {
      if (isBinary) this.onBinary(Buffer.isBuffer(data) ? data : Buffer.concat(data));
      else this.onText(data.toString('utf8'));
    });
  }

  onText(text) {
    let m;
    try { m = JSON.parse(text); } catch { this.nonJsonText.push(text); return; }
    this.messages.push(m);
    switch (m?.type) {
      case 'hello': this.hello = m; this.window = m.window; break;
      case 'sessions': this.lastSessions = m.sessions; break;
      case 'attached':
        this.attached = m;
        this.size = { cols: m.cols, rows: m.rows };
        this.epoch += 1;
        this.epochBytes = 0;
        this.acked = 0;
        this.ackHold = false;
        break;
      case 'snapshot': this.pendingSnapshot = m; break;
      case 'size': this.size = { cols: m.cols, rows: m.rows }; break;
      case 'driver':
        if (this.attached && m.session === this.attached.session) this.attached = { ...this.attached, driver: m.driver };
        break;
      case 'exit': case 'detached':
        // The server counts from zero again at the next `attached`.
        this.attached = null;
        this.epoch += 1;
        this.epochBytes = 0;
        this.acked = 0;
        this.ackHold = false;
        break;
      case 'error': this.ackHold = false; break;
      default: break;
    }
  }

  onBinary(buf) {
    this.totalBytes += buf.length;
    this.epochBytes += buf.length;
    if (this.pendingSnapshot) {
      const meta = this.pendingSnapshot;
      this.pendingSnapshot = null;
      this.snapshotCount += 1;
      // liveBytes/totalBytes: what this window had received before this snapshot.
      this.snapshots.push({ meta, bytes: buf, text: buf.toString('utf8'), liveOffset: this.textLength, liveBytes: this.liveBytes, totalBytes: this.totalBytes - buf.length, index: this.messages.length });
      if (this.snapshots.length > 16) this.snapshots.shift();
      this.size = { cols: meta.cols, rows: meta.rows };
      this.screenChunks = [buf];
      this.screenBytes = buf.length;
      this.screenTruncated = false;
    } else {
      this.liveBytes += buf.length;
      const text = this.decoder.write(buf);
      if (text) {
        this.starts.push(this.textLength);
        this.pieces.push(text);
        this.textLength += text.length;
        this.retained += text.length;
        while (this.retained > this.keepBytes && this.pieces.length > 1) {
          this.retained -= this.pieces[0].length;
          this.pieces.shift();
          this.starts.shift();
        }
      }
      this.screenChunks.push(buf);
      this.screenBytes += buf.length;
      while (this.screenBytes > this.keepBytes && this.screenChunks.length > 1) {
        this.screenBytes -= this.screenChunks[0].length;
        this.screenChunks.shift();
        this.screenTruncated = true;
      }
    }
    this.maybeAck();
  }

  maybeAck() {
    if (!this.autoAck || this.paused || this.ackHold || !this.attached) return;
    if (this.epochBytes - this.acked >= ACK_EVERY) { this.sendAck(); return; }
    if (this.ackScheduled) return;
    this.ackScheduled = true;
    const epoch = this.epoch;
    setImmediate(() => {
      this.ackScheduled = false;
      if (epoch === this.epoch && this.autoAck && !this.paused && !this.ackHold && this.attached) this.sendAck();
    });
  }

  // Acknowledges everything received since the last `attached`.
  sendAck() {
    if (this.epochBytes <= this.acked || !this.isOpen) return;
    this.acked = this.epochBytes;
    this.acksSent += 1;
    this.ws.send(JSON.stringify({ type: 'ack', bytes: this.epochBytes }));
  }

  // Stops reading the socket (TCP buffers fill, the daemon sees a stalled client) and
  // acknowledging.
  pause() { this.paused = true; this.ws._socket.pause(); }

  resume() {
    this.paused = false;
    this.ws._socket.resume();
    this.maybeAck();
  }

  // All live output retained, decoded as UTF-8, nothing stripped.
  get output() {
    if (this.pieces.length > 1) { this.pieces = [this.pieces.join('')]; this.starts = [this.starts[0]]; }
    return this.pieces[0] ?? '';
  }

  // Live output from absolute character offset `pos` on (or from the oldest retained).
  outputFrom(pos) {
    const first = this.starts[0] ?? this.textLength;
    if (pos <= first) return this.output;
    let i = this.starts.length - 1;
    while (i > 0 && this.starts[i] > pos) i -= 1;
    return this.pieces.slice(i).join('').slice(pos - this.starts[i]);
  }

  get lastSnapshot() { return this.snapshots[this.snapshots.length - 1] ?? null; }

  // The raw bytes this window's terminal has been given since it last reset it: the last
  // snapshot, then live output (bounded by keepBytes; `screenTruncated` says if cut).
  screenStream() { return Buffer.concat(this.screenChunks); }

  // Text of the last snapshot plus live output since, decoded, escapes kept.
  get screenText() { return this.screenStream().toString('utf8'); }

  get isOpen() { return this.ws.readyState === WebSocket.OPEN; }

  send(obj) {
    const m = typeof obj === 'string' ? null : obj;
    if (m && (m.type === 'attach' || m.type === 'new')) this.ackHold = true;
    this.ws.send(typeof obj === 'string' ? obj : JSON.stringify(obj));
  }

  sendText(text) { this.ws.send(text, { binary: false }); }
  type(text) { this.ws.send(Buffer.from(text, 'utf8'), { binary: true }); }

  describe() {
    const tail = this.output.slice(-1500);
    const msgs = this.messages.slice(-40);
    return `window ${this.window}; last messages: ${JSON.stringify(msgs)}\nclose: ${JSON.stringify(this.closeInfo)}\noutput tail: ${JSON.stringify(tail)}`;
  }

  // Resolves with the first message (from index `from`) matching `pred` (a type name or a
  // predicate).
  async waitForMessage(pred, { timeout = 10000, from = 0, what } = {}) {
    const predicate = typeof pred === 'string' ? (m) => m && m.type === pred : pred;
    what ??= typeof pred === 'string' ? `message ${pred}` : 'message';
    try {
      return await waitFor(() => {
        for (let i = from; i < this.messages.length; i += 1) if (predicate(this.messages[i])) return this.messages[i];
        if (this.closeInfo) failClosed(this, what);
        return null;
      }, { timeout, what });
    } catch (e) {
      e.message += `\n${this.describe()}`;
      throw e;
    }
  }

  // Sends `obj` and resolves with the first reply (a message from then on) matching `pred`.
  async request(obj, pred, opts = {}) {
    const from = this.messages.length;
    this.send(obj);
    return this.waitForMessage(pred, { ...opts, from, what: opts.what ?? `reply to ${JSON.stringify(obj)}` });
  }

  // Sends `attach` ({ session, start }); resolves with the `attached` message once its
  // snapshot frame arrived too. A `detached` or `error` reply rejects (use tryAttach to
  // get it instead).
  async attach(fields = {}, opts = {}) {
    const reply = await this.tryAttach(fields, opts);
    if (reply.type !== 'attached') throw new Error(`attach ${JSON.stringify(fields)} answered ${JSON.stringify(reply)}\n${this.describe()}`);
    return reply;
  }

  // Like attach, but resolves with whichever reply came: attached, detached or error.
  async tryAttach(fields = {}, opts = {}) {
    return this.expectAttachment({ type: 'attach', ...fields }, opts);
  }

  // Sends `new` ({ shell, cwd, name }); resolves with `attached` (and its snapshot) or an
  // `error` message.
  async newSession(fields = {}, opts = {}) {
    return this.expectAttachment({ type: 'new', ...fields }, opts);
  }

  async expectAttachment(obj, { timeout = 10000 } = {}) {
    // A round trip first, so that an error caused by an earlier message (such as an ack
    // the daemon refused) cannot be mistaken for the answer.
    await this.request({ type: 'ping' }, 'pong', { timeout });
    const from = this.messages.length;
    const snapshotsBefore = this.snapshotCount;
    const reply = await this.request(obj, (m) => ['attached', 'detached', 'error'].includes(m.type), { timeout });
    if (reply.type === 'attached') {
      await waitFor(() => {
        if (this.snapshotCount > snapshotsBefore && this.snapshots.some((s) => s.index > this.messages.indexOf(reply, from))) return true;
        if (this.closeInfo) failClosed(this, 'the snapshot after attached');
        return false;
      }, { timeout, what: 'the snapshot frame after attached' }).catch((e) => { e.message += `\n${this.describe()}`; throw e; });
    }
    return reply;
  }

  // Waits for hello then the first sessions list; returns { hello, sessions }.
  async handshake({ timeout = 10000 } = {}) {
    const hello = await this.waitForMessage('hello', { timeout, what: 'hello' });
    const sessions = await this.waitForMessage('sessions', { timeout, what: 'the first sessions list' });
    return { hello, sessions };
  }

  // Waits until live output (from absolute character offset `from`) contains `text` (a
  // string or RegExp); resolves with the output from `from`.
  async waitForOutput(text, { timeout = 10000, from = 0, what } = {}) {
    // A string is searched for only in what arrived since the last look (plus an overlap),
    // so waiting on a flood of output stays cheap; a RegExp sees everything from `from`.
    let scanned = from;
    try {
      return await waitFor(() => {
        if (typeof text === 'string') {
          const start = Math.max(from, scanned - text.length);
          const found = this.outputFrom(start).includes(text);
          scanned = this.textLength;
          if (found) return this.outputFrom(from);
        } else {
          const s = this.outputFrom(from);
          if (text.test(s)) return s;
        }
        if (this.closeInfo) return failClosed(this, what ?? `output ${text}`);
        return null;
      }, { timeout, what: what ?? `output containing ${text}` });
    } catch (e) {
      e.message += `\n${this.describe()}`;
      throw e;
    }
  }

  // Waits until the string `text` reached this window after live offset `from`, either as
  // live output or inside a snapshot that came after it (a window that fell behind is sent
  // the screen instead of the bytes it skipped). Resolves with 'live' or 'snapshot'.
  async waitForText(text, { timeout = 10000, from = 0, what } = {}) {
    let scanned = from;
    try {
      return await waitFor(() => {
        const start = Math.max(from, scanned - text.length);
        const live = this.outputFrom(start).includes(text);
        scanned = this.textLength;
        if (live) return 'live';
        if (this.snapshots.some((x) => x.liveOffset >= from && x.text.includes(text))) return 'snapshot';
        if (this.closeInfo) return failClosed(this, what ?? `text ${text}`);
        return null;
      }, { timeout, what: what ?? `${JSON.stringify(text)} live or in a snapshot` });
    } catch (e) {
      e.message += `\n${this.describe()}`;
      throw e;
    }
  }

  async waitForClose({ timeout = 10000 } = {}) {
    let timer;
    const t = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`WebSocket not closed within ${timeout} ms\n${this.describe()}`)), timeout); });
    try { return await Promise.race([this.closed, t]); } finally { clearTimeout(timer); }
  }

  // Waits until the attached shell shows its prompt (live or in the snapshot): its start-up
  // files have run and it reads input. Tests wait for this before typing, and before
  // ending a shell, so no shell is killed while its start-up files run (a login shell's
  // rc files may hold locks, e.g. `pyenv rehash`, that a kill would leave behind).
  async waitForPrompt({ timeout = 15000 } = {}) {
    await waitFor(() => {
      if (this.closeInfo) failClosed(this, 'prompt');
      return /[#$%>]\s*$/.test(stripEscapes(this.screenText));
    }, { timeout, what: 'the shell\'s prompt on screen' })
      .catch((e) => { e.message += `\n${this.describe()}`; throw e; });
  }

  // Runs `command` in the attached shell (this window must drive it) and resolves with
  // what it printed, taken between two markers whose printed form differs from their
  // typed form (so the echo of the typed line never matches).
  async run(command, { timeout = 10000 } = {}) {
    const id = randomBytes(4).toString('hex');
    const begin = `mk${id}-begin-7`; // typed as mk${id}-begin-$((3+4))
    const end = `mk${id}-end-9`;
    const from = this.textLength;
    this.type(`echo mk${id}-begin-$((3+4)); ${command}; echo mk${id}-end-$((4+5))\r`);
    const out = await this.waitForOutput(new RegExp(`${begin}\\r?\\n[\\s\\S]*${end}`), { timeout, from, what: `output of \`${command}\`` });
    const s = out.indexOf(`${begin}\r\n`) >= 0 ? out.indexOf(`${begin}\r\n`) + begin.length + 2 : out.indexOf(begin) + begin.length + 1;
    return out.slice(s, out.indexOf(end, s)).replace(/\r\n/g, '\n');
  }

  // Closes normally (a closed tab).
  async close(code = 1000) {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) {
      if (this.paused) this.ws._socket.resume();
      this.ws.close(code);
    }
    let timer;
    await Promise.race([this.closed, new Promise((r) => { timer = setTimeout(r, 2000); })]);
    clearTimeout(timer);
    if (!this.closeInfo) this.ws.terminate();
  }

  // Drops the TCP connection without a close frame (a lost network, a killed tab).
  async drop() {
    this.ws.terminate();
    await this.closed;
  }
}

function failClosed(conn, what) {
  throw new Error(`WebSocket closed (${conn.closeInfo.code} ${conn.closeInfo.reason}) while waiting for ${what}`);
}

// Opens a window and attaches it, starting the default program if the daemon has no
// session (`start`, default true), then waits for the shell's prompt. Cleanup is registered
// on `t`: the window closes, and whatever the session left running is killed.
export async function attachedWindow(t, d, { start = true, session, prompt = true, ...openOpts } = {}) {
  const ws = await openWs(d, openOpts);
  t.after(() => ws.close());
  const attached = await ws.attach({ start, ...(session !== undefined ? { session } : {}) });
  t.after(() => killSession(attached.pid));
  if (prompt) await ws.waitForPrompt();
  return { ws, attached };
}

// ---------------------------------------------------------------------------------------
// HTTP with explicit headers (fetch cannot set Host, and normalises `..` in paths).

export function httpGet(daemon, path, { headers = {}, host, setHost = true, method = 'GET', timeout = 5000, body } = {}) {
  return new Promise((resolve, reject) => {
    const h = { ...headers };
    if (host !== undefined) h.Host = host;
    const req = http.request({ host: '127.0.0.1', port: daemon.port, path, method, headers: h, setHost: host === undefined ? setHost : false, agent: false, timeout }, (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`HTTP ${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

// ---------------------------------------------------------------------------------------
// Processes

// Direct children of `pid` across all its threads.
export function childrenOf(pid) {
  const kids = new Set();
  let tasks = [];
  try { tasks = readdirSync(`/proc/${pid}/task`); } catch { return []; }
  for (const t of tasks) {
    try {
      for (const c of readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/)) if (c) kids.add(Number(c));
    } catch { /* thread gone */ }
  }
  return [...kids];
}

// The programs of a daemon's sessions: each runs as the only child of its session's host
// (`wharf host`), never as the daemon's own child.
export function sessionPrograms(daemon) {
  return hostsOf(daemon.stateDir).flatMap((host) => childrenOf(host));
}

// Parses /proc/PID/stat; comm may contain spaces and parentheses, so fields are taken
// after the last ')'. Returns null when the process is gone.
export function procStat(pid) {
  let text;
  try { text = readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { return null; }
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const f = text.slice(close + 2).split(' ');
  return { pid, comm, state: f[0], ppid: Number(f[1]), pgrp: Number(f[2]), session: Number(f[3]), ttyNr: Number(f[4]) };
}

export function allProcesses() {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = procStat(Number(name));
    if (st) out.push(st);
  }
  return out;
}

// Live (not zombie) processes whose session id is `sid`.
export function sessionMembers(sid) {
  return allProcesses().filter((p) => p.session === sid && p.state !== 'Z' && p.state !== 'X');
}

export function zombieChildrenOf(pid) {
  return childrenOf(pid).map(procStat).filter((p) => p && p.state === 'Z');
}

export function cmdline(pid) {
  try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean); } catch { return null; }
}

export function environOf(pid) {
  return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
}

export function fdTargets(pid) {
  const out = {};
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try { out[fd] = readlinkSync(`/proc/${pid}/fd/${fd}`); } catch { /* closed meanwhile */ }
  }
  return out;
}

export function describeProcs(procs) {
  return procs.map((p) => `${p.pid} ${p.state} ppid=${p.ppid} pgrp=${p.pgrp} sid=${p.session} ${JSON.stringify(cmdline(p.pid))}`).join('\n');
}

// ---------------------------------------------------------------------------------------
// Running the binary directly (CLI tests)

// Runs `wharf ...args` to completion; resolves { code, signal, stdout, stderr }.
export function runWharf(args, { env = {}, timeout = 15000, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(wharfBin, args, {
      cwd, env: { ...sanitizerOptions(), PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`wharf ${args.join(' ')} did not exit within ${timeout} ms; stdout:\n${stdout}\nstderr:\n${stderr}`)); }, timeout);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr }); });
  });
}

// Resolves `promise` or rejects after `ms` with `what`.
export async function within(promise, ms, what) {
  let timer;
  const t = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms); });
  try { return await Promise.race([promise, t]); } finally { clearTimeout(timer); }
}

// Stops the daemon with a deadline (SIGKILL after it, so a hung daemon cannot hang the
// suite) and checks that it exited 0: a daemon that crashes, or whose sanitizer reports an
// error or a leak at exit, fails the test that used it.
export async function stopDaemon(daemon, ms = 20000) {
  let result;
  try {
    result = await within(daemon.stop(), ms, 'daemon to exit after SIGTERM');
  } catch (e) {
    daemon.child.kill('SIGKILL');
    await daemon.exited;
    throw e;
  }
  if (result.code !== 0) {
    throw new Error(`daemon exited with ${result.code ?? result.signal}, not 0; stderr tail:\n${daemon.stderr.slice(-4000)}`);
  }
  return result;
}

// True when the daemon runs with a sanitizer runtime (its memory use then means little).
// gcc loads the sanitizer runtimes as libraries; clang links them in, and then ASan shows
// as its shadow memory's fixed place on x86-64 (the gap above the low shadow).
export function isSanitized(pid) {
  try {
    const maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
    return /lib(asan|tsan|ubsan|lsan)/.test(maps) || /^0*8fff7000-0*2008fff7000 /m.test(maps);
  } catch { return false; }
}

// Test cleanup after a failure: SIGKILLs whatever is still alive in session `sid` (only
// processes a test started through the daemon), so a broken daemon leaves nothing behind.
export function killSession(sid) {
  if (!Number.isInteger(sid) || sid <= 1) return;
  for (const p of sessionMembers(sid)) {
    try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
  }
}

// Sends `text` as is on one TCP connection and resolves with everything the daemon sent
// back until it closed the connection (or `timeout` passed). For pipelined requests and
// malformed headers that http.request will not produce.
export function rawHttp(daemon, text, { timeout = 5000 } = {}) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(daemon.port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => { sock.destroy(); resolve(data); }, timeout);
    sock.setEncoding('latin1');
    sock.on('data', (d) => { data += d; });
    sock.on('error', (e) => { clearTimeout(timer); if (data) resolve(data); else reject(e); });
    sock.on('close', () => { clearTimeout(timer); resolve(data); });
    sock.on('connect', () => sock.write(text));
  });
}

// Status codes of the responses in a raw HTTP byte stream, in order (bodies skipped by
// their Content-Length).
export function statusCodes(raw) {
  const codes = [];
  let at = 0;
  while (at < raw.length) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const head = raw.slice(at, end);
    const m = head.match(/^HTTP\/1\.[01] (\d{3})/);
    if (!m) break;
    codes.push(Number(m[1]));
    const len = head.match(/\r\ncontent-length:\s*(\d+)/i);
    at = end + 4 + (len ? Number(len[1]) : 0);
  }
  return codes;
}
