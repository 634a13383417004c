// The engine (src/core, through tests/tools/screen_dump.cpp) against the page's emulator
// (@xterm/headless with the Unicode 11 addon), cell by cell. Used by
// tests/unit/xterm/engine_agreement.test.mjs.
//
//   const engine = dumpEngine(bytes, { cols, rows, chunk, resizes, snapshot: true });
//   const xterm = await xtermState(bytes, { cols, rows, chunk, resizes });
//   const diffs = compareStates(engine, xterm);          // [] when they agree
//   compareStates(engine, fromSnapshot, { snapshot: true })   // what a snapshot may change
//   compareXterms(xtermA, xtermB)                              // two xterm.js states
//
// randomStream(seed) builds the seeded random mixes the test uses.
// Both sides come out in one normalised shape: { cols, rows, screen: [{ wrapped, cells }],
// scrollback: [...rows], cursor: { x, y, visible, shape, blink }, alternate_screen, modes,
// title }, each cell { chars, width, fg, bg, flags, underline, ul_color, link } with
// colours as 'p16:1' / 'p256:200' / 'rgb:1193046' ('' for the default).
import { execFileSync } from 'node:child_process';
import { createXterm, writeAsync } from './xterm_screen.mjs';

export const dumpTool = process.env.WHARF_SCREEN_DUMP ??
  new URL('../../build/tests/wharf_screen_dump', import.meta.url).pathname;

// --- the engine --------------------------------------------------------------------------

// resizes: [{ cols, rows, at }] (at: byte offset, default the end of the stream).
export function dumpEngine(bytes, { cols, rows, chunk = 0, resizes = [], snapshot = false,
  scrollback = 100000 } = {}) {
  const args = ['--scrollback', String(scrollback)];
  if (chunk) args.push('--chunk', String(chunk));
  if (snapshot) args.push('--snapshot');
  for (const r of resizes) args.push('--resize', `${r.cols}x${r.rows}${r.at === undefined ? '' : `@${r.at}`}`);
  args.push(String(cols), String(rows), '-');
  const out = execFileSync(dumpTool, args, { input: Buffer.from(bytes), maxBuffer: 1 << 28 });
  const raw = JSON.parse(out.toString('utf8'));
  const state = normaliseEngine(raw);
  if (raw.snapshot !== undefined) {
    state.snapshot = Buffer.from(raw.snapshot, 'base64');
    state.replica = normaliseEngine(raw.replica);
  }
  return state;
}

function engineColor(c) {
  if (!c) return '';
  return `${c.mode}:${c.mode === 'rgb' ? c.value : c.value & 0xff}`;
}

function engineCell(c) {
  const underline = c.underline ?? 0;
  const link = c.link ? `${c.link.id}|${c.link.uri}` : '';
  return {
    chars: c.chars,
    width: c.width,
    fg: engineColor(c.fg),
    bg: engineColor(c.bg),
    flags: (c.flags ?? []).join(','),
    underline,
    // xterm.js keeps an underline colour in a cell only while the cell has extended
    // attributes (an underline style or a link); elsewhere it is never seen.
    ul_color: underline || link ? engineColor(c.ul_color) : '',
    link,
  };
}

function normaliseEngine(raw) {
  const row = (r) => ({ wrapped: r.wrapped, cells: r.cells.map(engineCell) });
  return {
    cols: raw.cols,
    rows: raw.rows,
    screen: raw.screen.map(row),
    scrollback: (raw.scrollback ?? []).map(row),
    cursor: raw.cursor,
    alternate_screen: raw.alternate_screen,
    modes: {
      application_cursor: raw.modes.application_cursor,
      application_keypad: raw.modes.application_keypad,
      bracketed_paste: raw.modes.bracketed_paste,
      focus: raw.modes.focus,
      mouse_tracking: raw.modes.mouse_tracking,
      mouse_encoding: raw.modes.mouse_encoding,
      origin: raw.modes.origin,
      autowrap: raw.modes.autowrap,
      insert: raw.modes.insert,
      newline: raw.modes.newline,
      reverse_wraparound: raw.modes.reverse_wraparound,
      synchronized_output: raw.modes.synchronized_output,
      scroll_top: raw.modes.scroll_top,
      scroll_bottom: raw.modes.scroll_bottom,
    },
    title: raw.title,
  };
}

// --- xterm.js ----------------------------------------------------------------------------

