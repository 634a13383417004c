// Helpers shared by the integration tests: a WebSocket client that records everything
// the daemon sends, raw HTTP requests with full control over headers (Host included),
// a shell runner with unique markers, and /proc inspection of the daemon's children and
// of a session's processes. Everything waits on conditions with deadlines, never sleeps.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import WebSocket from 'ws';
import { sanitizerOptions, waitFor, wharfBin } from './daemon.mjs';

// ---------------------------------------------------------------------------------------
// WebSocket

// Opens `ws://127.0.0.1:PORT/ws?k=KEY` (or `path`) with the page's own Origin unless told
// otherwise. Resolves with a Conn once the upgrade succeeded.
export async function openWs(daemon, { key = daemon.key, path, origin = daemon.origin, headers = {}, query = '', timeout = 10000, perMessageDeflate = false, ...wsOptions } = {}) {
  const target = path ?? `/ws?k=${encodeURIComponent(key)}${query}`;
  const h = { ...headers };
  if (origin !== undefined && origin !== null) h.Origin = origin;
  const ws = new WebSocket(`ws://127.0.0.1:${daemon.port}${target}`, { headers: h, handshakeTimeout: timeout, perMessageDeflate, ...wsOptions });
  const conn = new Conn(ws);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('unexpected-response', (req, res) => {
      res.resume();
      reject(new Error(`WebSocket upgrade refused with HTTP ${res.statusCode}`));
    });
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`WebSocket closed (${code}) before opening`)));
  });
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

// Records every message of one WebSocket: JSON control messages in `messages` (any text
// frame that is not JSON in `nonJsonText`), binary output decoded as UTF-8 into `output`
// (a character split across frames is joined; nothing is stripped), `byteLength` raw bytes.
export class Conn {
  constructor(ws) {
    this.ws = ws;
    this.messages = [];
    this.decoder = new StringDecoder('utf8');
    this.pieces = []; // decoded output, in arrival order
    this.starts = []; // character offset of each piece
    this.textLength = 0;
    this.byteLength = 0;
    this.nonJsonText = [];
    this.closeInfo = null;
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString() };
        resolve(this.closeInfo);
      });
    });
    ws.on('error', () => {}); // surfaced through `closed`
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        const buf = Buffer.isBuffer(data) ? data : Buffer.concat(data);
        this.byteLength += buf.length;
        const text = this.decoder.write(buf);
        if (text) { this.starts.push(this.textLength); this.pieces.push(text); this.textLength += text.length; }
      } else {
        const text = data.toString('utf8');
        try { this.messages.push(JSON.parse(text)); } catch { this.nonJsonText.push(text); }
      }
    });
  }

  // Everything received as binary, decoded as UTF-8 (characters split across frames are
  // joined), nothing stripped.
  get output() {
    if (this.pieces.length > 1) { this.pieces = [this.pieces.join('')]; this.starts = [0]; }
    return this.pieces[0] ?? '';
  }

  // The decoded output from character offset `pos` on, joining only the pieces needed.
  outputFrom(pos) {
    if (pos <= 0) return this.output;
    let i = this.starts.length - 1;
    while (i > 0 && this.starts[i] > pos) i -= 1;
    if (i < 0) return '';
    const tail = this.pieces.slice(i).join('');
    return tail.slice(pos - this.starts[i]);
  }

  get isOpen() { return this.ws.readyState === WebSocket.OPEN; }

  send(obj) { this.ws.send(typeof obj === 'string' ? obj : JSON.stringify(obj)); }
  sendText(text) { this.ws.send(text, { binary: false }); }
  type(text) { this.ws.send(Buffer.from(text, 'utf8'), { binary: true }); }

  describe() {
    const tail = this.output.slice(-1500);
    return `messages: ${JSON.stringify(this.messages)}\nclose: ${JSON.stringify(this.closeInfo)}\noutput tail: ${JSON.stringify(tail)}`;
  }

  // Resolves with the first message (from index `from`) matching `pred`.
  async waitForMessage(pred, { timeout = 10000, from = 0, what = 'message' } = {}) {
    const predicate = typeof pred === 'string' ? (m) => m && m.type === pred : pred;
    try {
      return await waitFor(() => {
        const m = this.messages.slice(from).find(predicate);
        if (m) return m;
        if (this.closeInfo) failClosed(this, what);
        return null;
      }, { timeout, what });
    } catch (e) {
      e.message += `\n${this.describe()}`;
      throw e;
    }
  }

  // Waits until output (from byte offset `from` of the decoded string) contains `text`
  // (a string or RegExp); resolves with the output from `from`.
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

  async waitForClose({ timeout = 10000 } = {}) {
    let timer;
    const t = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`WebSocket not closed within ${timeout} ms\n${this.describe()}`)), timeout); });
    try { return await Promise.race([this.closed, t]); } finally { clearTimeout(timer); }
  }

  // Waits for hello then ready; returns { hello, ready }.
  async handshake({ timeout = 10000 } = {}) {
    const hello = await this.waitForMessage('hello', { timeout, what: 'hello' });
    const ready = await this.waitForMessage('ready', { timeout, what: 'ready' });
    return { hello, ready };
  }

  // Waits for the shell to have printed something (its prompt), so typed input goes to
  // a shell that is reading.
  async waitForPrompt({ timeout = 10000 } = {}) {
    await waitFor(() => this.byteLength > 0 || (this.closeInfo && failClosed(this, 'prompt')), { timeout, what: 'first output of the shell' })
      .catch((e) => { e.message += `\n${this.describe()}`; throw e; });
  }

  // Runs `command` in the attached shell and resolves with what it printed, taken between
  // two markers whose printed form differs from their typed form (so the echo of the
  // typed line never matches).
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

  async close(code = 1000) {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code);
    let timer;
    await Promise.race([this.closed, new Promise((r) => { timer = setTimeout(r, 2000); })]);
    clearTimeout(timer);
    if (!this.closeInfo) this.ws.terminate();
  }
}

function failClosed(conn, what) {
  throw new Error(`WebSocket closed (${conn.closeInfo.code} ${conn.closeInfo.reason}) while waiting for ${what}`);
}

// ---------------------------------------------------------------------------------------
// HTTP with explicit headers (fetch cannot set Host, and normalises `..` in paths).

export function httpGet(daemon, path, { headers = {}, host, setHost = true, method = 'GET', timeout = 5000 } = {}) {
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
    req.end();
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
export function isSanitized(pid) {
  try { return /lib(asan|tsan|ubsan|lsan)/.test(readFileSync(`/proc/${pid}/maps`, 'utf8')); } catch { return false; }
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
