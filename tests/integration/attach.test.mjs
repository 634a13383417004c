// `wharf attach ID` in a real terminal: each client runs in a pane of a private tmux
// server (its own socket, no config), typed into with send-keys and read with
// capture-pane, and what the pane shows is held against `wharf read-screen`, the
// daemon's own screen model. Covered: the same text lines and colours, the PTY following
// the pane's size, Ctrl-] d (the session goes on) with the terminal's modes reset, a
// second attach watching (a notice, its typing never reaching the program) and taking
// over, the literal Ctrl-], terminal queries answered once, acknowledged output (flow
// control), the session's exit, the daemon's disappearance, a signal, and the refusals
// (a missing id starts nothing, stdin not a terminal, no daemon).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startDaemon, waitFor, wharfBin, sanitizerOptions } from '../support/daemon.mjs';
import { runWharf, stopDaemon, childrenOf, killSession } from '../support/ws_client.mjs';

const TMUX = '/usr/bin/tmux';
const SLOW = { timeout: 20000 }; // login shells and tmux on a loaded machine

// A private tmux server for one test; killed when the test ends.
class Tmux {
  constructor(t) {
    this.socket = `wharf-attach-${process.pid}-${randomBytes(4).toString('hex')}`;
    // The socket's directory too is the test's own: tmux 3.3 leaves the file behind.
    this.dir = mkdtempSync(join(tmpdir(), 'wharf-tmux-'));
    t.after(async () => {
      await this.run(['kill-server']).catch(() => {});
      rmSync(this.dir, { recursive: true, force: true });
    });
  }

  run(args) {
    return new Promise((resolve, reject) => {
      execFile(TMUX, ['-L', this.socket, '-f', '/dev/null', ...args], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, TERM: 'xterm-256color', SHELL: '/bin/sh', TMUX_TMPDIR: this.dir },
        timeout: 10000,
      }, (error, stdout, stderr) => {
        if (error) reject(new Error(`tmux ${args.join(' ')}: ${error.message}\n${stderr}`));
        else resolve(stdout);
      });
    });
  }

  // Runs `wharf attach ID` in a new detached session (one pane) of the given size. The
  // pane stays after the client exits and shows its exit status.
  async attach(pane, d, id, { cols = 100, rows = 30, stateDir = d.stateDir } = {}) {
    const env = Object.entries(sanitizerOptions()).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    const command = `${wharfBin} attach ${id} --state-dir ${stateDir}; echo "[attach exited $?]"; exec sleep 86400`;
    await this.run(['new-session', '-d', '-s', pane, '-x', String(cols), '-y', String(rows), ...env, command]);
  }

  async capture(pane, extra = []) {
    return this.run(['capture-pane', '-p', '-t', pane, ...extra]);
  }

  async lines(pane) {
    return textLines(await this.capture(pane));
  }

  // Everything the pane shows, its history included.
  async everything(pane) {
    return this.capture(pane, ['-J', '-S', '-']);
  }

  async type(pane, text) {
    await this.run(['send-keys', '-t', pane, '-l', text]);
    await this.run(['send-keys', '-t', pane, 'Enter']);
  }

  // Waits for a whole line (trailing blanks aside) on the pane's screen.
  async waitForLine(pane, line) {
    let last = [];
    try {
      await waitFor(async () => { last = await this.lines(pane); return last.includes(line); }, { ...SLOW, what: `the line ${JSON.stringify(line)} in pane ${pane}` });
    } catch (e) {
      e.message += `\npane ${pane} shows:\n${last.join('\n')}`;
      throw e;
    }
  }

  keys(pane, ...keys) {
    return this.run(['send-keys', '-t', pane, ...keys]);
  }

  resize(pane, cols, rows) {
    return this.run(['resize-window', '-t', pane, '-x', String(cols), '-y', String(rows)]);
  }

  // The pane's terminal modes, as tmux's formats report them.
  async modes(pane) {
    const out = await this.run(['display-message', '-p', '-t', pane,
      '#{alternate_on} #{cursor_flag} #{keypad_cursor_flag} #{keypad_flag} #{mouse_any_flag}']);
    const [alternate, cursor, cursorKeys, keypad, mouse] = out.trim().split(' ').map(Number);
    return { alternate, cursor, cursorKeys, keypad, mouse };
  }

  // The process id of the client in the pane (the pane's shell runs it as its child).
  async clientPid(pane) {
    const shell = Number((await this.run(['display-message', '-p', '-t', pane, '#{pane_pid}'])).trim());
    return waitFor(() => childrenOf(shell)[0], { what: 'the wharf attach process in the pane' });
  }

  // Waits for `text` on the pane's screen (or, with `history`, anywhere in its history);
  // resolves with what the pane shows.
  async waitForText(pane, text, { what = `${JSON.stringify(text)} in pane ${pane}`, timeout = SLOW.timeout, history = false } = {}) {
    let last = '';
    try {
      return await waitFor(async () => {
        // -J: a notice longer than the pane is one line again.
        last = await this.capture(pane, history ? ['-J', '-S', '-'] : ['-J']);
        return last.includes(text) ? last : null;
      }, { timeout, what });
    } catch (e) {
      e.message += `\npane ${pane} shows:\n${last}`;
      throw e;
    }
  }
}