const FG_INVERSE = 0x4000000;
const FG_BOLD = 0x8000000;
const FG_UNDERLINE = 0x10000000;
const FG_BLINK = 0x20000000;
const FG_INVISIBLE = 0x40000000;
const FG_STRIKE = 0x80000000;
const BG_ITALIC = 0x4000000;
const BG_DIM = 0x8000000;
const BG_HAS_EXTENDED = 0x10000000;
const BG_PROTECTED = 0x20000000;
const BG_OVERLINE = 0x40000000;
const MODES = ['', 'p16', 'p256', 'rgb'];

function xtermColor(v) {
  const mode = (v >>> 24) & 3;
  if (mode === 0) return '';
  return `${MODES[mode]}:${mode === 3 ? v & 0xffffff : v & 0xff}`;
}

function xtermCell(cell, linkService) {
  const fg = cell.fg >>> 0;
  const bg = cell.bg >>> 0;
  const ext = (bg & BG_HAS_EXTENDED) !== 0 ? cell.extended : undefined;
  const flags = [];
  if (fg & FG_BOLD) flags.push('bold');
  if (bg & BG_DIM) flags.push('faint');
  if (bg & BG_ITALIC) flags.push('italic');
  if (fg & FG_BLINK) flags.push('blink');
  if (fg & FG_INVERSE) flags.push('inverse');
  if (fg & FG_INVISIBLE) flags.push('invisible');
  if (fg & FG_STRIKE) flags.push('strike');
  if (bg & BG_OVERLINE) flags.push('overline');
  if (bg & BG_PROTECTED) flags.push('protected');
  // The style as stored (the public getter answers "dashed" for every link). After DECRC
  // xterm.js can hold the underline flag (restored) with the current pen's style, which
  // may be none: the page's WebGL renderer draws that as a single underline.
  const rawStyle = ext ? ((ext._ext ?? ext.ext) >> 26) & 7 || 1 : 1;
  let link = '';
  if (ext && ext.urlId) {
    // xterm.js forgets a link once every line holding it (the line it was opened on, the
    // lines it was printed on) has been erased or has left the buffer, though the pen
    // and the cells printed with it since still carry its number: on the page such cells
    // are no link.
    const data = linkService.getLinkData(ext.urlId);
    link = data ? `${data.id ?? ''}|${data.uri}` : '(gone)';
  }
  return {
    chars: cell.getChars(),
    width: cell.getWidth(),
    fg: xtermColor(fg),
    bg: xtermColor(bg),
    flags: flags.join(','),
    underline: fg & FG_UNDERLINE ? rawStyle : 0,
    ul_color: ext ? xtermColor(ext.underlineColor) : '',
    link,
  };
}

function xtermRow(term, buffer, y, linkService) {
  const line = buffer.getLine(y);
  const cells = [];
  for (let x = 0; x < term.cols; x++) cells.push(xtermCell(line.getCell(x), linkService));
  return { wrapped: line.isWrapped, cells };
}

const TRACKING = { none: 0, x10: 9, vt200: 1000, drag: 1002, any: 1003 };
const ENCODING = { DEFAULT: 0, SGR: 1006, SGR_PIXELS: 1016 };

// The state of a Terminal, read through its public API where it has one and its
// internals elsewhere (cursor visibility and shape, mouse encoding, scroll region, links,
// extended attributes).
export function readXterm(term, title) {
  const core = term._core;
  const linkService = core._oscLinkService;
  const buf = term.buffer.active;
  const screen = [];
  for (let y = 0; y < term.rows; y++) screen.push(xtermRow(term, buf, buf.baseY + y, linkService));
  const normal = term.buffer.normal;
  const scrollback = [];
  for (let y = 0; y < normal.baseY; y++) scrollback.push(xtermRow(term, normal, y, linkService));
  const dec = core.coreService.decPrivateModes;
  const m = term.modes;
  return {
    cols: term.cols,
    rows: term.rows,
    screen,
    scrollback,
    cursor: {
      x: buf.cursorX,
      y: buf.cursorY,
      visible: !core.coreService.isCursorHidden,
      shape: dec.cursorStyle ?? 'default',
      blink: dec.cursorBlink ?? false,
    },
    alternate_screen: buf.type === 'alternate',
    modes: {
      application_cursor: m.applicationCursorKeysMode,
      application_keypad: m.applicationKeypadMode,
      bracketed_paste: m.bracketedPasteMode,
      focus: m.sendFocusMode,
      mouse_tracking: TRACKING[m.mouseTrackingMode] ?? m.mouseTrackingMode,
      mouse_encoding: ENCODING[core.coreMouseService.activeEncoding] ?? core.coreMouseService.activeEncoding,
      origin: m.originMode,
      autowrap: m.wraparoundMode,
      insert: m.insertMode,
      newline: !!term.options.convertEol,
      reverse_wraparound: m.reverseWraparoundMode,
      synchronized_output: m.synchronizedOutputMode,
      scroll_top: core.buffer.scrollTop,
      scroll_bottom: core.buffer.scrollBottom,
    },
    title,
  };
}

