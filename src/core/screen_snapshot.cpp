// Reading the engine out: snapshot() (the byte stream that recreates it on a freshly
// reset terminal, the page's xterm.js or another Screen) and text() (plain text for
// programs). Both are const: reading never changes the screen or its state number.
//
// Rows are drawn as a program would draw them: text in its style and link, a run of
// erased cells by ECH (which leaves exactly the erased cells' background) and a forward
// move, a lone mark after an absolute column move (so that it does not join the cell
// before it). Rows that continue the row above are reached by wrapping from it, so the
// receiving terminal marks them wrapped too and reflows them as the engine does.
#include <algorithm>
#include <cstring>
#include <string>

#include "core/screen.hpp"
#include "core/utf8.hpp"

namespace wharf::core {
namespace {

void append_number(std::string& out, long n) {
  out += std::to_string(n);
}

void csi(std::string& out, long n, char final_byte) {
  out += "\x1b[";
  append_number(out, n);
  out += final_byte;
}

void cup(std::string& out, int row, int col) {
  out += "\x1b[";
  append_number(out, row + 1);
  out += ';';
  append_number(out, col + 1);
  out += 'H';
}

void append_color(std::string& out, std::uint32_t color, int base) {
  std::uint32_t mode = color & kColorModeMask;
  std::uint32_t value = color & kColorValueMask;
  if (mode == kColorDefault) return;
  out += ';';
  if (mode == kColorPalette16) {
    append_number(out, value < 8 ? base + static_cast<long>(value)
                                 : base + 60 + static_cast<long>(value) - 8);
  } else if (mode == kColorPalette256) {
    append_number(out, base + 8);
    out += ";5;";
    append_number(out, value);
  } else {
    append_number(out, base + 8);
    out += ";2;";
    append_number(out, (value >> 16) & 0xFF);
    out += ';';
    append_number(out, (value >> 8) & 0xFF);
    out += ';';
    append_number(out, value & 0xFF);
  }
}

void append_link(std::string& out, const Hyperlink& link) {
  out += "\x1b]8;";
  if (!link.id.empty()) {
    out += "id=";
    out += link.id;
  }
  out += ';';
  out += link.uri;
  out += "\x1b\\";
}

}  // namespace

// Draws the look of `style` from scratch (SGR 0 first) plus its link and protection, as a
// change from `current`.
struct StyleWriter {
  const Screen& screen;
  const std::vector<StyleExtra>& extras;
  const std::vector<Hyperlink>& links;
  Style current{};