// Lines as a person sees them: no trailing blanks, no empty lines at the end.
function textLines(text) {
  const lines = text.split('\n').map((l) => l.trimEnd());
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines;
}

const wharf = (d, args) => runWharf([...args, '--state-dir', d.stateDir]);

async function screen(d, id) {
  const r = await wharf(d, ['read-screen', String(id), '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

async function screenLines(d, id) {
  const r = await wharf(d, ['read-screen', String(id)]);
  assert.equal(r.code, 0, r.stderr);
  return textLines(r.stdout);
}

async function sessions(d) {
  const r = await wharf(d, ['ls', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// Starts a bash session and waits for its prompt.
async function newShell(d) {
  const r = await wharf(d, ['new', '--shell', 'bash']);
  assert.equal(r.code, 0, r.stderr);
  const id = Number(r.stdout.trim());
  await waitFor(async () => /[#$]$/.test((await screenLines(d, id)).at(-1) ?? ''), { ...SLOW, what: `the prompt of session ${id}` });
  return id;
}

// Waits until the pane and the daemon's screen model show the same text lines.
async function sameScreen(tm, pane, d, id, what) {
  let last = null;
  try {
    await waitFor(async () => {
      last = { pane: await tm.lines(pane), daemon: await screenLines(d, id) };
      return JSON.stringify(last.pane) === JSON.stringify(last.daemon);
    }, { ...SLOW, what });
  } catch {
    assert.deepEqual(last.pane, last.daemon, `${what}: pane ${pane} and read-screen differ`);
  }
}

async function waitForSize(d, id, cols, rows) {
  await waitFor(async () => { const s = await screen(d, id); return s.cols === cols && s.rows === rows; }, { ...SLOW, what: `session ${id} at ${cols}x${rows}` });
}

describe('wharf attach', { concurrency: 2 }, () => {
  test('the pane shows what the daemon\'s screen shows, colours included, and the PTY follows the pane\'s size', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const id = await newShell(d); // started at 80x24
    const tm = new Tmux(t);
    await tm.attach('a', d, id, { cols: 100, rows: 30 });
    // The driver's size becomes the session's, and the screen is redrawn at it.
    await waitForSize(d, id, 100, 30);
    // The line saying where this terminal is attached, now in the pane's history.
    await tm.waitForText('a', `wharf: attached to session ${id} (bash ${id}) as driver; Ctrl-] d detaches, Ctrl-] t takes over`, { history: true });
    await sameScreen(tm, 'a', d, id, 'the screen after attaching');

    await tm.type('a', "printf '\\033[1;31m%s\\033[0m \\033[42m%s\\033[0m\\n' RED-$((6*7)) GREEN-$((7*8))");
    await tm.waitForText('a', 'RED-42 GREEN-56');
    await sameScreen(tm, 'a', d, id, 'the screen after a coloured marker');
    const coloured = (await tm.capture('a', ['-e'])).split('\n').find((l) => l.includes('GREEN-56') && !l.includes('printf'));
    assert.match(coloured, /\x1b\[(\d+;)*31(;\d+)*mRED-42/, `red reached the terminal: ${JSON.stringify(coloured)}`);
    assert.match(coloured, /\x1b\[(\d+;)*42(;\d+)*mGREEN-56/, `the green background too: ${JSON.stringify(coloured)}`);

    await tm.type('a', 'stty size');
    await tm.waitForLine('a', '30 100');
    await tm.resize('a', 80, 24);
    await waitForSize(d, id, 80, 24);
    await tm.type('a', 'clear; stty size');
    await tm.waitForLine('a', '24 80');
    await sameScreen(tm, 'a', d, id, 'the screen after the pane shrank');

    // Ctrl-] Ctrl-] types one Ctrl-] into the program.
    // Once READY shows, the shell has left readline (which would take Ctrl-] itself).
    await tm.type('a', 'clear; echo READY-$((1+1)); od -An -c | head -1');
    await tm.waitForLine('a', 'READY-2');
    await tm.keys('a', 'C-]', 'C-]', 'Enter', 'C-d');
    await waitFor(async () => (await screenLines(d, id)).some((l) => /035\s+\\n/.test(l)), { ...SLOW, what: 'od to show the Ctrl-] it read' });
    await sameScreen(tm, 'a', d, id, 'the screen after od');
  });

  test('terminal queries get one answer, the daemon\'s: the terminal behind attach never sees them', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const id = await newShell(d);
    const tm = new Tmux(t);
    await tm.attach('a', d, id);
    await tm.waitForText('a', 'as driver', { history: true });
    // tmux answers DA1 and CPR itself; were they passed on, the program would read two of
    // each. Whatever arrives within a second is shown.
    await tm.type('a', "clear; stty -echo -icanon; printf '\\033[c\\033[6n'; extra=$(timeout --foreground 1 cat -v); stty sane; echo \"GOT$((1+1))<$extra>\"");
    const shown = await tm.waitForText('a', 'GOT2<');
    const got = shown.match(/GOT2<(.*)>/)[1];
    assert.equal((got.match(/\^\[\[\?[\d;]*c/g) ?? []).length, 1, `one DA reply: ${got}`);
    assert.equal((got.match(/\^\[\[\d+;\d+R/g) ?? []).length, 1, `one cursor position report: ${got}`);
  });

  test('flow control: the client acknowledges what it wrote, so output past the 1 MiB budget keeps coming', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const id = await newShell(d);
    const tm = new Tmux(t);
    await tm.attach('a', d, id);
    await tm.waitForText('a', 'as driver', { history: true });
    // About 2.3 MB: without acks the daemon would stop sending after 1 MiB.
    await tm.type('a', 'seq 1 350000; echo flood-$((6*7))');
    await tm.waitForLine('a', 'flood-42');
    await sameScreen(tm, 'a', d, id, 'the screen after the flood');
  });

  test('Ctrl-] d detaches: exit 0, the terminal\'s modes are reset, the session goes on with its screen', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const id = await newShell(d);
    const tm = new Tmux(t);
    await tm.attach('a', d, id);
    await waitForSize(d, id, 100, 30);
    await tm.type('a', 'echo kept-$((6*7))');
    await tm.waitForLine('a', 'kept-42');
    // The program takes over the terminal: alternate screen, mouse, cursor keys, keypad,
    // hidden cursor, bracketed paste; all of it reaches the pane.
    await tm.type('a', "printf '\\033[?1049h\\033[?1000h\\033[?1h\\033=\\033[?25l\\033[?2004hALT-%s\\n' $((2*3))");
    await tm.waitForText('a', 'ALT-6');
    assert.deepEqual(await tm.modes('a'), { alternate: 1, cursor: 0, cursorKeys: 1, keypad: 1, mouse: 1 });
    // The prompt after ALT-6: the screen has settled.
    const before = await waitFor(async () => {
      const lines = await screenLines(d, id);
      return lines.at(-2) === 'ALT-6' && /[#$]$/.test(lines.at(-1)) ? lines : null;
    }, { ...SLOW, what: 'the prompt after ALT-6' });

    await tm.keys('a', 'C-]', 'd');
    const shown = await tm.waitForText('a', '[attach exited 0]');
    assert.match(shown, new RegExp(`wharf: detached; session ${id} goes on`));
    assert.deepEqual(await tm.modes('a'), { alternate: 0, cursor: 1, cursorKeys: 0, keypad: 0, mouse: 0 }, 'the pane is back to normal');
    // Leaving the alternate screen brought back the session's primary screen.
    assert.match(shown, /\nkept-42/);

    const [entry] = (await sessions(d)).filter((s) => s.id === id);
    assert.equal(entry?.status, 'running', 'wharf ls still lists the session');
    await waitFor(async () => (await sessions(d)).find((s) => s.id === id)?.windows === 0, { what: 'no window attached' });
    assert.deepEqual(await screenLines(d, id), before, 'the session\'s screen is still there');

    // Attaching again shows it as it is, and the program still answers.
    await tm.attach('b', d, id);
    await tm.waitForText('b', 'ALT-6');
    await sameScreen(tm, 'b', d, id, 'the screen on attaching again');
    assert.equal((await tm.modes('b')).alternate, 1, 'the snapshot put the pane on the alternate screen');
    await tm.type('b', "printf '\\033[?1049l'; echo back-$((4*4))");
    await tm.waitForText('b', 'back-16');
    await sameScreen(tm, 'b', d, id, 'the primary screen again');
    assert.ok((await tm.lines('b')).includes('kept-42'));
  });

  test('a second attach watches: a notice, its typing never reaches the program; Ctrl-] t takes over', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const id = await newShell(d);
    const tm = new Tmux(t);
    await tm.attach('a', d, id, { cols: 100, rows: 30 });
    await waitForSize(d, id, 100, 30);
    await tm.waitForText('a', 'as driver', { history: true });
    await tm.attach('b', d, id, { cols: 90, rows: 25 });
    const notice = await tm.waitForText('b', `wharf: watching session ${id} (window `);
    assert.match(notice, /drives it\): your typing is ignored, Ctrl-\] t takes over/);
    assert.match(await tm.everything('b'), new RegExp(`wharf: attached to session ${id} \\(bash ${id}\\) as watcher \\(window \\d+ drives it\\)`));

    const stray = randomBytes(4).toString('hex');
    await tm.type('b', `echo watcher-${stray}`);
    await tm.waitForText('b', `wharf: watching session ${id}: your typing is ignored`, { what: 'the notice for refused typing' });
    // A round trip through the shell from the driver: the watcher's typing would be there.
    await tm.type('a', 'echo checked-$((2*2))');
    await waitFor(async () => (await screenLines(d, id)).includes('checked-4'), { ...SLOW, what: 'the driver\'s command to run' });
    assert.ok(!(await screenLines(d, id)).some((l) => l.includes(stray)), 'the watcher\'s typing reached the program');
    assert.ok(!(await tm.capture('a')).includes(stray));
    const size = await screen(d, id);
    assert.deepEqual([size.cols, size.rows], [100, 30], 'the watcher\'s size changes nothing');

    await tm.keys('b', 'C-]', 't');
    await tm.waitForText('b', `wharf: you drive session ${id} now`);
    await tm.waitForText('a', `took over session ${id}; watching now, Ctrl-] t takes it back`);
    await waitForSize(d, id, 90, 25);
    await tm.type('b', 'echo taken-$((3*3))');
    await waitFor(async () => (await screenLines(d, id)).includes('taken-9'), { ...SLOW, what: 'the new driver\'s typing to run' });
  });

  test('the session ending ends the attach (exit 0) with its exit code; a signal stops it (exit 1) and restores the terminal', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const ending = await newShell(d);
    const tm = new Tmux(t);
    await tm.attach('a', d, ending);
    await tm.waitForText('a', 'as driver', { history: true });
    await waitForSize(d, ending, 100, 30);
    await tm.type('a', 'exit 3');
    const shown = await tm.waitForText('a', '[attach exited 0]');
    assert.match(shown, new RegExp(`wharf: session ${ending} ended with exit code 3\\n`));

    const staying = await newShell(d);
    await tm.attach('b', d, staying);
    await tm.waitForText('b', 'as driver', { history: true });
    await tm.type('b', "printf '\\033[?1049h\\033[?1002h\\033[?25lSIG-%s\\n' $((5+5))");
    await tm.waitForText('b', 'SIG-10');
    process.kill(await tm.clientPid('b'), 'SIGTERM');
    const stopped = await tm.waitForText('b', '[attach exited 1]');
    assert.match(stopped, new RegExp(`wharf: stopped by SIGTERM; session ${staying} goes on`));
    assert.deepEqual(await tm.modes('b'), { alternate: 0, cursor: 1, cursorKeys: 0, keypad: 0, mouse: 0 });
    assert.equal((await sessions(d)).find((s) => s.id === staying)?.status, 'running');
  });

  test('the daemon going away ends the attach with exit 1 and says so', async (t) => {
    const d = await startDaemon();
    let pid = 0;
    t.after(() => {
      if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
      killSession(pid); // its shell, should the hang-up not have ended it
      rmSync(d.stateDir, { recursive: true, force: true });
    });
    const id = await newShell(d);
    pid = (await sessions(d)).find((s) => s.id === id).pid;
    const tm = new Tmux(t);
    await tm.attach('a', d, id);
    await tm.waitForText('a', 'as driver', { history: true });
    d.child.kill('SIGKILL'); // no `exit`, no close frame: the connection just ends
    await d.exited;
    const shown = await tm.waitForText('a', '[attach exited 1]');
    assert.match(shown, /wharf: the daemon closed the connection/);
  });

  test('refusals: a missing id starts nothing (exit 1), stdin not a terminal (exit 2), no daemon (exit 1)', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const id = await newShell(d);
    const before = await sessions(d);
    const tm = new Tmux(t);
    await tm.attach('missing', d, id + 41);
    const shown = await tm.waitForText('missing', '[attach exited 1]');
    assert.match(shown, new RegExp(`wharf: session ${id + 41} is gone \\(no such live session\\); \`wharf ls\` lists them`));
    const after = await sessions(d);
    assert.deepEqual(after.map((s) => s.id), before.map((s) => s.id), 'nothing was started');
    assert.equal(after[0].windows, 0, 'no window stayed on another session');
    const history = await wharf(d, ['history', '--json']);
    assert.equal(JSON.parse(history.stdout).length, 1, `one session in the history: ${history.stdout}`);

    const piped = await wharf(d, ['attach', String(id)]); // stdin is /dev/null
    assert.equal(piped.code, 2, piped.stderr);
    assert.match(piped.stderr, /attach needs a terminal on stdin/);
    assert.equal(piped.stdout, '');

    const empty = mkdtempSync(join(tmpdir(), 'wharf-attach-none-'));
    t.after(() => rmSync(empty, { recursive: true, force: true }));
    await tm.attach('nodaemon', d, 1, { stateDir: empty });
    const none = await tm.waitForText('nodaemon', '[attach exited 1]');
    assert.match(none, /wharf: no running daemon found/);
  });
});
