// The rows of one screen (primary or alternate) and the row operations xterm.js's
// BufferLine does on them (insert, delete and erase cells, with its rules for wide
// characters cut in half), so that the server's cells match the page's.
//
// Layout: each row is a Line that owns its cells and clusters, and screen rows reach
// them through `order_`, a table from screen row to line. Scrolling a region rotates that
// table (a few integers per row) and blanks the lines that come in: O(cols) per scrolled
// line rather than moving rows x cols cells.
//
// Change tracking (Screen::changes_since): every line carries the stamp of its last
// change, so stamps travel with lines when the table rotates. A rotation of the whole
// screen upward keeps the stamps of the lines that move and counts the lines in
// scrolled(): a reader shifts its copy instead of being sent every row again. Writes that
// leave a cell as it was stamp nothing.
//
// Invariants: every line holds exactly cols() cells; order_ is a permutation; a cluster
// reference points into its own line's cluster list, and that list is compacted before
// it outgrows its line.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "core/cell.hpp"

namespace wharf::core {

class CellGrid {
 public:
  CellGrid(int rows, int cols);

  int rows() const { return rows_; }
  int cols() const { return cols_; }

  Line& line(int row) { return store_[order(row)]; }
  const Line& line(int row) const { return store_[order(row)]; }
  const Cell& cell(int row, int col) const { return line(row).cells[index(col)]; }

  // Appends the code points of a cell (none when it has no content).
  void chars(int row, const Cell& cell, std::u32string& out) const;
  static void chars(const Line& line, const Cell& cell, std::u32string& out);

  // Cell writes. `set` stores content (a code point with its width) and style.
  void set(int row, int col, std::uint32_t content, const Style& style);
  // Adds a code point to the cell's cluster (a combining mark), giving the cell `width`
  // when nonzero (xterm.js's addCodepointToCell).
  void add_to_cell(int row, int col, char32_t code, int width);
  // Copies `n` cells of another line (clusters included) to `col` of `row`.
  void copy_cells(int row, int col, const Line& from, int from_col, int n);

  void insert_cells(int row, int col, int n, const Style& fill);
  void delete_cells(int row, int col, int n, const Style& fill);
  // Erases [start, end) of a row; with respect_protect, protected cells stay.
  void erase_cells(int row, int start, int end, const Style& fill, bool respect_protect = false);
  void erase_row(int row, const Style& fill, bool respect_protect = false);

  // Moves rows [top, bottom] up by n (n lines leave at top, blank lines with `fill`
  // come in at the bottom); scroll_down the other way.
  void scroll_up(int top, int bottom, int n, const Style& fill);
  void scroll_down(int top, int bottom, int n, const Style& fill);
  // Takes the line leaving the top row out (for scrollback) and rotates a blank one in
  // at `bottom`.
  void set_wrapped(int row, bool wrapped);

  // Replaces every row (a resize or reflow); stamps everything.
  void assign(std::vector<Line> lines, int cols);
  // Truncates or extends rows and columns, keeping the top-left cells (the alternate
  // screen's resize); a wide character cut at the right edge is erased.
  void crop(int rows, int cols);
  std::vector<Line> take_lines();

  // Change tracking.
  void set_stamp(std::uint64_t stamp) { stamp_ = stamp; }
  std::uint64_t changed_at(int row) const { return line(row).stamp; }
  bool take_changed() { return std::exchange(changed_, false); }
  std::uint64_t scrolled() const { return scrolled_; }
  void touch(int row) { stamp(line(row)); }

  static bool is_blank(const Line& line);

 private:
  std::size_t order(int row) const { return order_[static_cast<std::size_t>(row)]; }
  static std::size_t index(int i) { return static_cast<std::size_t>(i); }
  void stamp(Line& line) {
    line.stamp = stamp_;
    changed_ = true;
  }
  void blank(Line& line, const Style& fill);
  std::uint32_t intern(Line& line, const std::u32string& cluster);
  static void compact(Line& line);
  // A null cell (no content, width 1) with `fill`.
  void set_null(Line& line, int col, const Style& fill);

  int rows_ = 0;
  int cols_ = 0;
  std::vector<Line> store_;
  std::vector<std::uint32_t> order_;
  std::uint64_t stamp_ = 0;
  std::uint64_t scrolled_ = 0;
  bool changed_ = false;
};

}  // namespace wharf::core