// xterm.js throws from its write loop (a timer) on a few inputs; the write then never
// completes. The exception is caught here and fails the write that was under way.
let pendingWrite = null;
process.on('uncaughtException', (error) => {
  if (!pendingWrite) throw error;
  const { reject } = pendingWrite;
  pendingWrite = null;
  reject(new Error(`xterm.js threw: ${error.stack}`));  // (the terminal is left as it is)
});

function guardedWrite(term, data) {
  return new Promise((resolve, reject) => {
    pendingWrite = { reject };
    writeAsync(term, data).then(() => {
      pendingWrite = null;
      resolve();
    });
  });
}

// Where a write cut at `at` really ends for xterm.js: before a UTF-8 sequence the cut
// would split. xterm.js 6.0.0 loses a character split after a continuation byte 0x80
// (E2 80 | 94, an em dash, decodes to nothing: Utf8ToUtf32 counts the bytes it kept
// until one reads 0 in its low six bits); the engine's own cut falls before that
// character too, so both still print the same runs.
function utf8Cut(data, at) {
  for (let k = 1; k <= 3 && at - k >= 0; k++) {
    const b = data[at - k];
    if ((b & 0xc0) === 0x80) continue;  // a continuation byte: look further back
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return length > k ? at - k : at;
  }
  return at;
}

// A Terminal fed `bytes` (resized on the way as `resizes` says), kept for more writes.
// With `chunk`, the bytes go in writes of about that many bytes, as the engine gets them:
// both print the text of each write in one go, and both erase a wide character left of
// the cursor at the start of each (so where a stream is cut can show).
export async function xtermTerminal(bytes, { cols, rows, resizes = [], chunk = 0 } = {}) {
  const term = createXterm({ cols, rows });
  term.options.logLevel = 'off';  // xterm.js logs the sequences it cannot parse
  const session = { term, title: '' };
  term.onTitleChange((t) => { session.title = t; });
  const data = Buffer.from(bytes);
  const write = async (from, to) => {
    if (!chunk) return guardedWrite(term, data.subarray(from, to));
    let start = from;
    for (let at = from + chunk; at < to; at += chunk) {
      const cut = Math.max(utf8Cut(data, at), start);
      if (cut > start) term.write(data.subarray(start, cut));
      start = cut;
    }
    return guardedWrite(term, data.subarray(start, to));
  };
  let at = 0;
  for (const r of resizes) {
    if (r.at === undefined) continue;
    if (r.at > at) await write(at, r.at);
    at = Math.max(at, r.at);
    term.resize(r.cols, r.rows);
  }
  if (at < data.length) await write(at, data.length);
  for (const r of resizes) if (r.at === undefined) term.resize(r.cols, r.rows);
  session.state = () => readXterm(term, session.title);
  return session;
}

export async function xtermState(bytes, opts) {
  const session = await xtermTerminal(bytes, opts);
  try {
    return session.state();
  } finally {
    session.term.dispose();
  }
}

// --- comparing ---------------------------------------------------------------------------

export function cellKey(c) {
  return `${JSON.stringify(c.chars)} w${c.width} fg=${c.fg} bg=${c.bg} [${c.flags}] ul=${c.underline}` +
    `${c.ul_color ? `/${c.ul_color}` : ''}${c.link ? ` link=${c.link}` : ''}`;
}

// The engine's scrollback rows as Screen::scrollback_cells decodes them carry no underline
// colours or links (they are in the rendered rows, and the snapshot carries them: the
// xterm.js-to-xterm.js comparison of the scrollback checks them).
const withoutExtras = (row) => ({ ...row, cells: row.cells.map((c) => ({ ...c, ul_color: '', link: '' })) });

