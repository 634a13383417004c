#include "core/cell_grid.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace wharf::core {

CellGrid::CellGrid(int rows, int cols) {
  std::vector<Line> lines(index(rows));
  for (Line& l : lines) l.cells.assign(index(cols), Cell{});
  assign(std::move(lines), cols);
}

void CellGrid::chars(const Line& line, const Cell& cell, std::u32string& out) {
  if (cell.is_cluster()) {
    std::size_t i = cell.code();
    if (i < line.clusters.size()) out += line.clusters[i];
  } else if (cell.code() != 0) {
    out.push_back(static_cast<char32_t>(cell.code()));
  }
}

void CellGrid::chars(int row, const Cell& cell, std::u32string& out) const {
  chars(line(row), cell, out);
}

std::uint32_t CellGrid::intern(Line& l, const std::u32string& cluster) {
  for (std::size_t i = 0; i < l.clusters.size(); ++i)
    if (l.clusters[i] == cluster) return kClusterBit | static_cast<std::uint32_t>(i);
  // Clusters overwritten since are still listed: drop them before the list outgrows the
  // row, so a program rewriting one row with marks for ever cannot grow it.
  if (l.clusters.size() >= std::max<std::size_t>(8, l.cells.size())) compact(l);
  l.clusters.push_back(cluster);
  return kClusterBit | static_cast<std::uint32_t>(l.clusters.size() - 1);
}

void CellGrid::compact(Line& l) {
  std::vector<std::u32string> kept;
  std::vector<std::uint32_t> remap(l.clusters.size(), UINT32_MAX);
  for (Cell& c : l.cells) {
    if (!c.is_cluster()) continue;
    std::size_t i = c.code();
    if (remap[i] == UINT32_MAX) {
      remap[i] = static_cast<std::uint32_t>(kept.size());
      kept.push_back(std::move(l.clusters[i]));
    }
    c.content = (c.content & ~(kCodeMask)) | remap[i];
  }
  l.clusters = std::move(kept);
}

void CellGrid::blank(Line& l, const Style& fill) {
  if (fill == Style{}) {
    // The all-zero cell: a fill the compiler may not see as one.
    std::memset(static_cast<void*>(l.cells.data()), 0, l.cells.size() * sizeof(Cell));
  } else {
    std::fill(l.cells.begin(), l.cells.end(), Cell{0, fill});
  }
  l.clusters.clear();
  l.wrapped = false;
}

bool CellGrid::is_blank(const Line& l) {
  for (const Cell& c : l.cells)
    if (!(c == Cell{})) return false;
  return true;
}

void CellGrid::set_null(Line& l, int col, const Style& fill) {
  l.cells[index(col)] = Cell{0, fill};
}

void CellGrid::set(int row, int col, std::uint32_t content, const Style& style) {
  Line& l = line(row);
  Cell& c = l.cells[index(col)];
  Cell next{content, style};
  if (c == next) return;
  c = next;
  stamp(l);
}

void CellGrid::add_to_cell(int row, int col, char32_t code, int width) {
  Line& l = line(row);
  Cell& c = l.cells[index(col)];
  std::uint32_t content = c.content;
  if (c.is_cluster()) {
    std::u32string cluster = l.clusters[c.code()];
    if (cluster.size() >= kMaxClusterLength) return;  // bounded: further marks are dropped
    cluster.push_back(code);
    content = (content & ~kCodeMask) | (intern(l, cluster) & kCodeMask);
  } else if (c.code() != 0) {
    std::u32string cluster{static_cast<char32_t>(c.code()), code};
    content = (content & ~kCodeMask) | kClusterBit | (intern(l, cluster) & kCodeMask);
  } else {
    content = make_content(static_cast<std::uint32_t>(code), 1);
  }
  if (width != 0)
    content =
        (content & ~(3u << kWidthShift)) | (static_cast<std::uint32_t>(width ^ 1) << kWidthShift);
  c.content = content;
  stamp(l);
}

void CellGrid::copy_cells(int row, int col, const Line& from, int from_col, int n) {
  Line& l = line(row);
  for (int i = 0; i < n; ++i) {
    if (col + i >= cols_ || from_col + i >= static_cast<int>(from.cells.size())) break;
    Cell c = from.cells[index(from_col + i)];
    if (c.is_cluster()) {
      std::uint32_t ref = intern(l, from.clusters[c.code()]);
      c.content = (c.content & ~kCodeMask) | (ref & kCodeMask);
    }
    l.cells[index(col + i)] = c;
  }
  stamp(l);
}

// BufferLine.insertCells: a wide character whose right half is pushed off the row, or
// whose left half sits just before `col`, is erased.
void CellGrid::insert_cells(int row, int col, int n, const Style& fill) {
  Line& l = line(row);
  col %= cols_;
  if (col != 0 && l.cells[index(col - 1)].width() == 2) set_null(l, col - 1, fill);
  auto first = l.cells.begin() + col;
  if (n < cols_ - col) {
    std::move_backward(first, l.cells.end() - n, l.cells.end());
    std::fill(first, first + n, Cell{0, fill});
  } else {
    std::fill(first, l.cells.end(), Cell{0, fill});
  }
  if (l.cells[index(cols_ - 1)].width() == 2) set_null(l, cols_ - 1, fill);
  stamp(l);
}

