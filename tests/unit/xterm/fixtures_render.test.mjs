// Renders every screen fixture (tests/fixtures/screens/manifest.json) with the page's own
// emulator, @xterm/headless + Unicode 11 widths, and checks anchors worked out by hand
// from each stream (see tests/fixtures/make_handmade.py) or observed on the captured agent
// TUIs. These pin what the browser shows for each fixture; the server's snapshot fidelity
// tests compare their libvterm screens against the same renderings.
//
// Rows and columns are 0-based. Note on the cursor: in the pending-wrap state (a character
// was just written in the last column) xterm.js reports the cursor column as `cols`, one
// past the last column; libvterm keeps it on the last column with a phantom flag.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { renderWithXterm } from '../../support/xterm_screen.mjs';

const screensDir = new URL('../../fixtures/screens/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', screensDir), 'utf8'));

function bytesOf(name, { probe = false } = {}) {
  const entry = manifest[name];
  const bytes = readFileSync(new URL(entry.file, screensDir));
  return probe ? Buffer.concat([bytes, Buffer.from(entry.probe, 'utf8')]) : bytes;
}

async function render(name, opts = {}) {
  const { cols, rows } = manifest[name];
  return renderWithXterm(bytesOf(name, opts), { cols, rows, keep: opts.keep });
}

// Renders with the Terminal kept, runs `fn(screen, term)`, then disposes it.
async function withTerm(name, fn, opts = {}) {
  const screen = await render(name, { ...opts, keep: true });
  try { return await fn(screen, screen.term); } finally { screen.term.dispose(); }
}

function cell(term, row, col) {
  const buf = term.buffer.active;
  return buf.getLine(buf.baseY + row).getCell(col);
}

// Column of the first cell on `row` holding exactly `chars`.
function colOf(term, row, chars) {
  for (let x = 0; x < term.cols; x++) if (cell(term, row, x).getChars() === chars) return x;
  return -1;
}

const rgb = (r, g, b) => (r << 16) | (g << 8) | b;

// --- every fixture --------------------------------------------------------------------

