// One cell of a terminal screen and the look it is drawn with, as xterm.js (the page's
// emulator) keeps them, so that the server can be compared with the page cell by cell.
//
// A cell is 16 bytes: its content (a code point, or a cluster of code points kept by its
// line, with the cell's width) and its Style (colours, attribute flags, and an index into
// the screen's table of rarer extras: underline colour and hyperlink).
//
// Widths follow xterm.js: 1 for most cells, 2 for the left half of a wide character, 0
// for the right half (which has no content) and for a mark printed where nothing could
// take it (which has content). An erased cell has no content and width 1; it is the
// all-zero Cell, so blanking a row is a fill.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wharf::core {

// Colours: the mode in bits 24-25, the value below (a palette index, or 0xRRGGBB).
inline constexpr std::uint32_t kColorDefault = 0;
inline constexpr std::uint32_t kColorPalette16 = 1u << 24;   // SGR 30-37, 90-97 (bold brightens)
inline constexpr std::uint32_t kColorPalette256 = 2u << 24;  // SGR 38;5;n
inline constexpr std::uint32_t kColorRgb = 3u << 24;         // SGR 38;2;r;g;b
inline constexpr std::uint32_t kColorModeMask = 3u << 24;
inline constexpr std::uint32_t kColorValueMask = 0xFFFFFFu;

// Attribute flags.
inline constexpr std::uint16_t kBold = 1u << 0;
inline constexpr std::uint16_t kFaint = 1u << 1;
inline constexpr std::uint16_t kItalic = 1u << 2;
inline constexpr int kUnderlineShift = 3;  // 3 bits: 0 none, 1 single, 2 double, 3 curly,
                                           // 4 dotted, 5 dashed (SGR 4:n)
inline constexpr std::uint16_t kUnderlineMask = 7u << kUnderlineShift;
inline constexpr std::uint16_t kBlink = 1u << 6;
inline constexpr std::uint16_t kInverse = 1u << 7;
inline constexpr std::uint16_t kInvisible = 1u << 8;
inline constexpr std::uint16_t kStrike = 1u << 9;
inline constexpr std::uint16_t kOverline = 1u << 10;
inline constexpr std::uint16_t kProtected = 1u << 11;  // DECSCA: selective erase skips it

inline int underline_style(std::uint16_t flags) {
  return (flags & kUnderlineMask) >> kUnderlineShift;
}

struct Style {
  std::uint32_t fg = kColorDefault;
  std::uint32_t bg = kColorDefault;
  std::uint16_t flags = 0;
  std::uint16_t extra = 0;  // index into the screen's extras (0: none)

  friend bool operator==(const Style&, const Style&) = default;
};

// What erasing leaves behind: the current background colour and nothing else.
inline Style erase_style(const Style& pen) {
  return Style{kColorDefault, pen.bg, 0, 0};
}

// Cell content: bits 0-20 the code point (or the cluster's index in its line, with
// kClusterBit), bits 21-22 the width XOR 1 (so 0 reads width 1).
inline constexpr std::uint32_t kCodeMask = 0x1FFFFFu;
inline constexpr int kWidthShift = 21;
inline constexpr std::uint32_t kClusterBit = 0x80000000u;
inline constexpr std::size_t kMaxClusterLength = 16;  // code points; further marks are dropped

constexpr std::uint32_t make_content(std::uint32_t code, int width) {
  return code | (static_cast<std::uint32_t>(width ^ 1) << kWidthShift);
}
inline constexpr std::uint32_t kWideTail = make_content(0, 0);  // right half of a wide char

struct Cell {
  std::uint32_t content = 0;
  Style style;

  int width() const { return static_cast<int>((content >> kWidthShift) & 3u) ^ 1; }
  bool has_content() const { return (content & (kCodeMask | kClusterBit)) != 0; }
  bool is_cluster() const { return (content & kClusterBit) != 0; }
  std::uint32_t code() const { return content & kCodeMask; }
  friend bool operator==(const Cell&, const Cell&) = default;
};
static_assert(sizeof(Cell) == 16);

// Underline colour and hyperlink: rare, so kept once per screen and referenced.
struct StyleExtra {
  std::uint32_t underline_color = kColorDefault;
  std::uint32_t link = 0;  // index into the screen's links (0: none)
  friend bool operator==(const StyleExtra&, const StyleExtra&) = default;
};

struct Hyperlink {
  std::string id;  // the program's id= parameter, may be empty
  std::string uri;
  friend bool operator==(const Hyperlink&, const Hyperlink&) = default;
};

// One row: its cells, the clusters they refer to, whether it continues the row above
// (the text wrapped into it), and the stamp of its last change (see Screen).
struct Line {
  std::vector<Cell> cells;
  std::vector<std::u32string> clusters;
  std::uint64_t stamp = 0;
  bool wrapped = false;
};

}  // namespace wharf::core