  void to(const Style& style, std::string& out) {
    if (style == current) return;
    StyleExtra was = extras[current.extra];
    StyleExtra now = extras[style.extra];
    bool look = style.fg != current.fg || style.bg != current.bg ||
                (style.flags & ~kProtected) != (current.flags & ~kProtected) ||
                now.underline_color != was.underline_color;
    if (look) {
      out += "\x1b[0";
      std::uint16_t f = style.flags;
      if ((f & kBold) != 0) out += ";1";
      if ((f & kFaint) != 0) out += ";2";
      if ((f & kItalic) != 0) out += ";3";
      int underline = underline_style(f);
      if (underline == 1) out += ";4";
      if (underline > 1) {
        out += ";4:";
        append_number(out, underline);
      }
      if ((f & kBlink) != 0) out += ";5";
      if ((f & kInverse) != 0) out += ";7";
      if ((f & kInvisible) != 0) out += ";8";
      if ((f & kStrike) != 0) out += ";9";
      if ((f & kOverline) != 0) out += ";53";
      append_color(out, style.fg, 30);
      append_color(out, style.bg, 40);
      append_color(out, now.underline_color, 50);
      out += 'm';
    }
    // xterm.js keeps DECSCA's protection with the colours, so SGR 0 clears it.
    bool protect = (style.flags & kProtected) != 0;
    if (look ? protect : protect != ((current.flags & kProtected) != 0))
      out += protect ? "\x1b[1\"q" : "\x1b[0\"q";
    if (now.link != was.link) append_link(out, links[now.link]);
    current = style;
  }
};

bool Screen::render_row(const Line& line, bool keep_trailing, std::string& bytes) const {
  const int cols = static_cast<int>(line.cells.size());
  const Cell* cells = line.cells.data();
  int end = cols;
  if (!keep_trailing) {
    // Erased cells are all zero: test them eight bytes at a time.
    auto erased = [&](int col) {
      std::uint64_t half[2];
      std::memcpy(half, &cells[col], sizeof half);
      return (half[0] | half[1]) == 0;
    };
    while (end > 0 && erased(end - 1)) --end;
  }
  StyleWriter writer{*this, extras_, links_};
  std::u32string chars;
  // Printable ASCII in one style, the common case, is gathered and appended at once.
  char run[256];
  std::size_t run_length = 0;
  auto flush = [&] {
    bytes.append(run, run_length);
    run_length = 0;
  };
  int col = 0;
  bool at_margin = false;
  while (col < end) {
    const Cell& c = cells[col];
    if (c.content - 0x20u < 0x5Fu) {  // printable ASCII of width 1 (no cluster, no width bits)
      if (!(c.style == writer.current)) {
        flush();
        writer.to(c.style, bytes);
      }
      const Style style = c.style;
      do {
        run[run_length++] = static_cast<char>(cells[col].content);
        if (run_length == sizeof run) flush();
        ++col;
      } while (col < end && cells[col].content - 0x20u < 0x5Fu && cells[col].style == style);
      at_margin = col >= cols;
      continue;
    }
    flush();
    if (!c.has_content()) {
      // A run of erased cells (or a right half left without its left half).
      int count = 1;
      bool styled = c.width() != 0 && !(c.style == Style{});
      while (col + count < end) {
        const Cell& next = cells[col + count];
        if (next.has_content() || !(next.style.bg == c.style.bg) ||
            (next.width() != 0 && !(next.style == Style{})) != styled)
          break;
        ++count;
      }
      if (styled) {
        writer.to(erase_style(c.style), bytes);
        csi(bytes, count, 'X');
      }
      if (col + count < cols) csi(bytes, count, 'C');
      col += count;
      at_margin = false;
      continue;
    }
    writer.to(c.style, bytes);
    if (c.width() == 0) csi(bytes, col + 1, 'G');  // a lone mark must not join its neighbour
    chars.clear();
    CellGrid::chars(line, c, chars);
    for (char32_t cp : chars) append_utf8(bytes, static_cast<std::uint32_t>(cp));
    col += std::max(c.width(), 1);
    at_margin = col >= cols;
  }
  flush();
  writer.to(Style{}, bytes);
  return at_margin;
}

std::string Screen::line_text(const Line& line) {
  std::u32string chars;
  std::string out;
  for (const Cell& c : line.cells) {
    if (!c.has_content()) {
      if (c.width() != 0) out += ' ';
      continue;
    }
    chars.clear();
    CellGrid::chars(line, c, chars);
    for (char32_t cp : chars) append_utf8(out, static_cast<std::uint32_t>(cp));
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// Draws rows one after another from column 1 of a fresh row: a row that continues the one
// above is reached by wrapping (the row above ends past its margin, a space wraps into
// the row with the default pen, and is taken back), so the receiving terminal marks it
// wrapped; any other row starts after CR LF.
struct RowStream {
  std::string& out;
  int cols;
  bool first = true;
  bool at_margin = false;
  int row = -1;             // screen row of the last row begun, or -1 for a scrollback row
  std::vector<int> fixups;  // screen rows whose last cell was drawn blank to reach the margin

  void begin(bool wrapped, int screen_row) {
    if (!first) {
      if (wrapped) {
        if (!at_margin) {
          csi(out, cols, 'G');
          out += ' ';
          if (row >= 0) fixups.push_back(row);
        }
        out += " \r\x1b[X";
      } else {
        out += "\r\n";
      }
    }
    first = false;
    row = screen_row;
  }
};

void Screen::render_screen(const Buffer& b, std::string& out) const {
  const int rows = b.grid.rows();
  const int cols = b.grid.cols();
  RowStream stream{out, cols};
  if (&b != &primary_ && b.grid.line(0).wrapped) {
    // The top row continues a row that scrolled away: a row of spaces above it is
    // scrolled off by the last row.
    out.append(static_cast<std::size_t>(cols), ' ');
    stream.first = false;
    stream.at_margin = true;
  }
  for (int row = 0; row < rows; ++row) {
    const Line& line = b.grid.line(row);
    bool next_wrapped = row + 1 < rows && b.grid.line(row + 1).wrapped;
    stream.begin(line.wrapped, row);
    stream.at_margin = render_row(line, next_wrapped, out);
  }
  draw_fixups(b, stream.fixups, out);
}

// The cells drawn as spaces only to reach the margin are erased again in their background.
void Screen::draw_fixups(const Buffer& b, const std::vector<int>& rows, std::string& out) const {
  for (int row : rows) {
    StyleWriter writer{*this, extras_, links_};
    cup(out, row, b.grid.cols() - 1);
    writer.to(erase_style(b.grid.line(row).cells.back().style), out);
    out += "\x1b[X";
    writer.to(Style{}, out);
  }
}

// Tab stops, scroll region and saved cursor of a screen, drawn while it is active.
void Screen::render_state(const Buffer& b, bool via_1049, std::string& out) const {
  const int cols = b.grid.cols();
  bool default_tabs = true;
  for (int i = 0; i < cols; ++i)
    if (b.tabs[static_cast<std::size_t>(i)] != (i % 8 == 0)) default_tabs = false;
  if (!default_tabs) {
    out += "\x1b[3g";
    for (int i = 0; i < cols; ++i) {
      if (!b.tabs[static_cast<std::size_t>(i)]) continue;
      cup(out, 0, i);
      out += "\x1bH";
    }
  }
  if (b.scroll_top != 0 || b.scroll_bottom != b.grid.rows() - 1) {
    out += "\x1b[";
    append_number(out, b.scroll_top + 1);
    out += ';';
    append_number(out, b.scroll_bottom + 1);
    out += 'r';
  }
  const SavedCursor& s = &b == &primary_ ? primary_.saved : alt_saved_;
  bool saved_default =
      s.x == 0 && s.y == 0 && s.pen == Style{} && !s.has_extended && s.charset == 'B';
  if (!saved_default || via_1049) {
    int base = &b == &primary_ ? ybase_ : 0;
    cup(out, std::clamp(s.y - base, 0, b.grid.rows() - 1), std::min(s.x, cols - 1));
    StyleWriter writer{*this, extras_, links_};
    writer.to(s.pen, out);
    if (s.charset != 'B') {
      out += "\x1b(";
      out += s.charset;
    }
    // Switching with 1049 saves the cursor in the slot every terminal restores it from on
    // leaving (xterm.js and xterm: DECSC's; tmux: the alternate screen's own).
    out += via_1049 ? std::string_view("\x1b[?1049h") : std::string_view("\x1b\x37");
    // Back to the plain state the rest of the snapshot draws in.
    writer.to(Style{}, out);
    if (s.charset != 'B') out += "\x1b(B";
  }
  if (via_1049) out += "\x1b[0m\x1b[2J\x1b[H";  // the switch filled it with the saved pen
}

std::string Screen::snapshot(std::size_t scrollback_lines) const {
  std::string out = "\x1b[0m";
  const int cols = size_.cols;
  // The primary screen: scrollback rows, then the screen, as one stream pushed up by the
  // rows after it, so that the scrollback lands in the receiving terminal's own.
  RowStream stream{out, cols};
  std::size_t count = std::min(scrollback_lines, scrollback_.size());
  for (std::size_t i = scrollback_.size() - count; i < scrollback_.size(); ++i) {
    stream.begin(scrollback_[i].wrapped, -1);
    out += scrollback_[i].bytes;
    stream.at_margin = scrollback_[i].ends_at_margin;
  }
  const int rows = primary_.grid.rows();
  for (int row = 0; row < rows; ++row) {
    const Line& line = primary_.grid.line(row);
    bool next_wrapped = row + 1 < rows && primary_.grid.line(row + 1).wrapped;
    stream.begin(line.wrapped && !stream.first, row);
    stream.at_margin = render_row(line, next_wrapped, out);
  }
  draw_fixups(primary_, stream.fixups, out);
  // With the alternate screen on, the primary's saved cursor goes in with the switch.
  render_state(primary_, alternate_screen(), out);

  const Buffer& b = buf();
  if (alternate_screen()) {
    render_screen(*alt_, out);
    render_state(*alt_, false, out);
  }

  if (modes_.origin) out += "\x1b[?6h";
  // The cursor, with its pending wrap: the last cell of its row is drawn again so that
  // the receiving terminal stands past the margin too.
  int row = modes_.origin ? b.y - b.scroll_top : b.y;
  if (b.x >= cols) {
    const Line& line = b.grid.line(b.y);
    int col = cols - 1;
    if (col > 0 && line.cells[static_cast<std::size_t>(col)].width() == 0 &&
        !line.cells[static_cast<std::size_t>(col)].has_content() &&
        line.cells[static_cast<std::size_t>(col - 1)].width() == 2)
      --col;
    cup(out, row, col);
    const Cell& c = line.cells[static_cast<std::size_t>(col)];
    StyleWriter writer{*this, extras_, links_};
    std::u32string chars;
    CellGrid::chars(line, c, chars);
    if (chars.empty()) {
      writer.to(erase_style(c.style), out);
      out += ' ';
    } else {
      writer.to(c.style, out);
      for (char32_t cp : chars) append_utf8(out, static_cast<std::uint32_t>(cp));
    }
    writer.to(Style{}, out);
  } else {
    cup(out, row, b.x);
  }
  if (!modes_.autowrap) out += "\x1b[?7l";
  if (modes_.insert) out += "\x1b[4h";
  if (modes_.newline) out += "\x1b[20h";
  StyleWriter writer{*this, extras_, links_};
  writer.to(pen_, out);
  static constexpr char kDesignate[] = {'(', ')', '*', '+'};
  for (std::size_t g = 0; g < 4; ++g) {
    if (charsets_[g] == 'B') continue;
    out += '\x1b';
    out += kDesignate[g];
    out += charsets_[g];
  }
  if (gl_ == 1) out += '\x0e';
  if (gl_ == 2) out += "\x1bn";
  if (gl_ == 3) out += "\x1bo";
  if (modes_.application_cursor) out += "\x1b[?1h";
  if (modes_.application_keypad) out += "\x1b[?66h";
  if (modes_.reverse_video) out += "\x1b[?5h";
  if (modes_.reverse_wraparound) out += "\x1b[?45h";
  for (int mode : {modes_.mouse_tracking, modes_.mouse_encoding}) {
    if (mode == 0) continue;
    out += "\x1b[?";
    append_number(out, mode);
    out += 'h';
  }
  if (modes_.focus_reporting) out += "\x1b[?1004h";
  if (modes_.bracketed_paste) out += "\x1b[?2004h";
  if (cursor_blink_option_) out += "\x1b[?12h";
  if (cursor_hidden_) out += "\x1b[?25l";
  if (cursor_shape_ != CursorShape::kDefault || cursor_blink_) {
    // 7 is no shape: it only turns blinking on (as 1-6 do for theirs).
    int style = cursor_shape_ == CursorShape::kBlock       ? 2
                : cursor_shape_ == CursorShape::kUnderline ? 4
                : cursor_shape_ == CursorShape::kBar       ? 6
                                                           : 8;
    csi(out, style - (cursor_blink_ ? 1 : 0), ' ');
    out += 'q';
  }
  if (!title_.empty()) {
    out += "\x1b]2;";
    out += title_;
    out += "\x1b\\";
  }
  if (modes_.synchronized_output) out += "\x1b[?2026h";
  return out;
}

ScreenText Screen::text(std::size_t scrollback_lines) const {
  ScreenText out;
  for (const Line& line : scrollback_cells(scrollback_lines))
    out.scrollback.push_back(line_text(line));
  for (int row = 0; row < size_.rows; ++row) out.lines.push_back(line_text(active_->line(row)));
  out.cursor = cursor();
  out.size = size_;
  out.title = title_;
  out.alternate_screen = alternate_screen();
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