test('the manifest lists every fixture file, and each is present and under 512 KiB', () => {
  const listed = new Set(Object.values(manifest).map((e) => e.file));
  for (const dir of ['handmade', 'agents']) {
    for (const f of readdirSync(new URL(`${dir}/`, screensDir)).filter((f) => f.endsWith('.bin')))
      assert.ok(listed.has(`${dir}/${f}`), `${dir}/${f} is not in manifest.json`);
  }
  for (const [name, e] of Object.entries(manifest)) {
    assert.equal(e.file.replace(/^.*\//, '').replace(/\.bin$/, ''), name, `${name}: name is the file stem`);
    assert.ok(Number.isInteger(e.cols) && Number.isInteger(e.rows), `${name}: cols/rows`);
    assert.ok(typeof e.description === 'string' && e.description.length > 10, `${name}: description`);
    const size = statSync(new URL(e.file, screensDir)).size;
    assert.ok(size > 0 && size <= 512 * 1024, `${name}: ${size} bytes`);
    assert.equal(typeof e.probe === 'string', typeof e.probeNote === 'string', `${name}: probe and probeNote go together`);
  }
});

for (const name of Object.keys(manifest)) {
  test(`${name}: renders a non-empty screen with the cursor in bounds`, async () => {
    const { cols, rows } = manifest[name];
    const s = await render(name);
    assert.equal(s.lines.length, rows);
    assert.ok(s.lines.some((l) => l.trim() !== ''), 'some visible text');
    for (const l of s.lines) assert.ok(l.length <= cols * 2, 'no row longer than its cells allow');
    assert.ok(s.cursor.row >= 0 && s.cursor.row < rows, `cursor row ${s.cursor.row}`);
    assert.ok(s.cursor.col >= 0 && s.cursor.col <= cols, `cursor col ${s.cursor.col}`);
    assert.ok(name in ANCHORS, `${name} has anchors in this file`);
  });
  if (manifest[name].probe) {
    test(`${name}: the probe behaves as its note says`, async () => {
      assert.ok(name in PROBES, `${name} has probe expectations in this file`);
      await PROBES[name]();
    });
  }
  test(`${name}: anchors`, async () => {
    assert.ok(name in ANCHORS, `${name} has anchors in this file`);
    await ANCHORS[name]();
  });
}

// --- per-fixture anchors --------------------------------------------------------------

const ANCHORS = {
  'sgr-colors': () => withTerm('sgr-colors', (s, term) => {
    assert.equal(s.lines[0], 'SGR attributes:');
    assert.equal(s.lines[1], 'bold dim italic underline double curly blink inverse hidden strike');
    assert.equal(s.lines[2], '30 31 32 33 34 35 36 37 90 91 92 93 94 95 96 97');
    assert.equal(s.lines[3], '40 41 42 43 44 45 46 47 100 101 102 103 104 105 106 107');
    for (const r of [4, 5, 6, 7]) assert.equal(s.lines[r], 'x'.repeat(64));
    for (const r of [8, 9, 10, 11]) assert.equal(s.lines[r], 'o'.repeat(64));
    assert.equal(s.lines[12], 'T'.repeat(80));
    assert.equal(s.lines[13], 'truecolor background');
    assert.equal(s.lines[14], 'all at once');
    assert.equal(s.lines[15], 'colon-rgb colon-256');
    assert.equal(s.lines[16], 'bce:');
    assert.equal(s.lines[17], 'pen left bold green here:');
    assert.deepEqual(s.cursor, { row: 17, col: 25 });
    // attributes on row 1: "bold" at 0, "dim" at 5, "italic" at 9, "underline" at 16,
    // "blink" at 43, "inverse" at 49, "hidden" at 57, "strike" at 64
    assert.ok(cell(term, 1, 0).isBold());
    assert.ok(!cell(term, 1, 4).isBold());
    assert.ok(cell(term, 1, 5).isDim());
    assert.ok(cell(term, 1, 9).isItalic());
    assert.ok(cell(term, 1, 16).isUnderline());
    assert.ok(cell(term, 1, 43).isBlink());
    assert.ok(cell(term, 1, 49).isInverse());
    assert.ok(cell(term, 1, 57).isInvisible());
    assert.ok(cell(term, 1, 64).isStrikethrough());
    // 16 colours: "31" at col 3 is palette 1; "91" at col 27 is palette 9; "41" bg at 3
    assert.ok(cell(term, 2, 3).isFgPalette());
    assert.equal(cell(term, 2, 3).getFgColor(), 1);
    assert.equal(cell(term, 2, 27).getFgColor(), 9);
    assert.equal(cell(term, 3, 3).getBgColor(), 1);
    assert.equal(cell(term, 3, 28).getBgColor(), 9); // "101" starts at col 28
    // 256 colours: row 4 col n is fg n, row 7 col 63 is fg 255, row 10 col 5 is bg 133
    assert.equal(cell(term, 4, 17).getFgColor(), 17);
    assert.equal(cell(term, 7, 63).getFgColor(), 255);
    assert.ok(cell(term, 10, 5).isBgPalette());
    assert.equal(cell(term, 10, 5).getBgColor(), 133);
    // truecolor: row 12 col i is (3i, 255-3i, 128); row 13 col i bg (20+10i, 40, 200-8i)
    assert.ok(cell(term, 12, 10).isFgRGB());
    assert.equal(cell(term, 12, 10).getFgColor(), rgb(30, 225, 128));
    assert.ok(cell(term, 13, 2).isBgRGB());
    assert.equal(cell(term, 13, 2).getBgColor(), rgb(40, 40, 184));
    // all at once: bold italic underline inverse strike, fg #ff8000, bg 17
    const all = cell(term, 14, 0);
    assert.ok(all.isBold() && all.isItalic() && all.isUnderline() && all.isInverse() && all.isStrikethrough());
    assert.equal(all.getFgColor(), rgb(255, 128, 0));
    assert.equal(all.getBgColor(), 17);
    // colon forms
    assert.equal(cell(term, 15, 0).getFgColor(), rgb(10, 20, 30));
    assert.equal(cell(term, 15, 10).getFgColor(), 208);
    // background colour erase: the rest of row 16 is blue (palette 4) without text
    assert.equal(cell(term, 16, 4).getChars(), '');
    assert.equal(cell(term, 16, 79).getBgColor(), 4);
    // the pen
    assert.ok(cell(term, 17, 0).isBold());
    assert.equal(cell(term, 17, 0).getFgColor(), 2);
  }),

  'wide-chars': () => withTerm('wide-chars', (s, term) => {
    assert.equal(s.lines[0], 'CJK: 漢字テスト|');
    assert.equal(colOf(term, 0, '|'), 15);
    assert.equal(cell(term, 0, 5).getWidth(), 2);
    assert.equal(cell(term, 0, 6).getWidth(), 0);
    assert.equal(colOf(term, 1, '|'), 11);             // emoji: 2 cells each
    assert.equal(colOf(term, 2, '|'), 11);             // ❤️ ☺️ ✔️: VS16 adds nothing in Unicode 11
    assert.equal(cell(term, 2, 6).getChars(), '\u2764\ufe0f');
    assert.equal(colOf(term, 3, '|'), 11);             // ZWJ family: three wide emoji
    assert.equal(colOf(term, 4, '|'), 10);             // 👍 + skin tone: 2 + 2
    assert.equal(colOf(term, 5, '|'), 8);              // regional indicators: 1 each
    assert.equal(colOf(term, 6, '|'), 17);             // fullwidth Latin
    assert.equal(colOf(term, 7, '|'), 14);             // Hangul syllables
    assert.equal(s.lines[8], 'edge:');                 // 中 did not fit in the last column
    assert.equal(s.lines[9], '中|');
    assert.equal(s.lines[10], 'A yDEF');               // 漢 overwritten by its right half
    assert.equal(s.lines[11], 'wide 漢');
    assert.deepEqual(s.cursor, { row: 11, col: 7 });
  }),

  combining: () => withTerm('combining', (s, term) => {
    assert.equal(s.lines[0], 'e\u0301 a\u0308 n\u0303|');
    assert.equal(colOf(term, 0, '|'), 5);
    assert.equal(cell(term, 0, 0).getChars(), 'e\u0301');
    assert.equal(colOf(term, 1, '|'), 8);
    assert.equal(cell(term, 1, 7).getChars(), 'x\u0301\u0302\u0303\u0304');
    assert.equal(colOf(term, 2, '|'), 8);              // Thai: 2 cells
    assert.equal(colOf(term, 3, '|'), 12);             // Hebrew: 4 cells
    assert.equal(colOf(term, 4, '|'), 13);             // mark on a wide char
    assert.equal(cell(term, 4, 11).getChars(), '漢\u0301');
    assert.equal(colOf(term, 5, '|'), 7);              // VS15
    assert.equal(colOf(term, 6, '|'), 8);              // zero-width space joins its base
    assert.equal(colOf(term, 7, '|'), 8);              // jamo: one wide cell
    assert.deepEqual(s.cursor, { row: 7, col: 9 });
  }),

  'alt-screen': () => withTerm('alt-screen', (s, term) => {
    assert.equal(s.altScreen, true);
    assert.equal(s.extra.cursorHidden, true);
    assert.equal(s.lines[2], `          ┌${'─'.repeat(29)}┐`);
    assert.equal(s.lines[4], `          │ alt screen app${' '.repeat(14)}│`);
    assert.equal(s.lines[6], `          └${'─'.repeat(29)}┘`);
    assert.equal(s.lines[23], ' status: ok');
    assert.ok(cell(term, 23, 79).isInverse(), 'the status line fills the last row');
    assert.deepEqual(s.cursor, { row: 3, col: 11 });
    // the normal screen is kept underneath
    const normal = term.buffer.normal;
    assert.equal(normal.getLine(0).translateToString(true), 'main screen line 1');
    assert.equal(normal.getLine(4).translateToString(true), 'main screen line 5');
    assert.deepEqual(s.scrollbackLines, []);
  }),

  'scroll-region': async () => {
    const s = await render('scroll-region');
    const expected = ['row 01', 'row 02', 'row 03', 'row 04',
      'row 09', 'row 10', 'row 11', 'row 12', 'row 13', 'row 14', 'row 15', 'new A', 'new B', '', 'in region',
      'row 16', 'row 17', 'row 18', 'row 19', 'row 20', 'row 21', 'row 22', 'row 23', 'row 24'];
    assert.deepEqual(s.lines, expected);
    assert.deepEqual(s.cursor, { row: 14, col: 9 });
    assert.deepEqual(s.scrollbackLines, [], 'scrolling inside a region adds no scrollback');
  },

  'insert-delete': async () => {
    const s = await render('insert-delete');
    assert.deepEqual(s.lines.slice(0, 12), ['li   ne A', 'ne B', '', '', '     C', 'line E', '   e F', 'line', '', 'ins line I', 'line J', '']);
    assert.equal(s.lines[19], 'bottom');
    assert.deepEqual(s.cursor, { row: 9, col: 4 });
    assert.equal(s.modes.insertMode, false);
  },

  'origin-mode': async () => {
    const s = await render('origin-mode');
    assert.equal(s.lines[4], 'origin home');
    assert.equal(s.lines[6], '    rel 3;5');
    assert.equal(s.lines[19], 'clamped bottom');
    assert.deepEqual(s.cursor, { row: 19, col: 14 });
    assert.equal(s.modes.originMode, true);
  },

  autowrap: () => withTerm('autowrap', (s, term) => {
    assert.equal(s.lines[0], '0123456789'.repeat(8));
    assert.equal(s.lines[1], '0123456789'.repeat(2));
    assert.equal(term.buffer.active.getLine(1).isWrapped, true);
    assert.equal(s.lines[2], 'abcdefghij'.repeat(8));
    assert.equal(s.lines[3], 'after exact fill');   // no blank row after the exact fill
    assert.equal(term.buffer.active.getLine(3).isWrapped, false);
    assert.equal(s.lines[4], 'x'.repeat(78) + 'AL');
    assert.equal(s.lines[6], '='.repeat(80));
    assert.deepEqual(s.cursor, { row: 6, col: 80 }, 'pending wrap: xterm.js reports col = cols');
    assert.equal(s.modes.wraparoundMode, true);
  }),

  tabs: async () => {
    const s = await render('tabs');
    assert.deepEqual(s.lines.slice(0, 4), ['a       b       c', 'x       z       y', ' '.repeat(79) + 'E', 'end']);
    assert.deepEqual(s.cursor, { row: 3, col: 3 });
  },

  'tabstops-custom': async () => {
    const s = await render('tabstops-custom');
    assert.equal(s.lines[0], '    X     Y' + ' '.repeat(68) + 'Z');
    assert.equal(s.lines[1], 'custom stops');
    assert.deepEqual(s.cursor, { row: 1, col: 12 });
  },

  charsets: async () => {
    const s = await render('charsets');
    assert.deepEqual(s.lines.slice(0, 4), ['┌────┐', '│ hi │', '└────┘', 'g1: ▒ ok']);
    assert.deepEqual(s.cursor, { row: 3, col: 8 });
  },

  'cursor-save-restore': () => withTerm('cursor-save-restore', (s, term) => {
    assert.equal(s.lines[0], 'elsewhere in blue');
    assert.equal(s.lines[4], '         red again');
    assert.equal(cell(term, 0, 0).getFgColor(), 4);
    assert.equal(cell(term, 4, 9).getFgColor(), 1, 'DECRC restored the red pen');
    assert.equal(s.lines[11], 'moved on');
    assert.ok(cell(term, 11, 0).isFgDefault());
    assert.deepEqual(s.cursor, { row: 11, col: 8 });
  }),

  title: async () => {
    const s = await render('title');
    assert.equal(s.title, 'wharf \u2713 title');
    assert.equal(s.lines[0], 'title set');
  },

  hyperlink: async () => {
    const s = await render('hyperlink');
    assert.equal(s.lines[0], 'see the docs now');
    assert.deepEqual(s.cursor, { row: 0, col: 16 });
  },

  'modes-input': async () => {
    const s = await render('modes-input');
    assert.equal(s.modes.bracketedPasteMode, true);
    assert.equal(s.modes.applicationCursorKeysMode, true);
    assert.equal(s.modes.applicationKeypadMode, true);
    assert.equal(s.modes.sendFocusMode, true);
    assert.equal(s.modes.mouseTrackingMode, 'none');
  },

  'mouse-1000-sgr': () => mouse('mouse-1000-sgr', 'vt200', 'SGR'),
  'mouse-1002-sgr': () => mouse('mouse-1002-sgr', 'drag', 'SGR'),
  'mouse-1003-sgr': () => mouse('mouse-1003-sgr', 'any', 'SGR'),
  'mouse-1002-default': () => mouse('mouse-1002-default', 'drag', 'DEFAULT'),

  'cursor-style-bar': async () => {
    const s = await render('cursor-style-bar');
    assert.equal(s.extra.cursorStyle, 'bar');
    assert.equal(s.extra.cursorBlink, true);
    assert.equal(s.extra.cursorHidden, false);
    assert.deepEqual(s.cursor, { row: 2, col: 5 });
  },

  'cursor-style-block': async () => {
    const s = await render('cursor-style-block');
    assert.equal(s.extra.cursorStyle, 'block');
    assert.equal(s.extra.cursorBlink, false);
  },

  'reverse-video': async () => {
    // xterm.js 6.0.0 has no DECSCNM: the text is there, the mode is not observable.
    const s = await render('reverse-video');
    assert.equal(s.lines[0], 'reverse video screen');
  },

  'scrollback-long': async () => {
    const s = await render('scrollback-long');
    assert.equal(s.lines[0], 'line 2978');
    assert.equal(s.lines[22], 'line 3000');
    assert.equal(s.lines[23], '');
    assert.deepEqual(s.cursor, { row: 23, col: 0 });
    assert.equal(s.scrollbackLines.length, 2000);
    assert.equal(s.scrollbackLines[0], 'line 0986');
    assert.equal(s.scrollbackLines[1999], 'line 2977');
    assert.equal(s.scrollbackLines[139], 'line 1125 ' + '~'.repeat(70));  // a 100-char line...
    assert.equal(s.scrollbackLines[140], '~'.repeat(20));                 // ...wrapped
    assert.equal(s.scrollbackLines[141], 'line 1126');
  },

  // Captured agents: what the real TUIs showed (see tests/fixtures/screens/agents/README.md).
  'claude-100x30': async () => {
    const s = await render('claude-100x30');
    assert.equal(s.altScreen, false);
    assert.match(s.lines[0], /^╭─── Claude Code v2\.1\.197 ─+╮$/);
    assert.ok(s.lines.some((l) => l.includes('Welcome back!')));
    assert.ok(s.lines.some((l) => l.includes('▐▛███▜▌')), 'logo');
    assert.equal(s.lines[14], '❯\u00a0hello'); // Claude Code puts a no-break space after ❯
    assert.match(s.lines[13], /^─{100}$/);
    assert.deepEqual(s.cursor, { row: 14, col: 7 });
    assert.equal(s.title, '✳ Claude Code');
    assert.equal(s.modes.bracketedPasteMode, true);
    assert.equal(s.extra.cursorHidden, true);
  },

  'claude-slash-100x30': async () => {
    const s = await render('claude-slash-100x30');
    assert.equal(s.altScreen, false);
    assert.equal(s.lines[12], '❯\u00a0/');
    assert.ok(s.lines.some((l) => l.startsWith('/add-dir')));
    assert.ok(s.lines.some((l) => l.startsWith('/clear')));
    assert.equal(s.scrollbackLines.length, 2, 'the inline UI pushed its top rows into scrollback');
    assert.match(s.scrollbackLines[0], /Claude Code v2\.1\.197/);
    assert.deepEqual(s.cursor, { row: 12, col: 3 });
  },

  'codex-100x30': async () => {
    const s = await render('codex-100x30');
    assert.equal(s.altScreen, true);
    assert.equal(s.lines[1], '  >_ OpenAI Codex (v0.171.0)');
    assert.equal(s.lines[26], '› hello');
    assert.match(s.lines[28], /default · .*\/project$/);
    assert.deepEqual(s.cursor, { row: 26, col: 7 });
    assert.equal(s.modes.mouseTrackingMode, 'any');
    assert.equal(s.extra.mouseEncoding, 'SGR');
  },

  'codex-login-100x30': async () => {
    const s = await render('codex-login-100x30');
    assert.equal(s.altScreen, true);
    assert.equal(s.lines[0], "  Welcome to Codex, OpenAI's command-line coding agent");
    assert.equal(s.lines[4], '  1. Sign in with ChatGPT');
    assert.equal(s.lines[7], '> 2. Sign in with Device Code');
    assert.equal(s.lines[13], '  Press enter to continue');
  },

  'opencode-100x30': async () => {
    const s = await render('opencode-100x30');
    assert.equal(s.altScreen, true);
    assert.ok(s.lines[9].includes('█▀▀█ █▀▀█ █▀▀█ █▀▀▄'), 'logo');
    assert.equal(s.lines[15], '             ┃  hello');
    assert.ok(s.lines[19].endsWith('tab agents  ctrl+p commands'));
    assert.ok(s.lines[28].endsWith('1.18.33'));
    assert.deepEqual(s.cursor, { row: 15, col: 21 });
    assert.equal(s.title, 'OpenCode');
    assert.equal(s.modes.mouseTrackingMode, 'any');
  },

  'opencode-commands-100x30': async () => {
    const s = await render('opencode-commands-100x30');
    assert.equal(s.altScreen, true);
    assert.match(s.lines[9], /^ +Commands +esc$/);
    assert.ok(s.lines.some((l) => l.includes('Switch model')));
    assert.deepEqual(s.cursor, { row: 11, col: 24 });
  },
};

async function mouse(name, tracking, encoding) {
  const s = await render(name);
  assert.equal(s.modes.mouseTrackingMode, tracking);
  assert.equal(s.extra.mouseEncoding, encoding);
}

// --- probes: the hidden state each hand-made stream leaves --------------------------

const PROBES = {
  'sgr-colors': () => withTerm('sgr-colors', (s, term) => {
    assert.equal(s.lines[17], 'pen left bold green here:X');
    assert.ok(cell(term, 17, 25).isBold());
    assert.equal(cell(term, 17, 25).getFgColor(), 2);
  }, { probe: true }),

  'alt-screen': async () => {
    const s = await render('alt-screen', { probe: true });
    assert.equal(s.altScreen, false);
    assert.deepEqual(s.lines.slice(0, 6), ['main screen line 1', 'main screen line 2', 'main screen line 3', 'main screen line 4', 'main screen line 5', '']);
    assert.deepEqual(s.cursor, { row: 5, col: 0 });
    assert.equal(s.extra.cursorHidden, false);
  },

  'scroll-region': async () => {
    const s = await render('scroll-region', { probe: true });
    assert.equal(s.lines[4], 'row 10');
    assert.equal(s.lines[13], 'in region');
    assert.equal(s.lines[14], 'P');
    assert.equal(s.lines[15], 'row 16');
    assert.deepEqual(s.cursor, { row: 14, col: 1 });
  },

  'origin-mode': async () => {
    const s = await render('origin-mode', { probe: true });
    assert.equal(s.lines[4], 'Prigin home');
    assert.deepEqual(s.cursor, { row: 4, col: 1 });
  },

  autowrap: async () => {
    const s = await render('autowrap', { probe: true });
    assert.equal(s.lines[6], '='.repeat(80));
    assert.equal(s.lines[7], 'W');
    assert.deepEqual(s.cursor, { row: 7, col: 1 });
  },

  'tabstops-custom': async () => {
    const s = await render('tabstops-custom', { probe: true });
    assert.equal(s.lines[4], '    P     Q');
  },

  'cursor-save-restore': () => withTerm('cursor-save-restore', (s, term) => {
    assert.equal(s.lines[7], ' '.repeat(19) + 'R');
    assert.equal(cell(term, 7, 19).getFgColor(), 1);
    assert.deepEqual(s.cursor, { row: 7, col: 20 });
  }, { probe: true }),
};
