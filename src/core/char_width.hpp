// How many columns a character takes on the screen, exactly as the page counts them: the
// page's xterm.js asks the Unicode 11 addon (@xterm/addon-unicode11, its wcwidth tables),
// and the server's screen model must put every character in the same column as the page
// does, or a window that attaches to a snapshot sees text shifted from where the program
// drew it. So this is not Unicode's own East Asian Width nor glibc's wcwidth but a copy of
// the addon's tables (the ranges in char_width.cpp are generated from the addon by
// tests/tools/char_width_ranges.mjs, and unit.xterm_agreement checks every code point).
//
// The width is the code point's alone; what the page does with a sequence is the caller's.
// There a 0-width character joins the cell before it, which keeps its width (so U+FE0F does
// not widen a text-style emoji, and each emoji around a U+200D keeps its own two columns).
// With nothing to join (first after a control, an escape sequence or another such lone
// 0-width character) xterm.js puts it in a cell of its own and moves one column on.
#pragma once

namespace wharf::core {

// 0, 1 or 2 columns, as the addon's wcwidth says, for every value of `cp`:
//  - 1 for printable ASCII, and for anything the tables do not list: unassigned code
//    points, private use, lone surrogates, values past U+10FFFF;
//  - 2 for wide and fullwidth characters (CJK, Hangul syllables, the emoji Unicode 11
//    shows as emoji by default, planes 2 and 3);
//  - 0 for combining marks, invisible format characters (ZWSP, ZWNJ, ZWJ, the bidi marks,
//    U+FEFF, tags), variation selectors (U+FE00..U+FE0F, U+E0100..U+E01EF) and Hangul
//    medial and final jamo (U+1160..U+11FF);
//  - 0 for the C0 controls (U+0000..U+001F), DEL and the C1 controls (U+007F..U+009F),
//    because the addon's table says 0 for them. xterm.js never asks: its parser executes or
//    ignores them before anything is printed, and so must the screen model's.
int char_width(char32_t cp);

}  // namespace wharf::core
