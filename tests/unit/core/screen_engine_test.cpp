// The terminal engine on the points libvterm 0.1.4 got wrong (see issue 11), on reflow,
// and on its bounds. Cell-by-cell agreement with xterm.js on many more streams is
// tests/unit/xterm/engine_agreement.test.mjs's; these pin the behaviour by name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/screen.hpp"

namespace wharf::core {
namespace {

std::string row(const Screen& s, int r) {
  return s.text().lines[static_cast<std::size_t>(r)];
}

// The same screen after a snapshot, as a window that attached now would have it.
std::string replica_text(const Screen& s) {
  Screen copy(s.size());
  copy.feed(s.snapshot());
  std::string out;
  for (const auto& line : copy.text(SIZE_MAX).scrollback) out += line + "\n";
  out += "--\n";
  for (const auto& line : copy.text().lines) out += line + "\n";
  return out;
}

std::string all_text(const Screen& s) {
  std::string out;
  for (const auto& line : s.text(SIZE_MAX).scrollback) out += line + "\n";
  out += "--\n";
  for (const auto& line : s.text().lines) out += line + "\n";
  return out;
}

TEST(Engine, NarrowCharacterOverHalfOfAWideOneClearsTheOtherHalf) {
  Screen s({20, 4});
  s.feed("\xe4\xb8\x80\xe4\xba\x8c");  // 一二: columns 0-1 and 2-3
  s.feed("\x1b[1;2Hx");                // over the right half of 一
  EXPECT_EQ(row(s, 0), " x\xe4\xba\x8c");
  EXPECT_EQ(s.grid().cell(0, 0).width(), 1);
  EXPECT_FALSE(s.grid().cell(0, 0).has_content());
  EXPECT_EQ(replica_text(s), all_text(s));
}

TEST(Engine, WideCharacterAtTheMarginWithoutAutowrapIsDroppedAndTheNextStays) {
  Screen s({5, 2});
  s.feed(
      "\x1b[?7labcd\xe4\xb8\x80"
      "e");
  EXPECT_EQ(row(s, 0), "abcde");  // 一 does not fit and is dropped; e lands in the last column
}

TEST(Engine, SavedCursorInsideTheAlternateScreenLeaves1049sAlone) {
  Screen s({20, 6});
  s.feed(
      "\x1b[3;4H\x1b[?1049h\x1b[5;5H\x1b"
      "7\x1b[1;1Hx\x1b[?1049l");
  EXPECT_EQ(s.cursor().row, 2);
  EXPECT_EQ(s.cursor().col, 3);
}

TEST(Engine, Mode47SwitchesScreensWithoutSavingTheCursor) {
  Screen s({20, 6});
  s.feed("primary\x1b[?47h");
  EXPECT_TRUE(s.alternate_screen());
  EXPECT_EQ(row(s, 0), "");
  s.feed("alt\x1b[?47l");
  EXPECT_FALSE(s.alternate_screen());
  EXPECT_EQ(row(s, 0), "primary");
  EXPECT_EQ(s.cursor().col, 10);  // the cursor comes back from where the alternate left it
}

TEST(Engine, ScoSaveAndRestoreCursor) {
  Screen s({20, 6});
  s.feed("\x1b[2;3H\x1b[s\x1b[5;9H\x1b[u");
  EXPECT_EQ(s.cursor().row, 1);
  EXPECT_EQ(s.cursor().col, 2);
}

TEST(Engine, CursorVisibilityIsTheProgramsAfterLeavingTheAlternateScreen) {
  Screen s({20, 6});
  s.feed("\x1b[?1049h\x1b[?25l\x1b[?1049l");
  EXPECT_FALSE(s.cursor().visible);  // as in xterm.js: visibility is not per screen
  s.feed("\x1b[?25h");
  EXPECT_TRUE(s.cursor().visible);
}

TEST(Engine, SnapshotCarriesEveryAttributeAndLink) {
  Screen s({40, 4});
  s.feed(
      "\x1b[2;8;53;4:3;58:2::1:2:3;38:5:200;48;2;9;8;7m"
      "\x1b]8;id=x;https://example.org/\x1b\\styled\x1b]8;;\x1b\\\x1b[0m plain");
  Screen copy(s.size());
  copy.feed(s.snapshot());
  for (int col = 0; col < 13; ++col) {
    const Cell& a = s.grid().cell(0, col);
    const Cell& b = copy.grid().cell(0, col);
    EXPECT_EQ(a.content, b.content) << col;
    EXPECT_EQ(a.style.fg, b.style.fg) << col;
    EXPECT_EQ(a.style.bg, b.style.bg) << col;
    EXPECT_EQ(a.style.flags, b.style.flags) << col;
    EXPECT_EQ(s.extra(a.style).underline_color, copy.extra(b.style).underline_color) << col;
    EXPECT_EQ(s.link(s.extra(a.style).link), copy.link(copy.extra(b.style).link)) << col;
  }
  const Cell& first = s.grid().cell(0, 0);
  EXPECT_EQ(underline_style(first.style.flags), 3);
  EXPECT_NE(first.style.flags & kFaint, 0);
  EXPECT_NE(first.style.flags & kInvisible, 0);
  EXPECT_NE(first.style.flags & kOverline, 0);
  EXPECT_EQ(s.extra(first.style).underline_color, kColorRgb | 0x010203u);
  EXPECT_EQ(s.link(s.extra(first.style).link).uri, "https://example.org/");
}

TEST(Engine, SnapshotCarriesTabStopsSavedCursorAndPendingWrap) {
  Screen s({10, 4});
  s.feed("\x1b[3g\x1b[1;4H\x1bH\x1b[1;7H\x1bH");  // stops at 3 and 6 only
  s.feed(
      "\x1b[2;5H\x1b[1;31m\x1b"
      "7\x1b[0m");                // saved: row 1, col 4, red bold
  s.feed("\x1b[4;1H0123456789");  // pending wrap on the last row
  Screen copy(s.size());
  copy.feed(s.snapshot());
  EXPECT_EQ(copy.cursor().col, 10);
  EXPECT_EQ(copy.cursor().row, 3);
  copy.feed("\r\tX\tY");
  s.feed("\r\tX\tY");
  EXPECT_EQ(copy.text().lines, s.text().lines);
  copy.feed(
      "\x1b"
      "8Z");
  s.feed(
      "\x1b"
      "8Z");
  EXPECT_EQ(copy.text().lines, s.text().lines);
  EXPECT_EQ(copy.grid().cell(1, 4).style, s.grid().cell(1, 4).style);
}

TEST(Engine, ShrinkingRewrapsInsteadOfCutting) {
  Screen s({20, 5});
  s.feed("abcdefghijklmnopqrst\r\nshort\r\n$ ");
  s.resize({8, 5});
  std::string text = all_text(s);
  EXPECT_NE(text.find("abcdefgh\nijklmnop\nqrst\n"), std::string::npos) << text;
  EXPECT_NE(text.find("short\n$"), std::string::npos) << text;
  EXPECT_EQ(s.cursor().col, 2);
  EXPECT_EQ(row(s, s.cursor().row), "$");
}

TEST(Engine, ShrinkThenGrowGivesTheOriginalTextBack) {
  Screen s({30, 6});
  std::string before;
  s.feed(
      "first line that is long enough to wrap twice here\r\nsecond\r\n"
      "\xe4\xb8\x80\xe4\xb8\x80\xe4\xb8\x80\xe4\xb8\x80\xe4\xb8\x80\xe4\xb8\x80"
      "\xe4\xb8\x80\xe4\xb8\x80\xe4\xb8\x80\xe4\xb8\x80\xe4\xb8\x80\xe4\xb8\x80"
      "\xe4\xb8\x80\xe4\xb8\x80\xe4\xb8\x80\xe4\xb8\x80\r\n$ ");
  before = all_text(s);
  int col = s.cursor().col;
  s.resize({7, 4});
  s.resize({13, 9});
  s.resize({30, 6});
  EXPECT_EQ(all_text(s), before);
  EXPECT_EQ(s.cursor().col, col);
}

TEST(Engine, WideCharacterOnTheWrapBoundaryMovesWhole) {
  Screen s({10, 4});
  s.feed("abcd\xe4\xb8\x80\xe4\xb8\x80");  // abcd一一: 8 columns
  s.resize({5, 4});
  // a b c d fit, 一 does not fit in the one column left: it starts the next row.
  EXPECT_EQ(row(s, 0), "abcd");
  EXPECT_EQ(row(s, 1), "\xe4\xb8\x80\xe4\xb8\x80");
  EXPECT_TRUE(s.grid().line(1).wrapped);
}

TEST(Engine, CursorMidLineStaysOnItsCharacter) {
  Screen s({20, 4});
  s.feed("0123456789abcdefghij\x1b[1;15H");  // on 'e', with the line wrapped... not yet
  s.feed("\x1b[2;1Hklmnop\x1b[1;15H");
  s.resize({10, 6});
  // "0123456789abcdefghij" becomes two rows; 'e' (offset 14) is row 1, column 4.
  EXPECT_EQ(s.cursor().row, 1);
  EXPECT_EQ(s.cursor().col, 4);
}

TEST(Engine, TallerScreenPullsLinesBackFromTheScrollback) {
  Screen s({10, 3});
  s.feed("1\r\n2\r\n3\r\n4\r\n5");
  EXPECT_EQ(s.scrollback_lines(), 2u);
  s.resize({10, 5});
  EXPECT_EQ(s.scrollback_lines(), 0u);
  EXPECT_EQ(row(s, 0), "1");
  EXPECT_EQ(row(s, 4), "5");
  EXPECT_EQ(s.cursor().row, 4);
}

TEST(Engine, AlternateScreenIsAllocatedOnlyWhileUsed) {
  Screen s({200, 50});
  EXPECT_FALSE(s.alternate_screen());
  s.feed("\x1b[?1049hx");
  EXPECT_TRUE(s.alternate_screen());
  s.feed("\x1b[?1049l");
  EXPECT_FALSE(s.alternate_screen());
}

TEST(Engine, HugeParametersAndLongStringsAreBounded) {
  Screen s({20, 5});
  s.feed("\x1b[2147483647;2147483647H");
  EXPECT_EQ(s.cursor().row, 4);
  EXPECT_EQ(s.cursor().col, 19);
  s.feed("x\x1b[999999999999999999b");  // REP far past anything a screen shows
  s.feed("\x1b]2;" + std::string(100000, 't') + "\x07");
  EXPECT_LE(s.title().size(), 256u);
  std::string params = "\x1b[";
  for (int i = 0; i < 10000; ++i) params += "1;";
  s.feed(params + "m");
  s.feed(std::string(5000, '\xcc'));  // combining marks with no end
  const Line& line = s.grid().line(s.cursor().row);
  for (const auto& cluster : line.clusters) EXPECT_LE(cluster.size(), kMaxClusterLength);
}

TEST(Engine, ALongTitleIsCutOnACharacterBoundary) {
  Screen s({20, 2});
  std::string title = "xy";
  for (int i = 0; i < 200; ++i) title += "\xe6\xbc\xa2";  // 漢, three bytes each
  s.feed("\x1b]2;" + title + "\x07");
  EXPECT_EQ(s.title().size(), 254u);  // xy and 84 whole characters: 256 would cut the 85th
  Screen copy(s.size());
  copy.feed(s.snapshot());
  EXPECT_EQ(copy.title(), s.title());
}

TEST(Engine, InvalidUtf8IsDroppedAsThePageDropsIt) {
  Screen s({20, 2});
  s.feed(
      "a\xff"
      "b\xe2\x82"
      "c\xef\xbb\xbf"
      "d");  // a stray byte, a cut sequence, a BOM
  EXPECT_EQ(row(s, 0), "abcd");
}

TEST(Engine, ACharacterCutShortByAsciiIsDroppedWholeEvenInOneFeed) {
  Screen s({20, 2});
  s.feed(
      "x\xe4"
      "AB\xb8\xad");  // a lead byte, ASCII, then the rest of a character
  EXPECT_EQ(row(s, 0), "xAB");
  s.feed(
      "\r\n\xc2"
      "A\xc2\x85"
      "b");                   // C2 cut by A; then U+0085 (NEL) as a control
  EXPECT_EQ(row(s, 0), "A");  // NEL scrolled the two-row screen up
  EXPECT_EQ(row(s, 1), "b");
  EXPECT_EQ(s.cursor().col, 1);
}

// Every input that ever broke an emulator here (tests/fuzz/known), at a few sizes, fed
// whole and in pieces: under the sanitizer build this is where a memory error would show.
TEST(Engine, TakesEveryKnownHostileInput) {
  const std::filesystem::path dir =
      std::filesystem::path(WHARF_FIXTURES_DIR) / ".." / "fuzz" / "known";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const std::string input = bytes.str();
    for (TerminalSize size : {TerminalSize{80, 24}, TerminalSize{2, 1}, TerminalSize{7, 3}}) {
      Screen whole(size, 4096);
      whole.feed(input);
      Screen pieces(size, 4096);
      for (std::size_t at = 0; at < input.size(); at += 3) pieces.feed(input.substr(at, 3));
      Screen copy(size, 4096);
      copy.feed(whole.snapshot());
      EXPECT_EQ(copy.size(), whole.size()) << entry.path();
      EXPECT_LE(whole.scrollback_bytes(), 4096u);
    }
    ++files;
  }
  EXPECT_GT(files, 10);
}

TEST(Engine, RepeatsTheLastPrintedCharacter) {
  Screen s({20, 2});
  s.feed("x\x1b[3b");
  EXPECT_EQ(row(s, 0), "xxxx");
  s.feed("\r\n\x1b[3b");  // nothing printed since the line feed: nothing to repeat
  EXPECT_EQ(row(s, 1), "");
}

}  // namespace
}  // namespace wharf::core
