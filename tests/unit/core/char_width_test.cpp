// core::char_width against what the page's Unicode 11 addon says for a few characters of
// each kind. Every code point is checked against the addon itself by
// tests/unit/xterm/char_width.test.mjs; these name the cases a reader cares about.
#include "core/char_width.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

TEST(CharWidth, PrintableAsciiIsOneColumn) {
  for (char32_t cp = 0x20; cp <= 0x7E; ++cp)
    EXPECT_EQ(char_width(cp), 1) << static_cast<unsigned>(cp);
}

// The addon's table says 0 for controls; the screen model executes them instead.
TEST(CharWidth, ControlsAreZero) {
  EXPECT_EQ(char_width(0x00), 0);
  EXPECT_EQ(char_width(0x1B), 0);  // ESC
  EXPECT_EQ(char_width(0x7F), 0);  // DEL
  EXPECT_EQ(char_width(0x9B), 0);  // CSI
  EXPECT_EQ(char_width(0xA0), 1);  // no-break space, the first past C1
}

TEST(CharWidth, WideAndFullwidthAreTwo) {
  EXPECT_EQ(char_width(0x4E00), 2);   // 一, CJK
  EXPECT_EQ(char_width(0xAC00), 2);   // 가, Hangul syllable
  EXPECT_EQ(char_width(0xFF21), 2);   // Ａ, fullwidth
  EXPECT_EQ(char_width(0x3000), 2);   // ideographic space
  EXPECT_EQ(char_width(0x1100), 2);   // Hangul leading jamo
  EXPECT_EQ(char_width(0x20000), 2);  // 𠀀, plane 2 ideograph
  EXPECT_EQ(char_width(0x3FFFD), 2);  // plane 3's last
}

TEST(CharWidth, CombiningAndFormatCharactersAreZero) {
  EXPECT_EQ(char_width(0x0301), 0);   // combining acute accent
  EXPECT_EQ(char_width(0x1160), 0);   // Hangul medial jamo
  EXPECT_EQ(char_width(0x200B), 0);   // zero width space
  EXPECT_EQ(char_width(0x200D), 0);   // zero width joiner
  EXPECT_EQ(char_width(0xFE0E), 0);   // text presentation selector
  EXPECT_EQ(char_width(0xFE0F), 0);   // emoji presentation selector
  EXPECT_EQ(char_width(0xFEFF), 0);   // byte order mark
  EXPECT_EQ(char_width(0xE0100), 0);  // variation selector 17
}

// Unicode 11's emoji: the ones shown as emoji by default are wide, the ones that need
// U+FE0F to look like emoji stay 1 (U+FE0F adds nothing), and what came after Unicode 11
// is not wide at all.
TEST(CharWidth, EmojiAreAsUnicode11Knew) {
  EXPECT_EQ(char_width(0x1F600), 2);  // 😀
  EXPECT_EQ(char_width(0x231A), 2);   // ⌚
  EXPECT_EQ(char_width(0x1F3FB), 2);  // skin tone modifier, on its own
  EXPECT_EQ(char_width(0x2764), 1);   // ❤, text style by default
  EXPECT_EQ(char_width(0x1F1E6), 1);  // regional indicator A
  EXPECT_EQ(char_width(0x1F978), 1);  // 🥸, Unicode 13
}

TEST(CharWidth, UnlistedCodePointsAreOne) {
  EXPECT_EQ(char_width(0x00E9), 1);    // é
  EXPECT_EQ(char_width(0xD800), 1);    // a lone surrogate
  EXPECT_EQ(char_width(0xE000), 1);    // private use
  EXPECT_EQ(char_width(0xFFFD), 1);    // replacement character
  EXPECT_EQ(char_width(0x10FFFF), 1);  // the last code point
  EXPECT_EQ(char_width(0x110000), 1);  // past it, as the addon
}

}  // namespace
}  // namespace wharf::core
