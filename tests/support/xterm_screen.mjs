// The page's own emulator, headless: renders a byte stream with @xterm/headless (the same
// xterm.js version the page ships) and the Unicode 11 width addon the page activates, and
// returns the screen as text. Used to check that what the server's screen model says
// (and the snapshot it sends on attach) is what the browser will show.
//
//   const screen = await renderWithXterm(bytes, { cols: 80, rows: 24 });
//   screen.lines            visible rows, top to bottom, trailing spaces trimmed
//   screen.cursor           { row, col } 0-based, within the visible rows
//   screen.altScreen        whether the alternate screen buffer is active
//   screen.scrollbackLines  rows that scrolled off the top of the normal buffer, oldest first
//
// `bytes` may be a Buffer/Uint8Array (written as raw bytes, decoded by xterm.js itself) or
// a string. Writes are awaited through xterm.js's write callback, so the result reflects
// every byte. Also returned: `modes` (xterm.js's public IModes: DECCKM, DECKPAM, bracketed
// paste, mouse tracking, focus reporting...), the last `title` set by OSC 0/2, and `extra`:
// state the public API does not show (cursor hidden, DECSCUSR style and blink, mouse
// encoding), read from xterm.js internals, each undefined if a later version moves it. With
// `keep: true` the Terminal itself comes back as `term` (for cell attributes); the caller
// then disposes it.
import xtermHeadless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';

const { Terminal } = xtermHeadless;
const { Unicode11Addon } = unicode11;

// A Terminal set up the way the page sets up its terminal (Unicode 11 widths). Answers the
// terminal sends (DA, CPR, DECRQM...) go to `onReply` when given.
export function createXterm({ cols, rows, scrollback = 2000, onReply } = {}) {
  if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 1 || rows < 1)
    throw new Error(`createXterm needs integer cols and rows, got ${cols}x${rows}`);
  // reflowCursorLine as the page sets it (web/terminal_view.js).
  const term = new Terminal({ cols, rows, scrollback, allowProposedApi: true, reflowCursorLine: true });
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = '11';
  if (onReply) term.onData(onReply);
  return term;
}

export function writeAsync(term, data) {
  const chunk = typeof data === 'string' ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Promise((resolve) => term.write(chunk, resolve));
}

export function readScreen(term) {
  const buf = term.buffer.active;
  const lines = [];
  for (let y = 0; y < term.rows; y++) lines.push(lineText(buf, buf.baseY + y));
  const scrollbackLines = [];
  // Scrollback belongs to the normal buffer; the alternate one has none.
  const normal = term.buffer.normal;
  for (let y = 0; y < normal.baseY; y++) scrollbackLines.push(lineText(normal, y));
  return {
    lines,
    cursor: { row: buf.cursorY, col: buf.cursorX },
    altScreen: buf.type === 'alternate',
    scrollbackLines,
  };
}

function readExtra(term) {
  const core = term._core;
  const dec = core?.coreService?.decPrivateModes;
  return {
    cursorHidden: core?.coreService?.isCursorHidden,
    cursorStyle: dec?.cursorStyle,
    cursorBlink: dec?.cursorBlink,
    mouseEncoding: core?.coreMouseService?.activeEncoding,
  };
}

function lineText(buf, y) {
  const line = buf.getLine(y);
  return line ? line.translateToString(true).replace(/ +$/, '') : '';
}

export async function renderWithXterm(bytes, { cols, rows, scrollback = 2000, keep = false } = {}) {
  const term = createXterm({ cols, rows, scrollback });
  let title = '';
  term.onTitleChange((t) => { title = t; });
  try {
    await writeAsync(term, bytes);
    const result = { ...readScreen(term), modes: { ...term.modes }, title, extra: readExtra(term) };
    if (keep) result.term = term;
    return result;
  } finally {
    if (!keep) term.dispose();
  }
}
