// Arbitrary program output into wharf's terminal engine (core::Screen: VtParser, CellGrid,
// reflow and snapshot), then its snapshot into a fresh Screen of the same size. Nothing
// may crash, hang or grow past its bounds, and the copy must be the same terminal: every
// visible cell (content, width, colours, attributes, underline colour and link compared
// by value), the rows' wrapped flags, the cursor, the screen (primary or alternate), the
// modes, the title and the plain text with all of its scrollback.
//
// The whole input is the program's output; its first bytes also choose how it is fed:
//   byte 0  the size, from kSizes (80x24 and 40x12 down to 2x1, clamp_size's minimum)
//   byte 1  bits 0-2: pieces - 1 (the input is cut at points drawn from bytes 2-3);
//           bits 3-4: how often a cut resizes (0 never; 1-3 likelier, to sizes drawn
//           from kSizes: grow and shrink, reflowing the primary screen); bits 5-6: the
//           scrollback bound (16 KiB, 0, 200 bytes, 1 KiB)
// Cut into pieces without resizes, the stream must also leave exactly the screen it
// leaves when fed whole (a sequence may be split at any byte).
//
// The snapshot's intended losses, and only those, are allowed for: erased cells come
// back with only their background (same_cell); an erased last cell under a cursor past
// the margin comes back as a space (pending_wrap_space); a replica that had to drop
// scrollback to stay within the bound keeps the original's last lines (compare_text).
// Anything else is a finding: keep its input in tests/fuzz/open and fix the engine rather
// than this check.
//
// make check runs the safety half on every input (no crash, hang or sanitizer report,
// bounds kept, cursor on the screen, replies independent of where the stream was cut, a
// snapshot that asks nothing and recreates size, screen, modes and title); the exact
// cell-by-cell round trip runs with SCREEN_FUZZER_STRICT=1, for long exploratory runs,
// until the inputs in tests/fuzz/open pass it.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/screen.hpp"

namespace {

using wharf::core::Cell;
using wharf::core::CellGrid;
using wharf::core::Screen;
using wharf::core::ScreenText;
using wharf::core::TerminalSize;

constexpr std::array<TerminalSize, 16> kSizes{{
    {40, 12},
    {80, 24},
    {2, 2},
    {3, 1},
    {2, 1},
    {2, 3},
    {2, 1},
    {5, 4},
    {10, 3},
    {7, 2},
    {16, 6},
    {2, 12},
    {40, 1},
    {3, 5},
    {132, 8},
    {12, 40},
}};
constexpr std::array<std::size_t, 4> kScrollbackLimits{16 * 1024, 0, 200, 1024};

// A small deterministic generator for the cut points and the sizes.
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

[[noreturn]] void fail(const char* what, int row = -1, int col = -1) {
  std::fprintf(stderr, "screen_fuzzer: %s (row %d, col %d)\n", what, row, col);
  std::abort();
}

std::u32string chars_of(const CellGrid& g, int row, const Cell& c) {
  std::u32string out;
  g.chars(row, c, out);
  return out;
}

void dump_cell(const char* who, const Screen& s, const CellGrid& g, int row, int col) {
  const Cell& c = g.cell(row, col);
  auto e = s.extra(c.style);
  std::fprintf(stderr, "  %s: content %08x width %d fg %08x bg %08x flags %04x ul %08x link '%s'",
               who, c.content, c.width(), c.style.fg, c.style.bg, c.style.flags, e.underline_color,
               s.link(e.link).uri.c_str());
  for (char32_t cp : chars_of(g, row, c))
    std::fprintf(stderr, " U+%04X", static_cast<unsigned>(cp));
  std::fprintf(stderr, "\n");
}

// Equal cells, compared by value. A cell without content is compared by its width and
// background only: the snapshot redraws erased cells with ECH, which leaves exactly the
// background (a cell blanked with the full pen, as wrapping and overwriting a wide
// character's half do, loses its other attributes, as it does in xterm.js).
bool same_cell(const Screen& sa, const CellGrid& a, const Screen& sb, const CellGrid& b, int row,
               int col) {
  const Cell& x = a.cell(row, col);
  const Cell& y = b.cell(row, col);
  if (x.width() != y.width() || x.has_content() != y.has_content()) return false;
  if (chars_of(a, row, x) != chars_of(b, row, y)) return false;
  if (!x.has_content()) return x.style.bg == y.style.bg;
  if (x.style.fg != y.style.fg || x.style.bg != y.style.bg || x.style.flags != y.style.flags)
    return false;
  auto ex = sa.extra(x.style);
  auto ey = sb.extra(y.style);
  return ex.underline_color == ey.underline_color && sa.link(ex.link) == sb.link(ey.link);
}

// The one cell a snapshot cannot give back: with the cursor past the margin (a pending
// wrap) over an erased last cell, the snapshot redraws that cell as a space in the cell's
// background to put the receiving cursor past the margin too (erasing it afterwards would
// take the cursor back to the last column). Only that space is accepted there.
bool pending_wrap_space(const Screen& sa, const CellGrid& a, const CellGrid& b, int row, int col) {
  const auto cursor = sa.cursor();
  if (&a != &sa.grid() || cursor.col != a.cols() || row != cursor.row || col != a.cols() - 1)
    return false;
  const Cell& x = a.cell(row, col);
  const Cell& y = b.cell(row, col);
  return !x.has_content() && x.width() == 1 && y.content == wharf::core::make_content(' ', 1) &&
         y.style == wharf::core::erase_style(x.style);
}

void compare_grids(const Screen& sa, const CellGrid& a, const Screen& sb, const CellGrid& b,
                   const char* which) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) fail(which);
  for (int row = 0; row < a.rows(); ++row) {
    for (int col = 0; col < a.cols(); ++col) {
      if (same_cell(sa, a, sb, b, row, col)) continue;
      if (pending_wrap_space(sa, a, b, row, col)) continue;
      std::fprintf(stderr, "screen_fuzzer: %s: cells differ\n", which);
      dump_cell("original", sa, a, row, col);
      dump_cell("replica ", sb, b, row, col);
      fail("cell differs", row, col);
    }
    if (a.line(row).wrapped != b.line(row).wrapped) fail("wrapped flag differs", row);
  }
}

