// Resizing, in xterm.js's two steps so that server and page land on the same screen.
// First the height, on the rows as they are: a taller screen whose cursor is on its last
// row pulls lines back from the scrollback (any other gets blank rows), a shorter one
// drops rows below the cursor first and then sends rows from the top to the scrollback.
// Then, when the width changes, the primary screen reflows: rows a program wrote as one
// long line (the wrapped flag links them) are joined and cut again at the new width, with
// the scrollback, the cursor and the saved cursor staying on their characters. Nothing in
// the scrollback or above the cursor is lost. The alternate screen keeps its top-left
// cells: full-screen programs redraw on SIGWINCH anyway.
//
// The scrollback is kept rendered (see push_scrollback); reflowing decodes its rows back
// into cells with a scratch engine of one row, so the decoding is exactly the inverse of
// the rendering. Only a width change touches the whole scrollback; a height change
// decodes at most the rows it pulls back.
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
  // As xterm.js's Buffer.resize: the height changes first, on the rows as they are; then
  // the primary screen reflows to the new width.
  resize_rows(primary_, size.rows, true);
  if (alt_) resize_rows(*alt_, size.rows, false);
  if (size.cols != old.cols) {
    reflow_primary(size);
    if (alt_) alt_->grid.crop(size.rows, size.cols);
  }
  size_ = size;
  for (Buffer* b : {&primary_, alt_.get()}) {
    if (b == nullptr) continue;
    // Any resize ends a pending wrap, as in xterm.js.
    b->x = std::min(b->x, static_cast<int>(size.cols) - 1);
    b->y = std::min(b->y, static_cast<int>(size.rows) - 1);
    b->scroll_top = 0;
    b->scroll_bottom = size.rows - 1;
    b->grid.set_stamp(changes_.next_seq());
    reset_tabs(*b, old.cols < size.cols ? old.cols : size.cols);
  }
  primary_.saved.x = std::min(primary_.saved.x, size.cols - 1);
  alt_saved_.x = std::min(alt_saved_.x, size.cols - 1);
  changes_.replace();
  commit_changes();
}

// A new height, as xterm.js makes it: taller, a screen whose cursor is on its last row
// pulls lines back from the scrollback, any other gets blank rows at the bottom; shorter,
// rows below the cursor go first, then rows from the top (into the scrollback).
void Screen::resize_rows(Buffer& b, int rows, bool with_scrollback) {
  const int old_rows = b.grid.rows();
  if (rows == old_rows) return;
  const int cols = b.grid.cols();
  std::vector<Line> lines = b.grid.take_lines();
  auto blank = [cols] {
    Line line;
    line.cells.assign(static_cast<std::size_t>(cols), Cell{});
    return line;
  };
  if (rows > old_rows) {
    int add = rows - old_rows;
    std::vector<Line> pulled;
    if (with_scrollback && b.y == old_rows - 1) {
      while (add > 0 && !scrollback_.empty() && ybase_ > 0) {
        const ScrollbackRow& row = scrollback_.back();
        Line line = decode_row(row.bytes, cols, this);
        line.wrapped = row.wrapped;
        pulled.insert(pulled.begin(), std::move(line));
        scrollback_bytes_ -= row.bytes.size() + 1;
        scrollback_.pop_back();
        --ybase_;
        --add;
        ++b.y;
      }
    }
    lines.insert(lines.begin(), std::make_move_iterator(pulled.begin()),
                 std::make_move_iterator(pulled.end()));
    for (int i = 0; i < add; ++i) lines.push_back(blank());
  } else {
    for (int remove = old_rows - rows; remove > 0; --remove) {
      if (static_cast<int>(lines.size()) - 1 > b.y) {
        lines.pop_back();
        continue;
      }
      if (with_scrollback) {
        push_scrollback(lines.front());
        ybase_ = std::min(ybase_ + 1, kPageScrollbackLines);
      }
      lines.erase(lines.begin());
      --b.y;
    }
  }
  if (!lines.empty() && !with_scrollback) lines.front().wrapped = false;
  b.grid.assign(std::move(lines), cols);
  b.y = std::clamp(b.y, 0, rows - 1);
}

// The width changes: every row of the scrollback and the screen is joined into its
// logical line and cut again. The bottom of it all stays the bottom of the screen, as in
// xterm.js; with no scrollback yet, rows that a narrower screen adds push out blank rows
// below the cursor first.
void Screen::reflow_primary(TerminalSize size) {
  const int old_cols = size_.cols;
  const int cols = size.cols;
  const int rows = size.rows;
  Buffer& p = primary_;
  std::vector<Line> physical;
  for (const ScrollbackRow& row : scrollback_) {
    Line line = decode_row(row.bytes, old_cols, this);
    line.wrapped = row.wrapped;
    physical.push_back(std::move(line));
  }
  const bool had_scrollback = !physical.empty();
  // The cursor and the saved cursor keep their characters: each is found in its logical
  // line by offset, and placed again in the rows cut from it.
  struct Mark {
    int row;  // in `physical`, or -1
    int col;
    std::size_t offset = SIZE_MAX;
    int new_row = -1;
    int new_col = 0;
  };
  const int scrollback_rows = static_cast<int>(physical.size());
  int saved_row = scrollback_rows + p.saved.y - ybase_;
  Mark marks[2] = {{scrollback_rows + p.y, p.x}, {saved_row, p.saved.x}};
  std::vector<Line> screen = p.grid.take_lines();
  for (Line& line : screen) physical.push_back(std::move(line));
  if (saved_row < 0 || saved_row >= static_cast<int>(physical.size())) marks[1].row = -1;

  std::vector<Line> out;
  std::size_t i = 0;
  while (i < physical.size()) {
    Logical logical;
    for (Mark& m : marks) m.offset = SIZE_MAX;
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
      for (Mark& m : marks)
        if (static_cast<int>(j) == m.row)
          m.offset = logical.cells.size() + static_cast<std::size_t>(m.col);
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
      for (Mark& m : marks) {
        if (m.offset == SIZE_MAX || m.new_row >= 0 || (m.offset >= pos && pos < len)) continue;
        m.new_row = static_cast<int>(out.size()) - 1;
        std::size_t col = m.offset - std::min(m.offset, row_start);
        m.new_col = static_cast<int>(std::min(col, static_cast<std::size_t>(cols - 1)));
      }
    } while (pos < len);
    i = j + 1;
  }
  Mark& cursor = marks[0];
  if (cursor.new_row < 0) cursor.new_row = std::max(static_cast<int>(out.size()) - 1, 0);
  if (!had_scrollback) {
    // No scrollback yet: extra rows are taken from the blank rows below the cursor.
    while (static_cast<int>(out.size()) > rows &&
           static_cast<int>(out.size()) - 1 > cursor.new_row && CellGrid::is_blank(out.back()))
      out.pop_back();
  }
  int top = std::max(0, static_cast<int>(out.size()) - rows);
  top = std::min(top, cursor.new_row);

  // Rows above the screen become the scrollback again.
  std::size_t old_count = scrollback_.size();
  scrollback_.clear();
  scrollback_bytes_ = 0;
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
  p.x = cursor.new_col;
  p.y = std::clamp(cursor.new_row - top, 0, rows - 1);
  if (marks[1].new_row >= 0) {
    p.saved.y = ybase_ + std::max(marks[1].new_row - top, 0);
    p.saved.x = std::min(marks[1].new_col, cols - 1);
  }
}

}  // namespace wharf::core
