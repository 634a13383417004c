#include "core/cell_grid.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <utility>

#include "core/cell_render.hpp"
#include "core/emulator_guard.hpp"
#include "core/utf8.hpp"

namespace wharf::core {
namespace {

bool is_cluster(std::uint32_t ch) {
  return ch != kWideTail && (ch & kClusterTag) != 0;
}

std::size_t cluster_index(std::uint32_t ch) {
  return static_cast<std::size_t>(ch & ~kClusterTag);
}

cell_render::Pen render_pen(const CellPen& pen, std::uint8_t attrs) {
  cell_render::Pen out;
  out.attrs.bold = (attrs & kAttrBold) != 0;
  out.attrs.underline = static_cast<unsigned>(attrs >> kAttrUnderlineShift) & 3u;
  out.attrs.italic = (attrs & kAttrItalic) != 0;
  out.attrs.blink = (attrs & kAttrBlink) != 0;
  out.attrs.reverse = (attrs & kAttrReverse) != 0;
  out.attrs.strike = (attrs & kAttrStrike) != 0;
  out.fg = pen.fg;
  out.bg = pen.bg;
  return out;
}

void append_column(std::string& out, int col) {
  out += "\x1b[";
  cell_render::append_number(out, col);
  out += 'G';
}

}  // namespace

bool same_pen(const CellPen& a, const CellPen& b) {
  return std::memcmp(&a, &b, sizeof(CellPen)) == 0;
}

CellGrid::CellGrid(int rows, int cols, const CellPen& fill) : rows_(0), cols_(0) {
  resize(rows, cols, fill);
}

std::uint32_t CellGrid::base(int row, const Cell& cell) const {
  if (!is_cluster(cell.ch)) return cell.ch;
  return row_at(row).clusters[cluster_index(cell.ch)][0];
}

void CellGrid::chars(int row, const Cell& cell, std::vector<std::uint32_t>& out) const {
  if (cell.ch == 0 || cell.ch == kWideTail) return;
  if (!is_cluster(cell.ch)) {
    out.push_back(cell.ch);
    return;
  }
  for (std::uint32_t cp : row_at(row).clusters[cluster_index(cell.ch)]) {
    if (cp == 0) break;
    out.push_back(cp);
  }
}

int CellGrid::width(int row, int col) const {
  return col < cols_ - 1 && cell(row, col + 1).ch == kWideTail ? 2 : 1;
}

bool CellGrid::is_eol(int row, int col) const {
  const Row& r = row_at(row);
  for (int c = std::max(col, 0); c < cols_; ++c)
    if (r.cells[index(c)].ch != 0) return false;
  return true;
}

std::uint32_t CellGrid::intern(Row& row, const Cluster& cluster) {
  for (std::size_t i = 0; i < row.clusters.size(); ++i)
    if (row.clusters[i] == cluster) return kClusterTag | static_cast<std::uint32_t>(i);
  // Clusters overwritten since are still listed: drop them before the list outgrows the
  // row, so a program rewriting one row with marks for ever cannot grow it.
  if (row.clusters.size() >= std::max<std::size_t>(8, row.cells.size())) compact(row);
  row.clusters.push_back(cluster);
  return kClusterTag | static_cast<std::uint32_t>(row.clusters.size() - 1);
}

void CellGrid::compact(Row& row) {
  std::vector<Cluster> kept;
  std::vector<std::uint32_t> remap(row.clusters.size(), kWideTail);
  for (Cell& cell : row.cells) {
    if (!is_cluster(cell.ch)) continue;
    std::size_t i = cluster_index(cell.ch);
    if (remap[i] == kWideTail) {
      remap[i] = static_cast<std::uint32_t>(kept.size());
      kept.push_back(row.clusters[i]);
    }
    cell.ch = kClusterTag | remap[i];
  }
  row.clusters = std::move(kept);
}

void CellGrid::blank(Row& row, const CellPen& pen) {
  const Cell erased{0, pen};
  for (Cell& cell : row.cells) std::memcpy(&cell, &erased, sizeof(Cell));
  row.clusters.clear();
}

bool CellGrid::is_blank(const Row& row, const CellPen& pen) {
  const Cell erased{0, pen};
  for (const Cell& cell : row.cells)
    if (std::memcmp(&cell, &erased, sizeof(Cell)) != 0) return false;
  return true;
}

void CellGrid::stamp_rows(int top, int bottom) {
  for (int row = top; row < bottom; ++row) stamp(row_at(row));
}

bool CellGrid::put(int row, int col, const std::uint32_t* chars, int width, const CellPen& pen,
                   bool protect) {
  if (row < 0 || row >= rows_ || col < 0 || col >= cols_) return false;
  Row& r = row_at(row);
  Cell& cell = r.cells[index(col)];
  if (chars[0] == 0) {
    // libvterm writes no pen for an empty glyph, only its protection.
    if (cell.ch != 0) stamp(r);
    cell.ch = 0;
    cell.pen.attrs = static_cast<std::uint8_t>(protect ? cell.pen.attrs | kAttrProtected
                                                       : cell.pen.attrs & ~kAttrProtected);
    return true;
  }
  std::uint32_t ch = chars[0];
  if (kMaxClusterChars > 1 && chars[1] != 0) {
    Cluster cluster{};
    for (int i = 0; i < kMaxClusterChars && chars[i] != 0; ++i) cluster[index(i)] = chars[i];
    ch = intern(r, cluster);
  }
  // Compared before writing: a program redrawing what is on show changes nothing.
  bool changed = cell.ch != ch || !same_pen(cell.pen, pen);
  cell.ch = ch;
  cell.pen = pen;
  if (protect) cell.pen.attrs |= kAttrProtected;
  for (int w = 1; w < width && col + w < cols_; ++w) {
    Cell& tail = r.cells[index(col + w)];
    changed = changed || tail.ch != kWideTail;
    tail.ch = kWideTail;
  }
  if (changed) stamp(r);
  return true;
}

void CellGrid::erase(VTermRect rect, bool selective, const CellPen& pen) {
  int top = std::max(rect.start_row, 0);
  int bottom = std::min(rect.end_row, rows_);
  int left = std::max(rect.start_col, 0);
  int right = std::min(rect.end_col, cols_);
  if (left >= right) return;
  const Cell erased{0, pen};
  for (int row = top; row < bottom; ++row) {
    Row& r = row_at(row);
    if (!selective && left == 0 && right == cols_) {
      // Erasing what is already erased (a clear screen repainting a blank one) is no change.
      if (!is_blank(r, pen)) stamp(r);
      blank(r, pen);
      continue;
    }
    bool changed = false;
    for (int col = left; col < right; ++col) {
      Cell& cell = r.cells[index(col)];
      if (selective && (cell.pen.attrs & kAttrProtected) != 0) continue;
      changed = changed || std::memcmp(&cell, &erased, sizeof(Cell)) != 0;
      cell = erased;
    }
    if (changed) stamp(r);
  }
}

void CellGrid::copy_cells(int dest, int dest_col, int src, int src_col, int n) {
  if (n <= 0) return;
  Row& d = row_at(dest);
  auto at = [](Row& r, int col) { return r.cells.begin() + static_cast<std::ptrdiff_t>(col); };
  if (dest == src) {  // the same row: its clusters stay where they are
    if (dest_col < src_col)
      std::copy(at(d, src_col), at(d, src_col + n), at(d, dest_col));
    else
      std::copy_backward(at(d, src_col), at(d, src_col + n), at(d, dest_col + n));
    return;
  }
  Row& s = row_at(src);
  for (int i = 0; i < n; ++i) {
    Cell cell = s.cells[index(src_col + i)];
    if (is_cluster(cell.ch)) cell.ch = intern(d, s.clusters[cluster_index(cell.ch)]);
    d.cells[index(dest_col + i)] = cell;
  }
}

void CellGrid::scroll(VTermRect rect, int downward, int rightward, const CellPen& pen) {
  rect.start_row = std::max(rect.start_row, 0);
  rect.end_row = std::min(rect.end_row, rows_);
  rect.start_col = std::max(rect.start_col, 0);
  rect.end_col = std::min(rect.end_col, cols_);
  int height = rect.end_row - rect.start_row;
  int width = rect.end_col - rect.start_col;
  if (height <= 0 || width <= 0) return;
  if (std::abs(downward) >= height || std::abs(rightward) >= width) {
    erase(rect, false, pen);  // everything moves out: libvterm just erases
    return;
  }

  if (rightward == 0 && rect.start_col == 0 && rect.end_col == cols_) {
    // Whole rows: rotate the row table, then blank the rows that came in.
    auto first = order_.begin() + rect.start_row;
    auto last = order_.begin() + rect.end_row;
    if (downward > 0) {
      std::rotate(first, first + downward, last);
      for (int row = rect.end_row - downward; row < rect.end_row; ++row) blank(row_at(row), pen);
    } else {
      std::rotate(first, last + downward, last);
      for (int row = rect.start_row; row < rect.start_row - downward; ++row)
        blank(row_at(row), pen);
    }
    if (downward > 0 && rect.start_row == 0 && rect.end_row == rows_) {
      // The whole screen moved up: the rows that moved keep their stamps (a reader
      // shifts its copy by scrolled()), only the ones that came in are new.
      scrolled_ += static_cast<std::uint64_t>(downward);
      stamp_rows(rect.end_row - downward, rect.end_row);
    } else {
      stamp_rows(rect.start_row, rect.end_row);
    }
    return;
  }

  // Part of each row moves: as vterm_scroll_rect, source and destination rectangles.
  VTermRect dest = rect;
  VTermRect src = rect;
  if (rightward >= 0) {
    dest.end_col = rect.end_col - rightward;
    src.start_col = rect.start_col + rightward;
  } else {
    dest.start_col = rect.start_col - rightward;
    src.end_col = rect.end_col + rightward;
  }
  if (downward >= 0) {
    dest.end_row = rect.end_row - downward;
    src.start_row = rect.start_row + downward;
  } else {
    dest.start_row = rect.start_row - downward;
    src.end_row = rect.end_row + downward;
  }
  int n = src.end_col - src.start_col;
  if (downward < 0) {
    for (int row = dest.end_row - 1; row >= dest.start_row; --row)
      copy_cells(row, dest.start_col, row + downward, src.start_col, n);
  } else {
    for (int row = dest.start_row; row < dest.end_row; ++row)
      copy_cells(row, dest.start_col, row + downward, src.start_col, n);
  }

  VTermRect vacated = rect;
  if (downward > 0) vacated.start_row = rect.end_row - downward;
  if (downward < 0) vacated.end_row = rect.start_row - downward;
  if (rightward > 0) vacated.start_col = rect.end_col - rightward;
  if (rightward < 0) vacated.end_col = rect.start_col - rightward;
  erase(vacated, false, pen);
  stamp_rows(rect.start_row, rect.end_row);
}

void CellGrid::resize(int rows, int cols, const CellPen& fill) {
  std::vector<Row> fresh(index(rows));
  for (int row = 0; row < rows; ++row) {
    Row& r = fresh[index(row)];
    if (row < rows_) {
      r = std::move(store_[order(row)]);
      r.cells.resize(index(cols), Cell{0, fill});
    } else {
      r.cells.assign(index(cols), Cell{0, fill});
    }
  }
  for (Row& r : fresh) stamp(r);
  store_ = std::move(fresh);
  order_.resize(index(rows));
  std::iota(order_.begin(), order_.end(), 0u);
  rows_ = rows;
  cols_ = cols;
}

void CellGrid::render(int row, bool with_sgr, bool flip_reverse, std::string& out) const {
  const Row& r = row_at(row);
  const Cell* cells = r.cells.data();
  const std::uint8_t flip = flip_reverse ? kAttrReverse : 0;
  auto base_of = [&r](const Cell& cell) {
    return is_cluster(cell.ch) ? r.clusters[cluster_index(cell.ch)][0] : cell.ch;
  };
  auto is_blank = [&](const Cell& cell) {
    std::uint32_t b = base_of(cell);
    if (b != 0 && b != ' ') return false;
    std::uint8_t attrs = cell.pen.attrs ^ flip;
    return VTERM_COLOR_IS_DEFAULT_BG(&cell.pen.bg) &&
           (attrs & (kAttrReverse | kAttrUnderlineMask | kAttrStrike)) == 0;
  };
  int end = cols_;
  while (end > 0 && is_blank(cells[end - 1])) --end;

  const cell_render::Pen reset = cell_render::default_pen();
  const CellPen plain{reset.fg, reset.bg, 0};
  CellPen current = plain;
  const CellPen* last = nullptr;
  char run[128];  // printable ASCII in the current pen, appended in one go
  std::size_t run_length = 0;
  auto flush = [&] {
    out.append(run, run_length);
    run_length = 0;
  };
  for (int col = 0; col < end; ++col) {
    const Cell& cell = cells[col];
    if (cell.ch == kWideTail) continue;
    // Only a cell whose stored pen differs from the last one's can need an SGR.
    if (with_sgr && (last == nullptr || !same_pen(cell.pen, *last))) {
      last = &cell.pen;
      CellPen pen = cell.pen;
      pen.attrs = static_cast<std::uint8_t>((pen.attrs ^ flip) & ~kAttrProtected);
      if (!same_pen(pen, current)) {
        flush();
        cell_render::append_sgr(out, render_pen(pen, pen.attrs));
        current = pen;
      }
    }
    if (cell.ch < 0x80) {  // the common case: no wide right half, no mark
      run[run_length++] = cell.ch == 0 ? ' ' : static_cast<char>(cell.ch);
      if (run_length == sizeof run) flush();
      continue;
    }
    flush();
    std::uint32_t first = cell.ch;
    if (!is_cluster(cell.ch)) {
      append_utf8(out, cell.ch);
    } else {
      const Cluster& cluster = r.clusters[cluster_index(cell.ch)];
      first = cluster[0];
      for (std::uint32_t cp : cluster) {
        if (cp == 0) break;
        append_utf8(out, cp);
      }
    }
    // A wide character: its right half follows and is skipped.
    if (col + 1 < end && cells[col + 1].ch == kWideTail) ++col;
    // A cell that starts with a mark (printed where no base character preceded it) did
    // not move the cursor when it was printed, so the next character must be placed by
    // absolute column (CHA), or it would land on the mark.
    if (with_sgr && may_be_zero_width(first)) append_column(out, col + 2);
  }
  flush();
  if (with_sgr && !same_pen(current, plain)) out += "\x1b[0m";
}

}  // namespace wharf::core