const ERASED_LOOK = (c) => ({ ...c, fg: '', flags: '', underline: 0, ul_color: '', link: '' });
const MAX_CLUSTER = 16;  // code points the engine keeps in one cell (kMaxClusterLength)

// The engine keeps the first 16 code points of a cluster and drops further marks.
function clusterCut(engineCell, xtermCell) {
  const cps = [...xtermCell.chars];
  return cps.length > MAX_CLUSTER && engineCell.chars === cps.slice(0, MAX_CLUSTER).join('') &&
    cellKey({ ...engineCell, chars: '' }) === cellKey({ ...xtermCell, chars: '' });
}

// Differences a snapshot (or the engine's scrollback, which it keeps rendered) is allowed
// to make, `full` being the cell before and `drawn` the cell after.
function drawingTolerates(full, drawn, { lastCol, nextWrapped }) {
  // An erased cell xterm.js filled with the whole pen (a wide character's cleared half)
  // comes back with only its background.
  if (full.chars === '' && full.width === 1 && cellKey(ERASED_LOOK(full)) === cellKey(drawn)) return true;
  // The last cell of a row the next row wraps from, drawn as a space to reach the margin.
  if (lastCol && nextWrapped && full.chars === '' && full.width === 1 && drawn.chars === ' ' &&
      (cellKey({ ...ERASED_LOOK(full), chars: ' ' }) === cellKey(drawn) ||
       cellKey({ ...ERASED_LOOK({ ...full, bg: '' }), chars: ' ' }) === cellKey(drawn)))
    return true;
  return false;
}

// Compares rows cell by cell. `full` is the side that holds cells as drawn by the stream,
// `drawn` the side that may have been through a rendering (tolerant: true); `engineSide`
// says which of the two is the engine (for the cluster cut).
function compareRows(label, full, drawn, diffs, { tolerant, engineSide, nextWrappedAfter = false, limit }) {
  if (full.length !== drawn.length) {
    diffs.push(`${label}: ${full.length} rows vs ${drawn.length}`);
    return;
  }
  for (let y = 0; y < full.length; y++) {
    const e = full[y];
    const a = drawn[y];
    // The oldest scrollback row continuing a row no longer kept cannot be drawn as such.
    const unreachable = y === 0 && label.startsWith('scrollback');
    if (e.wrapped !== a.wrapped && !unreachable) diffs.push(`${label} row ${y}: wrapped ${e.wrapped} vs ${a.wrapped}`);
    const nextWrapped = y + 1 < full.length ? full[y + 1].wrapped : nextWrappedAfter;
    const n = Math.max(e.cells.length, a.cells.length);
    for (let x = 0; x < n; x++) {
      const ec = e.cells[x];
      const ac = a.cells[x];
      if (!ec || !ac) {
        diffs.push(`${label} row ${y} col ${x}: missing cell`);
        continue;
      }
      const ek = cellKey(ec);
      const ak = cellKey(ac);
      if (ek === ak) continue;
      // xterm.js 6 forgets a link once every line it was first drawn on is gone, although
      // cells elsewhere still carry it; the engine keeps the link on its cells.
      if ((ec.link === '(gone)' || ac.link === '(gone)') &&
          cellKey({ ...ec, link: '' }) === cellKey({ ...ac, link: '' })) continue;
      if (engineSide === 'full' ? clusterCut(ec, ac) : clusterCut(ac, ec)) continue;
      if (tolerant && drawingTolerates(ec, ac, { lastCol: x === e.cells.length - 1, nextWrapped })) continue;
      diffs.push(`${label} row ${y} col ${x}: ${ek}  vs  ${ak}`);
      if (diffs.length >= limit) return;
    }
    if (diffs.length >= limit) return;
  }
}