void CellGrid::delete_cells(int row, int col, int n, const Style& fill) {
  Line& l = line(row);
  col %= cols_;
  auto first = l.cells.begin() + col;
  if (n < cols_ - col) {
    std::move(first + n, l.cells.end(), first);
    std::fill(l.cells.end() - n, l.cells.end(), Cell{0, fill});
  } else {
    std::fill(first, l.cells.end(), Cell{0, fill});
  }
  if (col != 0 && l.cells[index(col - 1)].width() == 2) set_null(l, col - 1, fill);
  const Cell& at = l.cells[index(col)];
  if (at.width() == 0 && !at.has_content()) set_null(l, col, fill);
  stamp(l);
}

void CellGrid::erase_cells(int row, int start, int end, const Style& fill, bool respect_protect) {
  Line& l = line(row);
  end = std::min(end, cols_);
  if (start >= end && !(start > 0 && start < cols_)) {
    // Nothing in range; the wide-character rules below still apply to `start`.
  }
  const Cell erased{0, fill};
  bool changed = false;
  auto protect = [&](int col) {
    return respect_protect && (l.cells[index(col)].style.flags & kProtected) != 0;
  };
  if (start > 0 && start <= cols_ && l.cells[index(start - 1)].width() == 2 &&
      !protect(start - 1)) {
    changed = changed || !(l.cells[index(start - 1)] == erased);
    set_null(l, start - 1, fill);
  }
  if (end < cols_ && end > 0 && l.cells[index(end - 1)].width() == 2 && !protect(end)) {
    changed = changed || !(l.cells[index(end)] == erased);
    set_null(l, end, fill);
  }
  for (int col = std::max(start, 0); col < end; ++col) {
    if (protect(col)) continue;
    Cell& c = l.cells[index(col)];
    if (c == erased) continue;
    c = erased;
    changed = true;
  }
  if (changed) stamp(l);
}

void CellGrid::erase_row(int row, const Style& fill, bool respect_protect) {
  Line& l = line(row);
  if (!respect_protect) {
    const Cell erased{0, fill};
    bool same =
        std::all_of(l.cells.begin(), l.cells.end(), [&](const Cell& c) { return c == erased; });
    bool was_wrapped = l.wrapped;
    blank(l, fill);
    if (!same || was_wrapped) stamp(l);
    return;
  }
  erase_cells(row, 0, cols_, fill, true);
  l.wrapped = false;
}

void CellGrid::set_wrapped(int row, bool wrapped) {
  line(row).wrapped = wrapped;
}

void CellGrid::scroll_up(int top, int bottom, int n, const Style& fill) {
  top = std::max(top, 0);
  bottom = std::min(bottom, rows_ - 1);
  int height = bottom - top + 1;
  if (height <= 0 || n <= 0) return;
  n = std::min(n, height);
  auto first = order_.begin() + top;
  auto last = order_.begin() + bottom + 1;
  std::rotate(first, first + n, last);
  for (int row = bottom - n + 1; row <= bottom; ++row) {
    blank(line(row), fill);
    stamp(line(row));
  }
  if (top == 0 && bottom == rows_ - 1) {
    // The whole screen moved up: the rows that moved keep their stamps.
    scrolled_ += static_cast<std::uint64_t>(n);
  } else {
    for (int row = top; row <= bottom - n; ++row) stamp(line(row));
  }
}

void CellGrid::scroll_down(int top, int bottom, int n, const Style& fill) {
  top = std::max(top, 0);
  bottom = std::min(bottom, rows_ - 1);
  int height = bottom - top + 1;
  if (height <= 0 || n <= 0) return;
  n = std::min(n, height);
  auto first = order_.begin() + top;
  auto last = order_.begin() + bottom + 1;
  std::rotate(first, last - n, last);
  for (int row = top; row <= bottom; ++row) {
    if (row < top + n) blank(line(row), fill);
    stamp(line(row));
  }
}

void CellGrid::assign(std::vector<Line> lines, int cols) {
  store_ = std::move(lines);
  rows_ = static_cast<int>(store_.size());
  cols_ = cols;
  order_.resize(store_.size());
  std::iota(order_.begin(), order_.end(), 0u);
  for (Line& l : store_) {
    l.cells.resize(index(cols), Cell{});
    stamp(l);
  }
}

std::vector<Line> CellGrid::take_lines() {
  std::vector<Line> out;
  out.reserve(store_.size());
  for (int row = 0; row < rows_; ++row) out.push_back(std::move(line(row)));
  store_.clear();
  order_.clear();
  rows_ = 0;
  return out;
}

void CellGrid::crop(int rows, int cols) {
  std::vector<Line> lines = take_lines();
  lines.resize(index(rows));
  for (Line& l : lines) {
    bool cut_wide =
        cols > 0 && index(cols) < l.cells.size() && l.cells[index(cols - 1)].width() == 2;
    l.cells.resize(index(cols), Cell{});
    if (cut_wide) l.cells[index(cols - 1)] = Cell{};
  }
  assign(std::move(lines), cols);
}

}  // namespace wharf::core
