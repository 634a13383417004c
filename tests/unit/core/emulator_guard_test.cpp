#include "core/emulator_guard.hpp"

#include <gtest/gtest.h>

#include "core/screen.hpp"

namespace wharf::core {
namespace {

std::string run(EmulatorGuard& guard, std::string_view in) {
  std::string storage;
  std::vector<std::size_t> entries;
  return std::string(guard.filter(in, storage, entries));
}

TEST(EmulatorGuard, ReportsWhereTheAlternateScreenIsEntered) {
  EmulatorGuard guard(80);
  std::string storage;
  std::vector<std::size_t> entries;
  auto out = guard.filter("ab\x1b[?1049hcd\x1b[?25;47h", storage, entries);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(out.substr(entries[0], 8), "\x1b[?1049h");
  EXPECT_EQ(out.substr(entries[1], 3), "\x1b[?");
  entries.clear();
  out = guard.filter("x\x1b[3bq\x1b[?1049h", storage, entries);  // after a rewrite
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(out.substr(entries[0]), "\x1b[?1049h");
}

TEST(EmulatorGuard, WritesOutTheRepeatedCharacter) {
  EmulatorGuard guard(80);
  EXPECT_EQ(run(guard, "a\x1b[3bz"), "aaaaz");
  EXPECT_EQ(run(guard, "\x1b[b"), "z");  // the previous character carries over feeds
  EXPECT_EQ(run(guard, "\xe6\xbc\xa2\x1b[2b"), "\xe6\xbc\xa2\xe6\xbc\xa2\xe6\xbc\xa2");
}

TEST(EmulatorGuard, DropsARepeatWithNothingToRepeat) {
  EmulatorGuard guard(80);
  EXPECT_EQ(run(guard, "\x1b[b"), "");
  EXPECT_EQ(run(guard, "\xcc\x81\x1b[5bok"), "\xcc\x81ok");  // a lone combining mark
}

TEST(EmulatorGuard, SeesARepeatWithControlsInside) {
  EmulatorGuard guard(80);
  EXPECT_EQ(run(guard,
                "\x1b[\x0f\x0f"
                "b"),
            "");  // nothing to repeat: dropped
  EXPECT_EQ(run(guard,
                "k\x1b[2\x0e"
                "b"),
            "kkk");
  EXPECT_EQ(run(guard,
                "\x1b[\x18"
                "b"),
            "\x1b[\x18"
            "b");                 // cancelled: plain text b
  EmulatorGuard designation(80);  // ESC / [ is a complete escape, not a CSI
  EXPECT_EQ(run(designation, "\x1b/[\xc8\x1b[2J"), "\x1b/[\xef\xbf\xbd\x1b[2J");
  EmulatorGuard fresh(80);
  EXPECT_EQ(run(fresh, "\x1b\x1b[b"), "\x1b");  // ESC ESC [ b is still a REP
}

TEST(EmulatorGuard, CapsTheCountAtOneRow) {
  EmulatorGuard guard(10);
  EXPECT_EQ(run(guard, "x\x1b[99999999b"), "x" + std::string(10, 'x'));
}

TEST(EmulatorGuard, SeesASequenceSplitAcrossFeeds) {
  EmulatorGuard guard(80);
  std::string all;
  for (std::string_view part : {"q\x1b", "[", "2", "b!"}) all += run(guard, part);
  EXPECT_EQ(all, "qqq!");
}

TEST(EmulatorGuard, LeavesEverythingElseAlone) {
  EmulatorGuard guard(80);
  std::string in = "\x1b[1;31mred\x1b[0m \x1b]0;title b\x07 \x1b[?25l \x1b[>0b \x1b(B";
  EXPECT_EQ(run(guard, in), in);
}

TEST(EmulatorGuard, DropsCsiSequencesWithTooManyArguments) {
  EmulatorGuard guard(80);
  EXPECT_EQ(run(guard, "a\x1b[3;" + std::string(40, ':') + "Hb"), "a\x1b[3;" +
                                                                      std::string(14, ':') +
                                                                      "\x18"
                                                                      "b");
  EmulatorGuard split(80);  // cut even when the sequence never ends within the feed
  EXPECT_EQ(run(split, "\x1b[;;;;" + std::string(1, '\0') + std::string(15, ';')),
            "\x1b[" + std::string(15, ';') + "\x18");
  EXPECT_EQ(run(guard, "\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15m"),
            "\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15m");  // 15 separators still fit
}

TEST(EmulatorGuard, ReplacesUtf8CutShortAndKeepsSplitCharactersWhole) {
  EmulatorGuard guard(80);
  EXPECT_EQ(run(guard, "\xc2\x1b[4h"), "\xef\xbf\xbd\x1b[4h");
  std::string all;
  for (std::string_view part : {"a\xe6", "\xbc",
                                "\xa2"
                                "b"})
    all += run(guard, part);
  EXPECT_EQ(all,
            "a\xe6\xbc\xa2"
            "b");
}

TEST(Screen, ARepeatBeforeAnyTextDoesNotHang) {
  Screen screen({80, 24});
  screen.feed("\x1b[b\xcc\x81\x1b[b");  // libvterm alone would loop for ever here
  screen.feed("ab\x1b[3b");
  // (libvterm gives the lone mark no width, so the 'a' lands on top of it.)
  EXPECT_EQ(screen.text().lines[0], "abbbb");
}

}  // namespace
}  // namespace wharf::core