// Differences between the engine's state and another's (xterm.js fed the same stream,
// or fed the engine's snapshot, or the engine's replica fed it), each a line "what:
// engine vs other". With `snapshot` the other side was drawn from the snapshot and may
// differ as a drawing may (see drawingTolerates). The engine keeps its scrollback
// rendered, so its scrollback rows are always compared that way. xterm.js keeps
// `scrollbackLimit` lines above the screen (the page's 2000); the engine may keep more
// (its bound is in bytes), so only its newest that many count.
export function compareStates(engine, other, { snapshot = false, scrollback = true, limit = 40,
  scrollbackLimit = Infinity, reflowed = false } = {}) {
  const diffs = compareTops(engine, other, { reflowed });
  compareRows('screen', engine.screen, other.screen, diffs, { tolerant: snapshot, engineSide: 'full', limit });
  if (scrollback) {
    let mine = engine.scrollback;
    if (mine.length > scrollbackLimit) mine = mine.slice(-scrollbackLimit);
    if (mine.length !== other.scrollback.length)
      diffs.push(`scrollback: ${mine.length} lines vs ${other.scrollback.length}`);
    const n = Math.min(mine.length, other.scrollback.length);
    const a = mine.slice(mine.length - n).map(withoutExtras);
    const b = other.scrollback.slice(other.scrollback.length - n).map(withoutExtras);
    const nextWrappedAfter = engine.screen[0]?.wrapped ?? false;
    if (snapshot) {
      compareRows('scrollback (no links)', a, b, diffs, { tolerant: true, engineSide: 'full', nextWrappedAfter, limit });
    } else {
      // Here the other side holds the cells as drawn and the engine's are the rendering.
      compareRows('scrollback (xterm vs engine, no links)', b, a, diffs,
        { tolerant: true, engineSide: 'drawn', nextWrappedAfter, limit });
    }
  }
  return diffs;
}

function sanitizeTitle(title) {
  const kept = [...Buffer.from(title ?? '', 'utf8')].filter((c) => c >= 0x20 && c !== 0x7f);
  return Buffer.from(kept.slice(0, 256)).toString('utf8');
}

