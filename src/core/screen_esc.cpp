// The engine's ESC sequences, saved cursors (DECSC/DECRC and their CSI and 1048 forms),
// character sets, and resets (RIS, DECSTR), as xterm.js 6.0.0 does them.
#include <algorithm>

#include "core/charsets.hpp"
#include "core/screen.hpp"

namespace wharf::core {

// As xterm.js 6.0.0: the position, the colours and flags, and the character set in use
// (not the G0-G3 designations, nor origin or autowrap mode).
void Screen::save_cursor() {
  Buffer& b = buf();
  SavedCursor& s = active_buffer_ == &primary_ ? primary_.saved : alt_saved_;
  s.x = b.x;
  s.y = ybase() + b.y;
  s.pen = pen_;
  s.has_extended = underline_style(pen_.flags) != 0 || pen_.extra != 0;
  s.charset = active_charset_;
}

// xterm.js restores the colours and flags but keeps its current underline style, colour
// and link, and uses them only if the saved look had any (its HAS_EXTENDED bit).
void Screen::restore_cursor() {
  Buffer& b = buf();
  const SavedCursor& s = active_buffer_ == &primary_ ? primary_.saved : alt_saved_;
  b.x = s.x;
  b.y = std::max(s.y - ybase(), 0);
  int current_underline = underline_style(pen_.flags);
  std::uint16_t current_extra = pen_.extra;
  pen_ = s.pen;
  if (underline_style(s.pen.flags) != 0) {
    int style = s.has_extended && current_underline != 0 ? current_underline : 1;
    pen_.flags = static_cast<std::uint16_t>((pen_.flags & ~unsigned{kUnderlineMask}) |
                                            (static_cast<unsigned>(style) << kUnderlineShift));
  }
  pen_.extra = s.has_extended ? current_extra : 0;
  active_charset_ = s.charset;
  restrict_cursor();
}

void Screen::set_charset(int g, char designator) {
  charsets_[static_cast<std::size_t>(g)] = designator;
  if (g == gl_) active_charset_ = designator;
}

void Screen::set_gl(int g) {
  gl_ = g;
  active_charset_ = charsets_[static_cast<std::size_t>(g)];
}

void Screen::reset_tabs(Buffer& b, int from) {
  b.tabs.resize(static_cast<std::size_t>(size_.cols), false);
  if (from == 0) std::fill(b.tabs.begin(), b.tabs.end(), false);
  // New columns get the default stops, counted on from the last stop before them.
  int start = from;
  if (from > 0) {
    start = from;
    while (start > 0 && !b.tabs[static_cast<std::size_t>(start)]) --start;
  }
  for (int i = start; i < size_.cols; i += 8) b.tabs[static_cast<std::size_t>(i)] = true;
}

// RIS: a new terminal of the same size (xterm.js recreates its buffers, so the
// scrollback goes too); the title, the cursor's visibility and LNM stay, as in xterm.js 6.
void Screen::full_reset() {
  parser_.reset();
  primary_ = Buffer(size_);
  primary_.grid.set_stamp(changes_.next_seq());
  alt_.reset();
  alt_saved_ = SavedCursor{};
  active_buffer_ = &primary_;
  active_ = &primary_.grid;
  bool newline = modes_.newline;  // an option in xterm.js, not a mode it resets
  modes_ = InputModes{};
  modes_.newline = newline;
  pen_ = Style{};
  charsets_ = {'B', 'B', 'B', 'B'};
  gl_ = 0;
  active_charset_ = 'B';
  join_width_ = 0;
  ybase_ = 0;
  in_text_ = false;
  cursor_blink_ = false;
  cursor_shape_ = CursorShape::kDefault;
  scrollback_.clear();
  scrollback_bytes_ = 0;
  extras_.assign(1, StyleExtra{});
  links_.assign(1, Hyperlink{});
  changes_.replace();
}

// DECSTR, as xterm.js's softReset.
void Screen::soft_reset() {
  Buffer& b = buf();
  cursor_hidden_ = false;
  b.scroll_top = 0;
  b.scroll_bottom = size_.rows - 1;
  pen_ = Style{};
  bool newline = modes_.newline;
  int mouse = modes_.mouse_tracking;
  int encoding = modes_.mouse_encoding;
  bool reverse_video = modes_.reverse_video;
  modes_ = InputModes{};
  modes_.newline = newline;
  modes_.mouse_tracking = mouse;
  modes_.mouse_encoding = encoding;
  modes_.reverse_video = reverse_video;
  cursor_blink_ = false;
  cursor_shape_ = CursorShape::kDefault;
  charsets_ = {'B', 'B', 'B', 'B'};
  gl_ = 0;
  active_charset_ = 'B';
  SavedCursor& s = active_buffer_ == &primary_ ? primary_.saved : alt_saved_;
  s.x = 0;
  s.y = ybase();
  s.pen = Style{};  // xterm.js resets the saved colours, where its flags live too
  s.has_extended = false;
  s.charset = 'B';
}

void Screen::esc_dispatch(VtCollect collect, char final_byte) {
  end_text();
  join_width_ = 0;
  if (collect == 0) {
    switch (final_byte) {
      case '7':
        save_cursor();
        return;
      case '8':
        restore_cursor();
        return;
      case 'D':
        index();
        return;
      case 'E':
        buf().x = 0;
        index();
        return;
      case 'H':
        if (buf().x < size_.cols) buf().tabs[static_cast<std::size_t>(buf().x)] = true;
        return;
      case 'M':
        reverse_index();
        return;
      case '=':
        modes_.application_keypad = true;
        return;
      case '>':
        modes_.application_keypad = false;
        return;
      case 'c':
        full_reset();
        return;
      case 'n':
        set_gl(2);
        return;
      case 'o':
      case '|':
        set_gl(3);
        return;
      case '}':
        set_gl(2);
        return;
      case '~':
        set_gl(1);
        return;
      default:
        return;
    }
  }
  if (collect == '%' && (final_byte == '@' || final_byte == 'G')) {
    set_gl(0);
    set_charset(0, 'B');
    return;
  }
  if (collect == '#' && final_byte == '8') {  // DECALN: the screen filled with E
    set_cursor(0, 0);
    Buffer& b = buf();
    // xterm.js fills with the pen's colours and flags but not its extras: an underline
    // keeps its flag without a style, which it draws single.
    Style decaln{pen_.fg, pen_.bg, pen_.flags, 0};
    if (underline_style(decaln.flags) != 0)
      decaln.flags = static_cast<std::uint16_t>((decaln.flags & ~unsigned{kUnderlineMask}) |
                                                (1u << kUnderlineShift));
    for (int row = b.y; row < size_.rows; ++row) {
      for (int col = 0; col < size_.cols; ++col)
        active_->set(row, col, make_content('E', 1), decaln);
      active_->set_wrapped(row, false);
    }
    set_cursor(0, 0);
    return;
  }
  int g = -1;
  switch (collect) {
    case '(':
      g = 0;
      break;
    case ')':
    case '-':
      g = 1;
      break;
    case '*':
    case '.':
      g = 2;
      break;
    case '+':
      g = 3;
      break;
    case '/':
      return;  // 96-character sets: not supported (as xterm.js)
    default:
      return;
  }
  if (known_charset(final_byte)) set_charset(g, final_byte);
}

}  // namespace wharf::core