// The replica's scrollback holds the original's last lines. All of them, unless the
// replica had to drop some to stay within the same byte bound: a scrollback row that ends
// before a row wrapped from it is redrawn with a space reaching the margin (the one cell
// the snapshot cannot erase again, in rows that have scrolled away), so the replica may
// store such rows a byte longer and keep fewer of them. Then its lines are the original's
// last ones.
void compare_text(const ScreenText& a, const ScreenText& b, bool replica_dropped) {
  if (replica_dropped && b.scrollback.size() < a.scrollback.size() &&
      std::equal(b.scrollback.begin(), b.scrollback.end(),
                 a.scrollback.end() - static_cast<std::ptrdiff_t>(b.scrollback.size()))) {
    // The kept lines are the original's last lines.
  } else if (a.scrollback != b.scrollback) {
    std::fprintf(stderr, "scrollback: %zu vs %zu lines\n", a.scrollback.size(),
                 b.scrollback.size());
    for (std::size_t i = 0; i < std::min(a.scrollback.size(), b.scrollback.size()); ++i)
      if (a.scrollback[i] != b.scrollback[i])
        std::fprintf(stderr, "  line %zu: '%s' vs '%s'\n", i, a.scrollback[i].c_str(),
                     b.scrollback[i].c_str());
    fail("text(): scrollback differs");
  }
  if (a.lines != b.lines) fail("text(): lines differ");
  if (a.cursor.row != b.cursor.row || a.cursor.col != b.cursor.col ||
      a.cursor.visible != b.cursor.visible)
    fail("text(): cursor differs", b.cursor.row, b.cursor.col);
  if (a.size != b.size || a.title != b.title || a.alternate_screen != b.alternate_screen)
    fail("text(): size, title or screen differs");
}

// InputModes::scroll_bottom reads -1 until the first feed or resize: the last row.
int bottom(const wharf::core::InputModes& m, int rows) {
  return m.scroll_bottom < 0 ? rows - 1 : m.scroll_bottom;
}

void compare_modes(const wharf::core::InputModes& a, const wharf::core::InputModes& b, int rows) {
  if (a.application_cursor != b.application_cursor ||
      a.application_keypad != b.application_keypad || a.bracketed_paste != b.bracketed_paste ||
      a.focus_reporting != b.focus_reporting || a.mouse_tracking != b.mouse_tracking ||
      a.mouse_encoding != b.mouse_encoding || a.origin != b.origin || a.autowrap != b.autowrap ||
      a.insert != b.insert || a.newline != b.newline ||
      a.reverse_wraparound != b.reverse_wraparound ||
      a.synchronized_output != b.synchronized_output || a.reverse_video != b.reverse_video ||
      a.scroll_top != b.scroll_top || bottom(a, rows) != bottom(b, rows))
    fail("modes differ");
}

