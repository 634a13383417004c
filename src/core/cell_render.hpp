// Turning libvterm cells back into the bytes that draw them: UTF-8 text with a full SGR
// wherever the look changes, trailing blanks trimmed, and absolute column moves where a
// cell cannot be reached by printing (a lone mark, an overwritten half of a wide
// character). Used by Screen for snapshot rows and scrollback lines; internal to core.
#pragma once

#include <vterm.h>

#include <cstdint>
#include <string>

#include "core/emulator_guard.hpp"
#include "core/utf8.hpp"

namespace wharf::core::cell_render {

inline void append_number(std::string& out, long n) {
  out += std::to_string(n);
}

inline void append_color(std::string& out, const VTermColor& color, bool foreground) {
  if (foreground ? VTERM_COLOR_IS_DEFAULT_FG(&color) : VTERM_COLOR_IS_DEFAULT_BG(&color)) return;
  out += ';';
  if (VTERM_COLOR_IS_INDEXED(&color)) {
    int idx = color.indexed.idx;
    if (idx < 8) {
      append_number(out, (foreground ? 30 : 40) + idx);
    } else if (idx < 16) {
      append_number(out, (foreground ? 90 : 100) + idx - 8);
    } else {
      out += foreground ? "38;5;" : "48;5;";
      append_number(out, idx);
    }
  } else {
    out += foreground ? "38;2;" : "48;2;";
    append_number(out, color.rgb.red);
    out += ';';
    append_number(out, color.rgb.green);
    out += ';';
    append_number(out, color.rgb.blue);
  }
}

// The look of a cell, compared to decide when a new SGR is needed.
struct Pen {
  VTermScreenCellAttrs attrs{};
  VTermColor fg{};
  VTermColor bg{};
};

inline bool same_color(const VTermColor& a, const VTermColor& b) {
  if (a.type != b.type) return false;
  if (VTERM_COLOR_IS_DEFAULT_FG(&a) || VTERM_COLOR_IS_DEFAULT_BG(&a)) return true;
  if (VTERM_COLOR_IS_INDEXED(&a)) return a.indexed.idx == b.indexed.idx;
  return a.rgb.red == b.rgb.red && a.rgb.green == b.rgb.green && a.rgb.blue == b.rgb.blue;
}

inline bool same_pen(const Pen& a, const Pen& b) {
  return a.attrs.bold == b.attrs.bold && a.attrs.underline == b.attrs.underline &&
         a.attrs.italic == b.attrs.italic && a.attrs.blink == b.attrs.blink &&
         a.attrs.reverse == b.attrs.reverse && a.attrs.strike == b.attrs.strike &&
         same_color(a.fg, b.fg) && same_color(a.bg, b.bg);
}

inline bool is_default_pen(const Pen& p) {
  return !p.attrs.bold && !p.attrs.underline && !p.attrs.italic && !p.attrs.blink &&
         !p.attrs.reverse && !p.attrs.strike && VTERM_COLOR_IS_DEFAULT_FG(&p.fg) &&
         VTERM_COLOR_IS_DEFAULT_BG(&p.bg);
}

// A full SGR (starting from reset) for the pen: simpler and safer than a diff.
inline void append_sgr(std::string& out, const Pen& pen) {
  out += "\x1b[0";
  if (pen.attrs.bold) out += ";1";
  if (pen.attrs.italic) out += ";3";
  if (pen.attrs.underline == VTERM_UNDERLINE_SINGLE) out += ";4";
  if (pen.attrs.underline == VTERM_UNDERLINE_DOUBLE) out += ";21";
  if (pen.attrs.underline == VTERM_UNDERLINE_CURLY) out += ";4:3";
  if (pen.attrs.blink) out += ";5";
  if (pen.attrs.reverse) out += ";7";
  if (pen.attrs.strike) out += ";9";
  append_color(out, pen.fg, true);
  append_color(out, pen.bg, false);
  out += 'm';
}

inline Pen default_pen() {
  Pen pen;
  pen.fg.type = VTERM_COLOR_DEFAULT_FG;
  pen.bg.type = VTERM_COLOR_DEFAULT_BG;
  return pen;
}

inline bool is_blank(const VTermScreenCell& cell) {
  bool empty = cell.chars[0] == 0 || cell.chars[0] == ' ';
  return empty && VTERM_COLOR_IS_DEFAULT_BG(&cell.bg) && !cell.attrs.reverse &&
         !cell.attrs.underline && !cell.attrs.strike;
}

// Renders `cols` cells, trailing blanks trimmed; with_sgr adds the colour/attribute
// sequences (and a final reset) so the line recreates exactly.
template <class CellAt>
std::string render_cells(int cols, CellAt&& cell_at, bool with_sgr) {
  int end = cols;
  while (end > 0 && is_blank(cell_at(end - 1))) --end;
  std::string out;
  Pen current = default_pen();
  for (int col = 0; col < end; ++col) {
    const VTermScreenCell cell = cell_at(col);  // a copy: cell_at may reuse its storage
    if (cell.chars[0] == static_cast<std::uint32_t>(-1)) continue;  // right half of a wide char
    if (with_sgr) {
      Pen pen{cell.attrs, cell.fg, cell.bg};
      if (!same_pen(pen, current)) {
        append_sgr(out, pen);
        current = pen;
      }
    }
    if (cell.chars[0] == 0) {
      out += ' ';
    } else {
      for (int i = 0; i < VTERM_MAX_CHARS_PER_CELL && cell.chars[i] != 0; ++i)
        append_utf8(out, cell.chars[i]);
    }
    if (cell.width == 2 && col + 1 < end) {
      // Normally the right half follows and is skipped; if something overwrote it,
      // what follows is placed by absolute column, as the program placed it.
      if (cell_at(col + 1).chars[0] == static_cast<std::uint32_t>(-1)) {
        ++col;
      } else if (with_sgr) {
        out += "\x1b[";
        append_number(out, col + 2);
        out += 'G';
      }
    }
    // A cell that starts with a mark (printed where no base character preceded it)
    // did not move the cursor when it was printed, so the next character must be
    // placed by absolute column (CHA), or it would land on the mark.
    if (with_sgr && may_be_zero_width(cell.chars[0])) {
      out += "\x1b[";
      append_number(out, col + 2);
      out += 'G';
    }
  }
  if (with_sgr && !is_default_pen(current)) out += "\x1b[0m";
  return out;
}

}  // namespace wharf::core::cell_render
