// The engine's core: printing, the C0 and C1 controls, cursor movement and scrolling
// into the scrollback (ESC sequences, saved cursors and resets: screen_esc.cpp). Each follows the
// matching xterm.js InputHandler / BufferService method, quirks included (noted where they are
// surprising), because the page's emulator is the screen the user compares with.
#include "core/screen.hpp"

#include <algorithm>
#include <string_view>

#include "core/char_width.hpp"
#include "core/charsets.hpp"

namespace wharf::core {

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
    case 0x07:  // BEL: nothing on the screen; counted for the notifier
      ++bells_;
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

// One row down, scrolling at the bottom of the region; true when the cursor moved onto
// a row that was already there (neither scrolled in nor held at the last row).
bool Screen::down_a_row() {
  Buffer& b = buf();
  ++b.y;
  if (b.y == b.scroll_bottom + 1) {
    --b.y;
    scroll(false);
    return false;
  }
  if (b.y >= size_.rows) {
    b.y = size_.rows - 1;
    return false;
  }
  return true;
}

void Screen::line_feed() {
  Buffer& b = buf();
  if (modes_.newline) b.x = 0;
  if (down_a_row()) active_->set_wrapped(b.y, false);
  if (b.x >= size_.cols) --b.x;
}

void Screen::index() {
  restrict_cursor();
  down_a_row();
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

}  // namespace wharf::core