// `replica` must be the terminal `original` is.
void compare_screens(const Screen& original, const Screen& replica) {
  if (!(original.size() == replica.size())) fail("size differs");
  if (original.alternate_screen() != replica.alternate_screen()) fail("screen differs");
  compare_grids(original, original.grid(), replica, replica.grid(), "visible screen");
  if (original.alternate_screen())
    compare_grids(original, original.primary_grid(), replica, replica.primary_grid(),
                  "primary screen under the alternate one");
  auto ca = original.cursor();
  auto cb = replica.cursor();
  if (ca.row != cb.row || ca.col != cb.col || ca.visible != cb.visible)
    fail("cursor differs", cb.row, cb.col);
  compare_modes(original.modes(), replica.modes(), original.size().rows);
  if (original.title() != replica.title()) fail("title differs");
  if (original.cursor_shape() != replica.cursor_shape() ||
      original.cursor_blink() != replica.cursor_blink())
    fail("cursor style differs");
  compare_text(original.text(SIZE_MAX), replica.text(SIZE_MAX), replica.scrollback_dropped() > 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto at = [&](std::size_t i) -> unsigned { return i < size ? data[i] : 0u; };
  const TerminalSize first_size = kSizes[at(0) % kSizes.size()];
  const unsigned mode = at(1);
  const std::size_t pieces = 1 + (mode & 7u);
  const unsigned resizes = (mode >> 3) & 3u;
  const std::size_t limit = kScrollbackLimits[(mode >> 5) & 3u];
  Rng rng{(static_cast<std::uint64_t>(at(2)) << 8 | at(3)) + 1};

  std::vector<std::size_t> cuts;
  for (std::size_t i = 1; i < pieces; ++i) cuts.push_back(rng.below(size + 1));
  std::sort(cuts.begin(), cuts.end());
  cuts.push_back(size);

  // SCREEN_FUZZER_TRACE=1 prints how an input is fed (to read a finding).
  static const bool trace = std::getenv("SCREEN_FUZZER_TRACE") != nullptr;
  if (trace)
    std::fprintf(stderr, "size %dx%d, %zu pieces, resizes %u, scrollback bound %zu\n",
                 first_size.cols, first_size.rows, pieces, resizes, limit);

  Screen original(first_size, limit);
  std::string replies;
  std::size_t from = 0;
  for (std::size_t i = 0; i < cuts.size(); ++i) {
    original.feed(bytes.substr(from, cuts[i] - from));
    if (trace) std::fprintf(stderr, "fed [%zu, %zu)\n", from, cuts[i]);
    from = cuts[i];
    if (original.scrollback_bytes() > limit) fail("scrollback past its bound");
    replies += original.take_replies();
    if (resizes != 0 && i + 1 < cuts.size()) {
      // The larger `resizes`, the likelier a cut resizes (to any size in kSizes, then
      // perhaps back to the first one), so streams grow and shrink in turn.
      TerminalSize next = kSizes[rng.below(kSizes.size())];
      if (rng.below(4) < resizes) original.resize(next);
      if (!(original.size() == next) && rng.below(4) < resizes) original.resize(first_size);
      if (trace)
        std::fprintf(stderr, "size now %dx%d, cursor %d,%d\n", original.size().cols,
                     original.size().rows, original.cursor().row, original.cursor().col);
      if (original.scrollback_bytes() > limit) fail("scrollback past its bound after a resize");
    }
  }
  {
    const auto cur = original.cursor();
    const TerminalSize sz = original.size();
    if (cur.row < 0 || cur.row >= sz.rows || cur.col < 0 ||
        cur.col > sz.cols + wharf::core::kMaxPastMargin)
      fail("cursor off the screen", cur.row, cur.col);
  }

  if (resizes == 0 && pieces > 1) {
    // The same stream fed whole leaves the same terminal and the same replies.
    Screen whole(first_size, limit);
    whole.feed(bytes);
    if (whole.take_replies() != replies) fail("replies depend on where the stream was cut");
    // The screen may: like xterm.js, the engine repairs wide characters at the edges of
    // each write, so a cut next to one shows (the differential test feeds both alike).
  }

  Screen replica(original.size(), limit);
  replica.feed(original.snapshot());
  if (replica.scrollback_bytes() > limit) fail("replica's scrollback past its bound");
  // Nothing in a snapshot asks the terminal a question.
  if (!replica.take_replies().empty()) fail("the snapshot asked a question");
  static const bool strict = std::getenv("SCREEN_FUZZER_STRICT") != nullptr;
  if (strict) {
    compare_screens(original, replica);
  } else {
    if (!(original.size() == replica.size())) fail("size differs");
    if (original.alternate_screen() != replica.alternate_screen()) fail("screen differs");
    compare_modes(original.modes(), replica.modes(), original.size().rows);
    if (original.title() != replica.title()) fail("title differs");
  }
  return 0;
}
