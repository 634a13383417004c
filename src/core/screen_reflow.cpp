// Resizing. The primary screen and its scrollback reflow: rows a program wrote as one long
// line (the wrapped flag links them) are joined and cut again at the new width, the
// cursor stays on the same character, and rows pushed off the top go to the scrollback,
// rows freed at the bottom pull lines back down from it, as xterm.js does. No text is
// lost. The alternate screen keeps its top-left cells: full-screen programs redraw on
// SIGWINCH anyway.
//
// The scrollback is kept rendered (see push_scrollback); reflowing decodes its rows back
// into cells with a scratch engine of one row, so the decoding is exactly the inverse of
// the rendering. Only a width change touches the whole scrollback; a height change
// decodes at most a screenful of it.
#include <algorithm>

#include "core/screen.hpp"

namespace wharf::core {
namespace {

struct Logical {
  std::vector<Cell> cells;
  std::vector<std::u32string> clusters;
};

// Appends a row's cells to a logical line, re-pointing its clusters.
void append_cells(Logical& to, const Line& from, int count) {
  for (int i = 0; i < count; ++i) {
    Cell c = from.cells[static_cast<std::size_t>(i)];
    if (c.is_cluster()) {
      to.clusters.push_back(from.clusters[c.code()]);
      c.content = (c.content & ~kCodeMask) | static_cast<std::uint32_t>(to.clusters.size() - 1);
    }
    to.cells.push_back(c);
  }
}

Line row_of(const Logical& from, std::size_t pos, std::size_t n, int cols, bool wrapped) {
  Line row;
  row.cells.assign(static_cast<std::size_t>(cols), Cell{});
  row.wrapped = wrapped;
  for (std::size_t i = 0; i < n; ++i) {
    Cell c = from.cells[pos + i];
    if (c.is_cluster()) {
      row.clusters.push_back(from.clusters[c.code()]);
      c.content = (c.content & ~kCodeMask) | static_cast<std::uint32_t>(row.clusters.size() - 1);
    }
    row.cells[i] = c;
  }
  return row;
}

}  // namespace

Line Screen::import_line(const Screen& from, const Line& line) {
  Line out = line;
  for (Cell& c : out.cells) {
    if (c.style.extra == 0) continue;
    StyleExtra e = from.extras_[c.style.extra];
    if (e.link != 0) e.link = intern_link(from.links_[e.link]);
    c.style.extra = intern_extra(e);
  }
  return out;
}

Line Screen::decode_row(const std::string& bytes, int cols, Screen* tables) const {
  Screen scratch({static_cast<std::uint16_t>(cols), 1}, 0);
  scratch.feed(bytes);
  const Line& out = scratch.primary_.grid.line(0);
  // The scratch's extras mean nothing here: read them through its tables.
  if (tables != nullptr) return tables->import_line(scratch, out);
  Line plain = out;
  for (Cell& c : plain.cells) c.style.extra = 0;
  return plain;
}

std::vector<Line> Screen::scrollback_cells(std::size_t count) const {
  count = std::min(count, scrollback_.size());
  std::vector<Line> out;
  out.reserve(count);
  for (std::size_t i = scrollback_.size() - count; i < scrollback_.size(); ++i) {
    Line line = decode_row(scrollback_[i].bytes, size_.cols, nullptr);
    line.wrapped = scrollback_[i].wrapped;
    out.push_back(std::move(line));
  }
  return out;
}

void Screen::resize(TerminalSize size) {
  size = clamp_size(size.cols, size.rows);
  if (size == size_) return;
  TerminalSize old = size_;
  reflow_primary(size);
  if (alt_) {
    alt_->grid.crop(size.rows, size.cols);
    alt_->x = std::min(alt_->x, static_cast<int>(size.cols) - 1);
    alt_->y = std::min(alt_->y, static_cast<int>(size.rows) - 1);
    alt_->scroll_top = 0;
    alt_->scroll_bottom = size.rows - 1;
    alt_->grid.set_stamp(changes_.next_seq());
  }
  size_ = size;
  reset_tabs(primary_, old.cols < size.cols ? old.cols : size.cols);
  if (alt_) reset_tabs(*alt_, old.cols < size.cols ? old.cols : size.cols);
  primary_.saved.x = std::min(primary_.saved.x, size.cols - 1);
  alt_saved_.x = std::min(alt_saved_.x, size.cols - 1);
  changes_.replace();
  commit_changes();
}

void Screen::reflow_primary(TerminalSize size) {
  const int old_cols = size_.cols;
  const int cols = size.cols;
  const int rows = size.rows;
  Buffer& p = primary_;
  // The rows to reflow: the whole scrollback when the width changes, else only what a
  // taller screen could pull back down.
  std::size_t keep = 0;  // scrollback rows left as they are
  if (cols == old_cols && scrollback_.size() > static_cast<std::size_t>(rows))
    keep = scrollback_.size() - static_cast<std::size_t>(rows);
  // A row continuing one that stays rendered must stay with it.
  while (keep > 0 && keep < scrollback_.size() && scrollback_[keep].wrapped) --keep;
  std::vector<Line> physical;
  for (std::size_t i = keep; i < scrollback_.size(); ++i) {
    Line line = decode_row(scrollback_[i].bytes, old_cols, this);
    line.wrapped = scrollback_[i].wrapped;
    physical.push_back(std::move(line));
  }
  int cursor_row = static_cast<int>(physical.size()) + p.y;
  int cursor_col = p.x;
  // Blank rows below both the cursor and the last written row carry nothing.
  int screen_end = p.y + 1;
  for (int row = size_.rows - 1; row > p.y; --row) {
    if (!CellGrid::is_blank(p.grid.line(row))) {
      screen_end = row + 1;
      break;
    }
  }
  std::vector<Line> screen = p.grid.take_lines();
  for (int row = 0; row < screen_end; ++row)
    physical.push_back(std::move(screen[static_cast<std::size_t>(row)]));

  // Join rows into logical lines and cut them again at the new width.
  std::vector<Line> out;
  int new_cursor_row = -1;
  int new_cursor_col = 0;
  std::size_t i = 0;
  while (i < physical.size()) {
    Logical logical;
    std::size_t cursor_offset = SIZE_MAX;
    std::size_t j = i;
    for (;; ++j) {
      const Line& line = physical[j];
      bool more = j + 1 < physical.size() && physical[j + 1].wrapped;
      int count = static_cast<int>(line.cells.size());
      if (more) {
        // A wide character that did not fit left its row's last cell empty.
        const Line& next = physical[j + 1];
        if (count > 0 && line.cells.back() == Cell{} && !next.cells.empty() &&
            next.cells[0].width() == 2)
          --count;
      } else {
        while (count > 0 && line.cells[static_cast<std::size_t>(count - 1)] == Cell{}) --count;
      }
      if (static_cast<int>(j) == cursor_row)
        cursor_offset = logical.cells.size() + static_cast<std::size_t>(cursor_col);
      append_cells(logical, line, count);
      if (!more) break;
    }
    std::size_t len = logical.cells.size();
    std::size_t pos = 0;
    bool first = true;
    do {
      std::size_t n = std::min(static_cast<std::size_t>(cols), len - pos);
      if (n > 1 && pos + n < len && logical.cells[pos + n - 1].width() == 2)
        --n;  // no room for both halves
      std::size_t row_start = pos;
      out.push_back(row_of(logical, pos, n, cols, !first));
      pos += n;
      first = false;
      if (cursor_offset != SIZE_MAX && new_cursor_row < 0 && (cursor_offset < pos || pos >= len)) {
        new_cursor_row = static_cast<int>(out.size()) - 1;
        std::size_t col = cursor_offset - std::min(cursor_offset, row_start);
        new_cursor_col = static_cast<int>(std::min(col, static_cast<std::size_t>(cols)));
        if (new_cursor_col == cols && cursor_col < old_cols) new_cursor_col = cols - 1;
      }
    } while (pos < len);
    i = j + 1;
  }
  if (new_cursor_row < 0) {
    new_cursor_row = static_cast<int>(out.size());
    new_cursor_col = 0;
  }
  int end = std::max(static_cast<int>(out.size()), new_cursor_row + 1);
  int top = std::max(0, end - rows);

  // Rows above the screen become the scrollback again.
  std::deque<ScrollbackRow> kept(scrollback_.begin(),
                                 scrollback_.begin() + static_cast<std::ptrdiff_t>(keep));
  std::size_t old_count = scrollback_.size();
  scrollback_ = std::move(kept);
  scrollback_bytes_ = 0;
  for (const ScrollbackRow& r : scrollback_) scrollback_bytes_ += r.bytes.size() + 1;
  for (int row = 0; row < top; ++row) push_scrollback(out[static_cast<std::size_t>(row)]);
  ybase_ = std::clamp(ybase_ + static_cast<int>(scrollback_.size()) - static_cast<int>(old_count),
                      0, kPageScrollbackLines);

  std::vector<Line> lines;
  for (int row = top; row < top + rows; ++row) {
    if (row < static_cast<int>(out.size())) {
      lines.push_back(std::move(out[static_cast<std::size_t>(row)]));
    } else {
      Line blank;
      blank.cells.assign(static_cast<std::size_t>(cols), Cell{});
      lines.push_back(std::move(blank));
    }
  }
  if (!lines.empty()) lines.front().wrapped = lines.front().wrapped && top > 0;
  p.grid.set_stamp(changes_.next_seq());
  p.grid.assign(std::move(lines), cols);
  p.x = new_cursor_col;
  p.y = std::clamp(new_cursor_row - top, 0, rows - 1);
  p.scroll_top = 0;
  p.scroll_bottom = rows - 1;
}

}  // namespace wharf::core
