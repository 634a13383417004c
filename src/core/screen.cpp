// The engine's core: printing, the C0/C1 controls, ESC sequences, cursor movement,
// scrolling into the scrollback, saved cursors and resets. Each follows the matching
// xterm.js InputHandler / BufferService method, quirks included (noted where they are
// surprising), because the page's emulator is the screen the user compares with.
#include "core/screen.hpp"

#include <algorithm>
#include <string_view>

#include "core/char_width.hpp"

namespace wharf::core {
namespace {

// The national replacement sets xterm.js knows (ESC ( A, ESC ( K ...): which ASCII
// characters each replaces, and with what.
struct NationalSet {
  char designator;
  std::u32string_view from;
  std::u32string_view to;
};
constexpr NationalSet kNationalSets[] = {
    {'A', U"#", U"£"},
    {'4', U"#@[\\]{|}~", U"£¾i½|¨f¼´"},
    {'C', U"[\\]^`{|}~", U"ÄÖÅÜéäöåü"},
    {'5', U"[\\]^`{|}~", U"ÄÖÅÜéäöåü"},
    {'R', U"#@[\\]{|}~", U"£à°ç§éùè¨"},
    {'Q', U"@[\\]^`{|}~", U"àâçêîôéùèû"},
    {'K', U"@[\\]{|}~", U"§ÄÖÜäöüß"},
    {'Y', U"#@[\\]`{|}~", U"£§°çéùàòèì"},
    {'E', U"@[\\]^`{|}~", U"ÄÆØÅÜäæøåü"},
    {'6', U"@[\\]^`{|}~", U"ÄÆØÅÜäæøåü"},
    {'Z', U"#@[\\]{|}", U"£§¡Ñ¿°ñç"},
    {'H', U"@[\\]^`{|}~", U"ÉÄÖÅÜéäöåü"},
    {'7', U"@[\\]^`{|}~", U"ÉÄÖÅÜéäöåü"},
    {'=', U"#@[\\]^_`{|}~", U"ùàéçêîèôäöüû"},
};

bool known_charset(char designator) {
  if (designator == '0' || designator == 'B') return true;
  for (const NationalSet& set : kNationalSets)
    if (set.designator == designator) return true;
  return false;
}

// What xterm.js draws for an ASCII character in a designated set: DEC special graphics
// (ESC ( 0) or a national set; US ASCII ('B') maps nothing.
char32_t map_charset(char designator, char32_t code) {
  if (designator == 'B') return code;
  if (designator == '0') {
    static constexpr char32_t kGraphics[] = {
        0x25C6, 0x2592, 0x2409, 0x240C, 0x240D, 0x240A, 0x00B0, 0x00B1, 0x2424, 0x240B, 0x2518,
        0x2510, 0x250C, 0x2514, 0x253C, 0x23BA, 0x23BB, 0x2500, 0x23BC, 0x23BD, 0x251C, 0x2524,
        0x2534, 0x252C, 0x2502, 0x2264, 0x2265, 0x03C0, 0x2260, 0x00A3, 0x00B7};  // ` .. ~
    if (code >= 0x60 && code <= 0x7E) return kGraphics[code - 0x60];
    return code;
  }
  for (const NationalSet& set : kNationalSets) {
    if (set.designator != designator) continue;
    std::size_t at = set.from.find(code);
    return at == std::u32string_view::npos ? code : set.to[at];
  }
  return code;
}

}  // namespace

Screen::Buffer::Buffer(TerminalSize size)
    : grid(size.rows, size.cols), scroll_bottom(size.rows - 1), tabs(size.cols, false) {
  for (std::size_t i = 0; i < tabs.size(); i += 8) tabs[i] = true;
}

Screen::Screen(TerminalSize size, std::size_t scrollback_bytes, std::uint64_t first_seq)
    : size_(size),
      scrollback_limit_(scrollback_bytes),
      parser_(*this),
      primary_(size),
      changes_(first_seq, 0) {
  primary_.grid.take_changed();
  primary_.grid.set_stamp(changes_.next_seq());
}

Screen::~Screen() = default;

void Screen::feed(std::string_view bytes) {
  if (bytes.empty()) return;
  bytes_fed_ += bytes.size();
  parser_.feed(bytes);
  end_text();  // xterm.js ends its print at the end of each write
  commit_changes();
}

std::string Screen::take_replies() {
  return std::exchange(replies_, {});
}

void Screen::commit_changes() {
  modes_.scroll_top = buf().scroll_top;
  modes_.scroll_bottom = buf().scroll_bottom;
  bool changed = primary_.grid.take_changed();
  if (alt_) changed = alt_->grid.take_changed() || changed;
  if (!changes_.commit(changed, active_->scrolled(), size_.rows)) return;
  primary_.grid.set_stamp(changes_.next_seq());
  if (alt_) alt_->grid.set_stamp(changes_.next_seq());
}

ScreenChanges Screen::changes_since(std::uint64_t since) const {
  ScreenChanges out;
  out.seq = changes_.seq();
  out.alternate_screen = alternate_screen();
  const CellGrid& g = *active_;
  int rows = g.rows();
  ChangeLog::Redo redo = changes_.since(since, g.scrolled(), rows);
  out.full = redo.full;
  out.scrolled = redo.scrolled;
  // The rows a shift brings in are blank in the reader's copy: still blank, they go unsaid.
  int filled = out.full ? rows : rows - static_cast<int>(out.scrolled);
  for (int row = 0; row < rows; ++row) {
    if (!out.full && g.changed_at(row) <= since) continue;
    std::string text = line_text(g.line(row));
    if (row >= filled && text.empty()) continue;
    out.lines.emplace_back(row, std::move(text));
  }
  return out;
}

CursorState Screen::cursor() const {
  return CursorState{buf().y, buf().x, !cursor_hidden_};
}

// --- printing ---------------------------------------------------------------------------

void Screen::print_ascii(std::string_view run) {
  Buffer& b = buf();
  CellGrid& g = *active_;
  const int cols = size_.cols;
  if (active_charset_ != 'B' || modes_.insert) {
    // Mapped or inserted characters take the general path.
    for (char c : run) {
      char32_t one = static_cast<unsigned char>(c);
      print(std::span<const char32_t>(&one, 1));
    }
    return;
  }
  begin_text();
  std::size_t i = 0;
  while (i < run.size()) {
    if (b.x >= cols) {
      if (modes_.autowrap) {
        b.x = 0;
        wrap_to_next_row();
      } else {
        // Without autowrap every further character lands in the last column.
        b.x = cols - 1;
        i = run.size() - 1;
      }
    }
    Line& line = g.line(b.y);
    std::size_t n = std::min(run.size() - i, static_cast<std::size_t>(cols - b.x));
    bool changed = false;
    Cell* cell = line.cells.data() + b.x;
    for (std::size_t k = 0; k < n; ++k) {
      Cell next{static_cast<unsigned char>(run[i + k]), pen_};
      if (!(cell[k] == next)) {
        cell[k] = next;
        changed = true;
      }
    }
    if (changed) g.touch(b.y);
    b.x += static_cast<int>(n);
    i += n;
  }
  join_width_ = 1;
}

void Screen::print(std::span<const char32_t> run) {
  if (run.empty()) return;
  begin_text();
  Line* row = &active_->line(buf().y);
  for (char32_t code : run) print_code(code, row);
}

// xterm.js repairs wide characters around a run of text it prints: before it, the left
// half of a wide character whose right half the cursor stands on is erased; after it, a
// right half left alone under the cursor. A run is everything printed between two other
// actions (the parser hands text over in pieces; the repairs must not fire between them).
void Screen::begin_text() {
  if (in_text_) return;
  in_text_ = true;
  Buffer& b = buf();
  if (b.x > 0 && b.x <= size_.cols && active_->cell(b.y, b.x - 1).width() == 2)
    active_->set(b.y, b.x - 1, 0, pen_);
}

void Screen::end_text() {
  if (!in_text_) return;
  in_text_ = false;
  Buffer& b = buf();
  if (b.x < size_.cols) {
    const Cell& c = active_->cell(b.y, b.x);
    if (c.width() == 0 && !c.has_content()) active_->set(b.y, b.x, 0, pen_);
  }
}

void Screen::print_code(char32_t code, Line*& row) {
  if (code < 127) code = map_charset(active_charset_, code);
  Buffer& b = buf();
  CellGrid& g = *active_;
  const int cols = size_.cols;
  int width = char_width(code);
  // Unicode 11's join rule: a zero-width character after a printed one joins its cell and
  // takes its width; with nothing to join it gets a cell of its own.
  bool join = width == 0 && join_width_ != 0;
  int old_width = join ? join_width_ : 0;
  if (join) width = old_width;
  join_width_ = width;

  if (b.x + width - old_width > cols) {
    if (modes_.autowrap) {
      int old_y = b.y;
      int old_col = b.x - old_width;
      // The joined character moves with its mark to the next row.
      Line moved;
      if (old_width > 0 && old_col >= 0) {
        const Line& from = g.line(old_y);
        for (int c = old_col; c < old_col + old_width && c < cols; ++c)
          moved.cells.push_back(from.cells[static_cast<std::size_t>(c)]);
        moved.clusters = from.clusters;
      }
      for (int c = std::max(old_col, 0); c < cols; ++c) g.set(old_y, c, 0, pen_);
      b.x = old_width;
      wrap_to_next_row();
      row = &g.line(b.y);
      if (!moved.cells.empty())
        g.copy_cells(b.y, 0, moved, 0, static_cast<int>(moved.cells.size()));
    } else {
      b.x = cols - 1;
      if (width == 2) return;  // a wide character that does not fit is dropped
    }
  }

  if (join && b.x > 0) {
    int at = b.x - 1;
    if (at < cols && row->cells[static_cast<std::size_t>(at)].width() == 0 && at > 0) --at;
    if (at < cols) g.add_to_cell(b.y, at, code, width);
    return;
  }

  if (modes_.insert && b.x < cols) g.insert_cells(b.y, b.x, width - old_width, pen_);
  if (b.x < cols) g.set(b.y, b.x, make_content(static_cast<std::uint32_t>(code), width), pen_);
  // A lone mark past the margin is lost, and the cursor moves on past it as in xterm.js
  // (only a position report shows it); bounded, so that no stream of marks can overflow it.
  if (b.x < cols + kMaxPastMargin) ++b.x;
  for (int w = width; w > 1; --w) {
    if (b.x < cols) g.set(b.y, b.x, kWideTail, pen_);
    ++b.x;
  }
}

// --- controls ---------------------------------------------------------------------------

void Screen::execute(char32_t code) {
  end_text();
  join_width_ = 0;
  switch (code) {
    case 0x07:  // BEL: nothing on the screen
      break;
    case 0x0A:
    case 0x0B:
    case 0x0C:
      line_feed();
      break;
    case 0x0D:
      carriage_return();
      break;
    case 0x08:
      backspace();
      break;
    case 0x09:
      tab();
      break;
    case 0x0E:
      set_gl(1);
      break;
    case 0x0F:
      set_gl(0);
      break;
    case 0x84:  // IND
      index();
      break;
    case 0x85:  // NEL
      buf().x = 0;
      index();
      break;
    case 0x88:  // HTS
      if (buf().x < size_.cols) buf().tabs[static_cast<std::size_t>(buf().x)] = true;
      break;
    default:
      break;
  }
}

// Autowrap: the cursor goes down a row (scrolling at the bottom of the region) and that
// row is marked as continuing the one above.
void Screen::wrap_to_next_row() {
  Buffer& b = buf();
  ++b.y;
  if (b.y == b.scroll_bottom + 1) {
    --b.y;
    scroll(true);
  } else {
    if (b.y >= size_.rows) b.y = size_.rows - 1;
    active_->set_wrapped(b.y, true);
  }
}

void Screen::line_feed() {
  Buffer& b = buf();
  if (modes_.newline) b.x = 0;
  ++b.y;
  if (b.y == b.scroll_bottom + 1) {
    --b.y;
    scroll(false);
  } else if (b.y >= size_.rows) {
    b.y = size_.rows - 1;
  } else {
    active_->set_wrapped(b.y, false);
  }
  if (b.x >= size_.cols) --b.x;
}

void Screen::index() {
  Buffer& b = buf();
  restrict_cursor();
  ++b.y;
  if (b.y == b.scroll_bottom + 1) {
    --b.y;
    scroll(false);
  } else if (b.y >= size_.rows) {
    b.y = size_.rows - 1;
  }
  restrict_cursor();
}

void Screen::reverse_index() {
  Buffer& b = buf();
  restrict_cursor();
  if (b.y == b.scroll_top) {
    active_->scroll_down(b.scroll_top, b.scroll_bottom, 1, erase_pen());
  } else {
    --b.y;
    restrict_cursor();
  }
}

void Screen::backspace() {
  Buffer& b = buf();
  if (!modes_.reverse_wraparound) {
    restrict_cursor();
    if (b.x > 0) --b.x;
    return;
  }
  restrict_cursor(size_.cols);
  if (b.x > 0) {
    --b.x;
  } else if (b.y > b.scroll_top && b.y <= b.scroll_bottom && active_->line(b.y).wrapped) {
    active_->set_wrapped(b.y, false);
    --b.y;
    b.x = size_.cols - 1;
    const Cell& c = active_->cell(b.y, b.x);
    if (c.width() != 0 && !c.has_content()) --b.x;
  }
  restrict_cursor();
}

void Screen::tab() {
  Buffer& b = buf();
  if (b.x >= size_.cols) return;
  int x = b.x;
  while (++x < size_.cols && !b.tabs[static_cast<std::size_t>(x)]) {
  }
  b.x = x >= size_.cols ? size_.cols - 1 : x;
}

void Screen::restrict_cursor(int max_col) {
  Buffer& b = buf();
  if (max_col < 0) max_col = size_.cols - 1;
  b.x = std::clamp(b.x, 0, max_col);
  b.y = modes_.origin ? std::clamp(b.y, b.scroll_top, b.scroll_bottom)
                      : std::clamp(b.y, 0, size_.rows - 1);
}

void Screen::set_cursor(int x, int y) {
  Buffer& b = buf();
  b.x = x;
  b.y = modes_.origin ? b.scroll_top + y : y;
  restrict_cursor();
}

// As xterm.js: the relative move goes through set_cursor, so under origin mode it is
// offset by the scroll region's top as well (a quirk kept so that server and page agree).
void Screen::move_cursor(int dx, int dy) {
  restrict_cursor();
  set_cursor(buf().x + dx, buf().y + dy);
}

// One line up within the scroll region; with the region at the top of the primary
// screen the line leaving goes to the scrollback (also when the region ends above the
// last row, as in xterm.js).
void Screen::scroll(bool wrapped) {
  Buffer& b = buf();
  if (b.scroll_top == 0 && active_buffer_ == &primary_) {
    push_scrollback(primary_.grid.line(0));
    ybase_ = std::min(ybase_ + 1, kPageScrollbackLines);
  }
  active_->scroll_up(b.scroll_top, b.scroll_bottom, 1, erase_pen());
  if (wrapped) active_->set_wrapped(b.scroll_bottom, true);
}

// Lines are rendered as they leave (so the scrollback is bounded in bytes); once the
// bound is reached the oldest go.
void Screen::push_scrollback(const Line& line) {
  ScrollbackRow row;
  if (!scrollback_.empty() && scrollback_bytes_ + 1 + line.cells.size() > scrollback_limit_) {
    // Full: the oldest row goes anyway, and its storage takes the new one.
    row.bytes = std::move(scrollback_.front().bytes);
    scrollback_bytes_ -= row.bytes.size() + 1;
    scrollback_.pop_front();
    ++scrollback_dropped_;
    row.bytes.clear();
  }
  row.ends_at_margin = render_row(line, false, row.bytes);
  row.wrapped = line.wrapped;
  scrollback_bytes_ += row.bytes.size() + 1;
  scrollback_.push_back(std::move(row));
  trim_scrollback();
}

void Screen::trim_scrollback() {
  while (scrollback_bytes_ > scrollback_limit_ && !scrollback_.empty()) {
    scrollback_bytes_ -= scrollback_.front().bytes.size() + 1;
    scrollback_.pop_front();
    ++scrollback_dropped_;
  }
}

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