// Size, cursor, screen, modes and title.
function compareTops(a, b, { reflowed = false } = {}) {
  const diffs = [];
  const eq = (what, x, y) => {
    if (x && typeof x === 'object') {
      for (const key of Object.keys(x)) eq(`${what}.${key}`, x[key], y?.[key]);
    } else if (x !== y) {
      diffs.push(`${what}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
    }
  };
  eq('size', { cols: a.cols, rows: a.rows }, { cols: b.cols, rows: b.rows });
  // After a width change the engine keeps the cursor on its character; xterm.js clamps
  // it to the new width and leaves it there (docs/engine.md).
  eq('cursor', reflowed ? { ...a.cursor, x: 0, y: 0 } : a.cursor, reflowed ? { ...b.cursor, x: 0, y: 0 } : b.cursor);
  eq('alternate screen', a.alternate_screen, b.alternate_screen);
  eq('modes', a.modes, b.modes);
  // The engine keeps titles printable and at most 256 bytes (they name tabs and reach
  // programs through the API); xterm.js keeps them whole.
  eq('title', sanitizeTitle(a.title), sanitizeTitle(b.title));
  return diffs;
}

// xterm.js fed a stream against xterm.js fed the engine's snapshot of it (then, for
// both, the same further bytes): everything, links in the scrollback included.
export function compareXterms(direct, fromSnapshot, { limit = 40 } = {}) {
  const diffs = compareTops(direct, fromSnapshot);
  compareRows('screen', direct.screen, fromSnapshot.screen, diffs, { tolerant: true, engineSide: 'drawn', limit });
  diffs.push(...compareScrollback(direct, fromSnapshot, { limit }));
  return diffs;
}

// The scrollback of xterm.js fed a stream against that of xterm.js fed the engine's
// snapshot of it, links and underline colours included.
export function compareScrollback(direct, fromSnapshot, { limit = 40 } = {}) {
  const diffs = [];
  const a = direct.scrollback;
  const b = fromSnapshot.scrollback;
  if (a.length !== b.length) diffs.push(`scrollback: ${a.length} lines vs ${b.length}`);
  const n = Math.min(a.length, b.length);
  compareRows('scrollback (xterm vs xterm from snapshot)', a.slice(a.length - n), b.slice(b.length - n), diffs,
    { tolerant: true, engineSide: 'drawn', nextWrappedAfter: direct.screen[0]?.wrapped ?? false, limit });
  return diffs;
}

// --- streams -----------------------------------------------------------------------------

// Bytes written after a stream and after its snapshot alike: they show what the screen
// does next, so the state a snapshot must carry beyond the cells (the pen and link, the
// saved cursors, charsets and shifts, tab stops, scroll region, origin and wrap modes).
export const AFTER = [
  'Pp',                 // the pen, G0/GL, and the pending wrap if any
  '\x1b8R',             // the saved cursor: position, pen, charsets
  '\x0eq\x0fq',         // G1, back to G0
  '\r\n\t\tT\t\tU',     // tab stops
  '\x1b[99B\n\nB',      // the bottom of the scroll region
  '\x1b[HH\x1bMM',      // home (origin mode) and a reverse index at the top
  '\x1b[?1049lL',       // back to the primary screen and its saved cursor
  '\x1b8U',
  '\x1b[?1047lV\r\nW',
].join('');

// A small fast seeded generator (mulberry32).
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  return { next, int, pick, chance: (p) => next() < p };
}

const TEXT_PIECES = [
  'hello', 'world', 'The quick brown fox', '0123456789', '[]{}|\\~`^_#@', ' ', '  ', 'x',
  'é', 'ñ', 'ß', 'Ω', 'Ж', 'e\u0301', 'a\u0308\u0304', '\u0301', '\u200b', '\u00ad',
  '中', '文字', '한국어', '\u1100\u1161\u11a8', 'ｆｕｌｌ', 'あいう', '\u{20000}',
  '😀', '👍🏽', '❤️', '☺️', '☺', '✌\ufe0f', '👨‍👩‍👧', '🇫🇷', '#️⃣', '\ufe0f', '\u200d',
  'ก\u0e34', '\u05e9\u05c1', 'x\ufe0e', '\u0300\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308\u0309\u030a\u030b\u030c\u030d\u030e\u030f\u0310\u0311',
  '─│┌┐└┘', '\u2028', '\ufffd', 'q`afjklmnx',
];

// One random piece of a terminal stream: printable text, controls, escape sequences of
// every feature the engine models (and a few it only answers).
export function randomPiece(r, { cols, rows }) {
  const n = () => r.pick(['', '0', '1', '2', '3', String(r.int(1, Math.max(cols, rows) + 3)), '999']);
  const row = () => String(r.int(0, rows + 2));
  const col = () => String(r.int(0, cols + 2));
  const color = () => r.pick([
    () => String(r.pick([30, 31, 37, 39, 40, 42, 47, 49, 90, 95, 97, 100, 103, 107])),
    () => `38;5;${r.int(0, 255)}`, () => `48;5;${r.int(0, 255)}`,
    () => `38;2;${r.int(0, 255)};${r.int(0, 255)};${r.int(0, 255)}`,
    () => `48:2::${r.int(0, 255)}:${r.int(0, 255)}:${r.int(0, 255)}`,
    () => `38:5:${r.int(0, 255)}`, () => `58;5;${r.int(0, 255)}`, () => `58:2::1:2:3`,
    () => `58;2;${r.int(0, 255)};9;9`, () => '59',
  ])();
  const sgr = () => r.pick([
    '0', '1', '2', '3', '4', '4:0', '4:1', '4:2', '4:3', '4:4', '4:5', '5', '7', '8', '9', '21', '22',
    '23', '24', '25', '27', '28', '29', '53', '55', '', color, color, color,
  ]);
  const sgrSeq = () => {
    const parts = [];
    for (let i = r.int(1, 4); i > 0; i--) {
      const p = sgr();
      parts.push(typeof p === 'function' ? p() : p);
    }
    return `\x1b[${parts.join(';')}m`;
  };
  const text = () => {
    let s = '';
    for (let i = r.int(1, 6); i > 0; i--) s += r.pick(TEXT_PIECES);
    return s;
  };
  const ascii = () => {
    let s = '';
    for (let i = r.int(1, cols + 5); i > 0; i--) s += String.fromCharCode(r.int(0x21, 0x7e));
    return s;
  };
  const kinds = [
    [12, text], [10, ascii], [8, sgrSeq],
    [6, () => r.pick(['\r', '\n', '\r\n', '\b', '\t', '\x0b', '\x0c', '\x07', '\x0e', '\x0f', '\b\b\b'])],
    [8, () => `\x1b[${n()}${r.pick(['A', 'B', 'C', 'D', 'E', 'F', 'G', '`', 'a', 'd', 'e'])}`],
    [5, () => `\x1b[${row()};${col()}${r.pick(['H', 'f'])}`],
    [5, () => `\x1b[${r.pick(['', '0', '1', '2', '3'])}K`],
    [2, () => `\x1b[?${r.pick(['', '0', '1', '2'])}K`],
    // ED 1 / DECSED 1 in the last column of the bottom row crash xterm.js 6.0.0 while
    // nothing has scrolled off (it clears the wrap of a line that does not exist): a
    // carriage return first.
    [5, () => {
      const p = r.pick(['', '0', '1', '2', '3']);
      return `${p === '1' ? '\r' : ''}\x1b[${p}J`;
    }],
    [2, () => {
      const p = r.pick(['', '0', '1', '2']);
      return `${p === '1' ? '\r' : ''}\x1b[?${p}J`;
    }],
    [2, () => `\x1b[${r.pick(['0', '1', '2'])}"q`],
    [5, () => `\x1b[${n()}${r.pick(['X', '@', 'P', 'L', 'M', 'S', 'T', 'b', 'I', 'Z'])}`],
    [1, () => `\x1b[${n()} ${r.pick(['@', 'A'])}`],
    [1, () => `\x1b[${n()}'${r.pick(['}', '~'])}`],
    [3, () => r.chance(0.3) ? '\x1b[r' : `\x1b[${r.int(1, rows)};${r.int(1, rows + 1)}r`],
    [3, () => `\x1b[?${r.pick(['6', '7', '6', '7', '45'])}${r.pick(['h', 'l'])}`],
    [2, () => `\x1b[${r.pick(['4', '20'])}${r.pick(['h', 'l', 'l'])}`],
    [3, () => r.pick(['\x1bH', '\x1b[g', '\x1b[0g', '\x1b[3g', '\x1b[2I', '\x1b[Z'])],
    [4, () => r.pick(['\x1b7', '\x1b8', '\x1b[s', '\x1b[u'])],
    [3, () => `\x1b[?${r.pick(['47', '1047', '1048', '1049'])}${r.pick(['h', 'l'])}`],
    [3, () => r.pick(['\x1b(0', '\x1b(B', '\x1b(A', '\x1b)0', '\x1b)B', '\x1b(K', '\x1b*0', '\x1b+0',
      '\x1bn', '\x1bo', '\x1b~', '\x1b}', '\x1b|', '\x0e', '\x0f', '\x1b%G', '\x1b[?2h'])],
    [3, () => r.pick(['\x1bD', '\x1bE', '\x1bM', '\x1bM\x1bM', '\x1b#8', '\x1b=', '\x1b>'])],
    [2, () => `\x1b]${r.pick(['0', '2', '1'])};${r.pick(['title', 'tïtle ✓', '', 'a b'])}${r.pick(['\x07', '\x1b\\'])}`],
    [3, () => r.pick([
      `\x1b]8;;http://example.com/${r.int(0, 3)}\x1b\\`, `\x1b]8;id=${r.int(0, 2)};file:///tmp/x\x07`,
      '\x1b]8;;\x1b\\', '\x1b]8;;\x07'])],
    [3, () => `\x1b[?${r.pick(['1', '66', '2004', '1004', '1000', '1002', '1003', '9', '1006', '1016', '25', '2026'])}${r.pick(['h', 'l'])}`],
    [1, () => `\x1b[${r.int(0, 7)} q`],
    [1, () => r.pick(['\x1b[c', '\x1b[>c', '\x1b[5n', '\x1b[6n', '\x1b[?6n', '\x1b[?1$p', '\x1bP$qm\x1b\\'])],
    [1, () => r.pick(['\x1b[!p', '\x1bc'])],
  ];
  const total = kinds.reduce((s, [w]) => s + w, 0);
  let pickAt = r.next() * total;
  for (const [w, make] of kinds) {
    pickAt -= w;
    if (pickAt < 0) return make();
  }
  return kinds[0][1]();
}

// A seeded random stream: its size, pieces, how the engine is fed and whether it is
// resized on the way.
export function randomStream(seed) {
  const r = rng(seed * 7919 + 17);
  const cols = r.pick([5, 10, 17, 23, 40, 80]);
  const rows = r.pick([2, 3, 5, 8, 12, 24]);
  const pieces = [];
  let size = 0;
  const target = r.int(1500, 4000);
  while (size < target) {
    const p = randomPiece(r, { cols, rows });
    pieces.push(p);
    size += Buffer.byteLength(p);
  }
  const chunk = r.pick([0, 0, 1, 3, 16, 64]);
  // One in five is resized on the way (the primary screen reflows).
  const resizes = [];
  if (r.chance(0.2)) {
    resizes.push({ cols: r.pick([5, 9, 17, 30, 80]), rows: r.pick([2, 4, 9, 24]),
      at: r.chance(0.5) ? undefined : r.int(0, size) });
  }
  return { seed, cols, rows, pieces, chunk, resizes };
}
