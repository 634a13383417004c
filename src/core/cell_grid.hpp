// The cells of one terminal screen (primary or alternate), kept by wharf rather than by
// libvterm's screen layer, whose store moves the whole screen in memory for every line
// that scrolls. Screen drives a grid from libvterm's state layer (putglyph, erase,
// scrollrect...) and the grid does what libvterm's screen layer 0.1.4 does with them,
// cell for cell, so that nothing visible changes; only the cost does.
//
// Layout: each row owns its cells (and the code point clusters its cells refer to), and
// the screen's rows are reached through `order_`, a table from screen row to row store.
// A full-width scroll of the screen or of a scroll region rotates that table (a few
// integers per row) and blanks the rows that come in: O(cols) per scrolled line, where
// libvterm moves rows x cols cells. Moves narrower than the screen (ICH/DCH, DECIC/DECDC,
// scrolls inside left/right margins) copy the cells concerned, as libvterm does.
//
// A cell is 16 bytes: one code point (or a reference to a cluster of up to
// kMaxClusterChars code points, for combining characters), and its pen. The right half
// of a wide character holds kWideTail and keeps whatever pen it had, like libvterm.
//
// Change tracking (for readers that want only what changed, see Screen::changes_since):
// each row store carries the stamp of the last change to its cells, so the stamp travels
// with the row when the order table rotates. A rotation of the whole screen upward keeps
// the stamps of the rows that move and counts the lines in scrolled(): a reader shifts
// its copy by that much instead of being sent every row again. Every other move of rows
// (scroll regions, IL/DL, downward scrolls, partial widths) stamps the rows concerned.
// Writes that leave a cell as it was (the same text redrawn, an erase of erased cells)
// stamp nothing, so a program repainting what is already there reports no change.
//
// Invariants: every row holds exactly cols() cells; order_ is a permutation of the row
// stores; a cluster reference always points into its own row's cluster list, and that
// list never grows past a bound proportional to the row (it is compacted first); a row
// whose cells changed since set_stamp(s) carries stamp s.
#pragma once

#include <vterm.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wharf::core {

inline constexpr int kMaxClusterChars = VTERM_MAX_CHARS_PER_CELL;
inline constexpr std::uint32_t kWideTail = 0xFFFFFFFFu;  // libvterm's (uint32_t)-1
inline constexpr std::uint32_t kClusterTag = 0x80000000u;

// Pen attribute bits (a compact VTermScreenCellAttrs; fonts are not kept).
inline constexpr std::uint8_t kAttrBold = 1u << 0;
inline constexpr std::uint8_t kAttrUnderlineShift = 1;  // two bits: VTERM_UNDERLINE_*
inline constexpr std::uint8_t kAttrUnderlineMask = 3u << kAttrUnderlineShift;
inline constexpr std::uint8_t kAttrItalic = 1u << 3;
inline constexpr std::uint8_t kAttrBlink = 1u << 4;
inline constexpr std::uint8_t kAttrReverse = 1u << 5;
inline constexpr std::uint8_t kAttrStrike = 1u << 6;
inline constexpr std::uint8_t kAttrProtected = 1u << 7;  // DECSCA: selective erase skips it

// Colours are kept normalised (only the bytes their type uses are set, the rest zero)
// and the padding is explicit and zero, so two pens are equal exactly when their bytes
// are: the renderer and the blanking loops compare and copy them as plain memory.
struct CellPen {
  VTermColor fg{};
  VTermColor bg{};
  std::uint8_t attrs = 0;
  std::uint8_t padding[3] = {0, 0, 0};
};

struct Cell {
  // 0: erased; kWideTail: right half of a wide character; kClusterTag | i: cluster i of
  // the row; anything else: one code point.
  std::uint32_t ch = 0;
  CellPen pen;
};
static_assert(sizeof(CellPen) == 12 && sizeof(Cell) == 16);

bool same_pen(const CellPen& a, const CellPen& b);

