// Reading a Screen out: snapshot() (the byte stream that recreates it on a fresh
// terminal) and text() (plain text for programs). Both are const: reading never changes
// the screen or its state number.
#include <vterm.h>

#include <algorithm>
#include <string>

#include "core/cell_render.hpp"
#include "core/screen.hpp"

namespace wharf::core {

using cell_render::append_sgr;
using cell_render::default_pen;
using cell_render::is_default_pen;
using cell_render::Pen;

// The grid keeps cells as written: DECSCNM (reverse video) is carried as a mode, not by
// flipping every cell.
std::string Screen::render_row(const CellGrid& grid, int row) const {
  std::string out;
  grid.render(row, true, false, out);
  return out;
}

std::string Screen::snapshot(std::size_t scrollback_lines) const {
  std::string out;
  auto csi = [&out](std::string_view body) {
    out += "\x1b[";
    out += body;
  };
  out += "\x1b[0m";
  // Scrollback: printed from the top and pushed off the screen by newlines, so that it
  // lands in the receiving terminal's own scrollback in order.
  std::size_t count = std::min(scrollback_lines, scrollback_.size());
  if (count > 0) {
    for (auto it = scrollback_.end() - static_cast<std::ptrdiff_t>(count); it != scrollback_.end();
         ++it) {
      out += *it;
      out += "\r\n";
    }
    for (int i = 1; i < size_.rows; ++i) out += "\r\n";
  }
  if (alternate_screen_) {
    // The primary screen, and the cursor it had when the program switched away, so that
    // both come back when the program leaves the alternate screen (1049 restores the
    // cursor it saves here).
    csi("H");
    for (int row = 0; row < size_.rows; ++row) {
      std::string line = render_row(primary_, row);
      if (line.empty()) continue;
      csi(std::to_string(row + 1) + ";1H");
      out += line;
    }
    csi(std::to_string(primary_cursor_.row + 1) + ";" + std::to_string(primary_cursor_.col + 1) +
        "H");
    csi("?1049h");
  }
  csi("H");
  for (int row = 0; row < size_.rows; ++row) {
    std::string line = render_row(*active_, row);
    if (line.empty()) continue;
    csi(std::to_string(row + 1) + ";1H");
    out += line;
  }

  // Modes, then the cursor (DECSTBM and DECOM move it), then the pen.
  const InputModes& m = mode_tap_.modes();
  if (m.scroll_top != 0 || m.scroll_bottom != -1) {
    int bottom = m.scroll_bottom == -1 ? size_.rows : m.scroll_bottom;
    csi(std::to_string(m.scroll_top + 1) + ";" + std::to_string(bottom) + "r");
  }
  if (m.origin) csi("?6h");
  if (!m.autowrap) csi("?7l");
  if (m.insert) csi("4h");
  if (m.application_cursor) csi("?1h");
  if (m.application_keypad) out += "\x1b=";
  if (m.mouse_tracking != 0) csi("?" + std::to_string(m.mouse_tracking) + "h");
  if (m.mouse_encoding != 0) csi("?" + std::to_string(m.mouse_encoding) + "h");
  if (m.focus_reporting) csi("?1004h");
  if (m.bracketed_paste) csi("?2004h");
  if (reverse_video_) csi("?5h");
  if (!title_.empty()) {
    out += "\x1b]2;";
    out += title_;
    out += "\x1b\\";
  }
  // DECSCUSR: 1/2 block, 3/4 underline, 5/6 bar; odd numbers blink.
  int shape = cursor_shape_ == VTERM_PROP_CURSORSHAPE_UNDERLINE  ? 3
              : cursor_shape_ == VTERM_PROP_CURSORSHAPE_BAR_LEFT ? 5
                                                                 : 1;
  if (!cursor_blink_) ++shape;
  if (shape != 1) csi(std::to_string(shape) + " q");

  CursorState cur = cursor();
  int row = cur.row;
  if (m.origin) row -= m.scroll_top;
  csi(std::to_string(row + 1) + ";" + std::to_string(cur.col + 1) + "H");
  if (!cur.visible) csi("?25l");

  Pen pen = default_pen();
  VTermValue value{};
  vterm_state_get_penattr(state_, VTERM_ATTR_BOLD, &value);
  pen.attrs.bold = value.boolean ? 1 : 0;
  vterm_state_get_penattr(state_, VTERM_ATTR_UNDERLINE, &value);
  pen.attrs.underline = static_cast<unsigned>(value.number) & 3u;
  vterm_state_get_penattr(state_, VTERM_ATTR_ITALIC, &value);
  pen.attrs.italic = value.boolean ? 1 : 0;
  vterm_state_get_penattr(state_, VTERM_ATTR_BLINK, &value);
  pen.attrs.blink = value.boolean ? 1 : 0;
  vterm_state_get_penattr(state_, VTERM_ATTR_REVERSE, &value);
  pen.attrs.reverse = value.boolean ? 1 : 0;
  vterm_state_get_penattr(state_, VTERM_ATTR_STRIKE, &value);
  pen.attrs.strike = value.boolean ? 1 : 0;
  vterm_state_get_penattr(state_, VTERM_ATTR_FOREGROUND, &value);
  pen.fg = value.color;
  vterm_state_get_penattr(state_, VTERM_ATTR_BACKGROUND, &value);
  pen.bg = value.color;
  if (!is_default_pen(pen)) append_sgr(out, pen);
  return out;
}

ScreenText Screen::text(std::size_t scrollback_lines) const {
  ScreenText out;
  std::size_t count = std::min(scrollback_lines, scrollback_.size());
  for (auto it = scrollback_.end() - static_cast<std::ptrdiff_t>(count); it != scrollback_.end();
       ++it)
    out.scrollback.push_back(strip_sgr(*it));
  for (int row = 0; row < size_.rows; ++row) {
    std::string line;
    active_->render(row, false, false, line);
    out.lines.push_back(std::move(line));
  }
  out.cursor = cursor();
  out.size = size_;
  out.title = title_;
  out.alternate_screen = alternate_screen_;
  return out;
}

std::string strip_sgr(std::string_view rendered) {
  std::string out;
  out.reserve(rendered.size());
  for (std::size_t i = 0; i < rendered.size(); ++i) {
    if (rendered[i] == '\x1b' && i + 1 < rendered.size() && rendered[i + 1] == '[') {
      std::size_t j = i + 2;
      while (j < rendered.size() && rendered[j] != 'm') ++j;
      i = j;
      continue;
    }
    out.push_back(rendered[i]);
  }
  return out;
}

}  // namespace wharf::core
