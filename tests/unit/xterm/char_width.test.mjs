// The server's character widths (core::char_width, printed for every code point by
// wharf_char_widths_tool) must be the page's: the Unicode 11 addon's wcwidth, asked both
// through a headless Terminal set up as the page sets up its own and from the very file the
// page serves (lib/addon-unicode11.mjs). One code point counted differently is a line whose
// every later character sits in another column on the page than in the server's screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Unicode11Addon as PageUnicode11Addon } from '@xterm/addon-unicode11/lib/addon-unicode11.mjs';
import { createXterm } from '../../support/xterm_screen.mjs';

const tool = process.env.WHARF_CHAR_WIDTHS_TOOL ??
  new URL('../../../build/tests/wharf_char_widths_tool', import.meta.url).pathname;
const lastCodePoint = 0x10ffff;
const hex = (cp) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

// The tool's runs ("FIRST LAST WIDTH", hex), expanded to one width per code point.
function serverWidths() {
  const widths = new Int8Array(lastCodePoint + 1).fill(-1);
  let next = 0;
  for (const line of execFileSync(tool, { encoding: 'utf8' }).trim().split('\n')) {
    const [first, last, width] = line.split(' ').map((field, i) => parseInt(field, i < 2 ? 16 : 10));
    assert.equal(first, next, `the runs must follow each other: ${line}`);
    assert.ok(last >= first && last <= lastCodePoint && [0, 1, 2].includes(width), `bad run: ${line}`);
    widths.fill(width, first, last + 1);
    next = last + 1;
  }
  assert.equal(next, lastCodePoint + 1, 'the runs must end at U+10FFFF');
  return widths;
}

// Every code point where `widthOf` disagrees with the server, at most `limit` of them.
function differences(server, widthOf, limit = 20) {
  const found = [];
  for (let cp = 0; cp <= lastCodePoint && found.length < limit; cp++) {
    const page = widthOf(cp);
    if (page !== server[cp]) found.push(`${hex(cp)}: server ${server[cp]}, page ${page}`);
  }
  return found;
}

const server = serverWidths();

test('every code point is as wide on the server as in the headless Terminal the tests use', () => {
  const term = createXterm({ cols: 80, rows: 24 });
  try {
    const unicode = term._core.unicodeService;
    assert.equal(unicode.activeVersion, '11');
    assert.deepEqual(differences(server, (cp) => unicode.wcwidth(cp)), []);
  } finally {
    term.dispose();
  }
});

test('every code point is as wide on the server as in the addon file the page serves', () => {
  let provider;
  new PageUnicode11Addon().activate({ unicode: { register: (p) => { provider = p; } } });
  assert.equal(provider?.version, '11');
  assert.deepEqual(differences(server, (cp) => provider.wcwidth(cp)), []);
});

// The addon's charProperties, which the Terminal's print path asks, adds nothing to a code
// point's own width: starting a cell (no preceding character to join), its width is
// wcwidth's and its grapheme state is 0. Only joining a 0-width character to the cell
// before it differs, and that is the screen model's to do, not char_width's.
test('a character starting a cell takes the width wcwidth gives it', () => {
  const term = createXterm({ cols: 80, rows: 24 });
  try {
    const unicode = term._core.unicodeService;
    const properties = (cp) => {
      const value = unicode.charProperties(cp, 0);
      return { width: (value >> 1) & 3, joins: (value & 1) === 1, state: value >> 3 };
    };
    assert.deepEqual(differences(server, (cp) => {
      const { width, joins, state } = properties(cp);
      return joins || state !== 0 ? `joins ${joins}, state ${state}` : width;
    }), []);
  } finally {
    term.dispose();
  }
});