using Cluster = std::array<std::uint32_t, kMaxClusterChars>;  // 0-terminated unless full

class CellGrid {
 public:
  CellGrid(int rows, int cols, const CellPen& fill);

  int rows() const { return rows_; }
  int cols() const { return cols_; }

  const Cell& cell(int row, int col) const { return store_[order(row)].cells[index(col)]; }
  // The first code point of a cell (0 when erased, kWideTail for a right half).
  std::uint32_t base(int row, const Cell& cell) const;
  // Appends the code points of a cell (none for an erased cell or a right half).
  void chars(int row, const Cell& cell, std::vector<std::uint32_t>& out) const;
  // libvterm's width of a cell: 2 when the next one is a right half.
  int width(int row, int col) const;
  // True when no cell from `col` to the end of the row was written (vterm_screen_is_eol).
  bool is_eol(int row, int col) const;

  // The libvterm state layer's operations, with libvterm's screen-layer semantics.
  // `chars` holds 1 to kMaxClusterChars code points, 0-terminated when fewer; `protect`
  // marks the cell for selective erase (DECSCA).
  bool put(int row, int col, const std::uint32_t* chars, int width, const CellPen& pen,
           bool protect = false);
  void erase(VTermRect rect, bool selective, const CellPen& pen);
  void scroll(VTermRect rect, int downward, int rightward, const CellPen& pen);
  // Keeps the top-left cells that still fit; new cells are erased with `fill`.
  void resize(int rows, int cols, const CellPen& fill);

  // Appends a row as the bytes that draw it (see Screen::snapshot): trailing blanks
  // trimmed; with_sgr adds colours and attributes (and a final reset) and absolute
  // column moves where printing alone would misplace a cell. flip_reverse shows the
  // cells as DECSCNM does (libvterm's scrollback lines carry it).
  void render(int row, bool with_sgr, bool flip_reverse, std::string& out) const;

  // Change tracking. Rows changed from now on are stamped with `stamp` (resize() stamps
  // every row).
  void set_stamp(std::uint64_t stamp) { stamp_ = stamp; }
  // The stamp of the last change to the cells now on `row`.
  std::uint64_t changed_at(int row) const { return row_at(row).stamp; }
  // Whether any row was stamped since the last call.
  bool take_changed() { return std::exchange(changed_, false); }
  // Lines the whole grid has scrolled up by rotation (rows keeping their stamps) since
  // it was created; resize() does not reset it.
  std::uint64_t scrolled() const { return scrolled_; }

 private:
  struct Row {
    std::vector<Cell> cells;
    std::vector<Cluster> clusters;
    std::uint64_t stamp = 0;  // of the last change to these cells (see set_stamp)
  };

  std::size_t order(int row) const { return order_[static_cast<std::size_t>(row)]; }
  static std::size_t index(int i) { return static_cast<std::size_t>(i); }
  Row& row_at(int row) { return store_[order(row)]; }
  const Row& row_at(int row) const { return store_[order(row)]; }
  // Stores `cluster` in `row`, reusing an equal one; returns the cell value for it.
  static std::uint32_t intern(Row& row, const Cluster& cluster);
  static void compact(Row& row);
  static void blank(Row& row, const CellPen& pen);
  // True when every cell of `row` is erased with `pen`.
  static bool is_blank(const Row& row, const CellPen& pen);
  void stamp(Row& row) {
    row.stamp = stamp_;
    changed_ = true;
  }
  void stamp_rows(int top, int bottom);
  // Copies cells [src_col, src_col + n) of screen row `src` to `dest` at `dest_col`.
  void copy_cells(int dest, int dest_col, int src, int src_col, int n);

  int rows_;
  int cols_;
  std::vector<Row> store_;
  std::vector<std::uint32_t> order_;  // screen row -> index in store_
  std::uint64_t stamp_ = 0;
  std::uint64_t scrolled_ = 0;
  bool changed_ = false;
};

}  // namespace wharf::core
