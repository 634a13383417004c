#include "core/query_filter.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

std::string run(QueryFilter& filter, std::string_view in) {
  std::string out;
  filter.filter(in, out);
  return out;
}

std::string once(std::string_view in) {
  QueryFilter filter;
  return run(filter, in);
}

// Every byte fed alone: sequences split anywhere come out the same.
std::string bytewise(std::string_view in) {
  QueryFilter filter;
  std::string out;
  for (char c : in) filter.filter(std::string_view(&c, 1), out);
  return out;
}

TEST(QueryFilter, RemovesTheQueriesThePageSilences) {
  for (std::string_view query : {"\x1b[c",
                                 "\x1b[0c",
                                 "\x1b[>c",
                                 "\x1b[>0c",
                                 "\x1b[=c",
                                 "\x1b[5n",
                                 "\x1b[6n",
                                 "\x1b[?6n",
                                 "\x1b[2$p",
                                 "\x1b[?1049$p",
                                 "\x1b[?u",
                                 "\x1b[>q",
                                 "\x1b[>0q",
                                 "\x1b[14t",
                                 "\x1b[18t",
                                 "\x1bP$qm\x1b\\",
                                 "\x1bP+q544e\x1b\\",
                                 "\x1b]11;?\x07",
                                 "\x1b]10;?\x1b\\",
                                 "\x1b]4;1;?\x07",
                                 "\x1b]52;c;?\x07",
                                 "\x1b]52;c;aGVsbG8=\x1b\\",
                                 "\x1bZ",
                                 "\x05"}) {
    EXPECT_EQ(once("a" + std::string(query) + "b"), "ab") << testing::PrintToString(query);
    EXPECT_EQ(bytewise("a" + std::string(query) + "b"), "ab") << testing::PrintToString(query);
  }
}

TEST(QueryFilter, RemovesReportsXtermJsLacks) {
  for (std::string_view query :
       {"\x1b[x", "\x1b[?4m", "\x1b[?1;1S", "\x1b[1$w", "\x1b[1;1;1;1;1;1*y"})
    EXPECT_EQ(once(std::string(query) + "z"), "z") << testing::PrintToString(query);
}

TEST(QueryFilter, PassesWhatIsNotAQuery) {
  const std::string screen =
      "\x1b[31mred\x1b[0m \x1b[2J\x1b[1;1H\x1b[?25l\x1b[?2004h\x1b[>4;2m\x1b[>1u\x1b[22;0t"
      "\x1b[8;30;100t\x1b]0;title\x07\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\"
      "\x1b]11;rgb:00/00/00\x07\x1b]104\x07\x1b(0qq\x1b(B\x1b"
      "7\x1b"
      "8\x1bPq#0;2;0;0;0~-\x1b\\"
      "\x1b_Gf=1;AAAA\x1b\\\x1b[?1$h\x1b[4 q\xe2\x82\xac\r\n";
  EXPECT_EQ(once(screen), screen);
  EXPECT_EQ(bytewise(screen), screen);
}

TEST(QueryFilter, KeepsSequencesSplitAcrossFeeds) {
  QueryFilter filter;
  EXPECT_EQ(run(filter, "one\x1b["), "one");
  EXPECT_EQ(run(filter, "6"), "");
  EXPECT_EQ(run(filter, "nt"), "t");  // the CPR request is gone, the t is text
  EXPECT_EQ(run(filter, "\x1b[3"), "");
  EXPECT_EQ(run(filter, "1mx"), "\x1b[31mx");
}

TEST(QueryFilter, StreamsLongStringsAndCsisInsteadOfHoldingThem) {
  QueryFilter filter;
  std::string sixel = "\x1bPq" + std::string(10000, '~');
  EXPECT_EQ(run(filter, sixel), sixel);
  EXPECT_EQ(run(filter, "\x1b\\after"), "\x1b\\after");
  std::string long_csi = "\x1b[" + std::string(QueryFilter::kMaxHeld + 10, '1');
  EXPECT_EQ(run(filter, long_csi), long_csi);
  EXPECT_EQ(run(filter, "c!"), "c!");  // too long to be one of ours: passed whole
  std::string clipboard = "\x1b]52;c;" + std::string(10000, 'A');
  EXPECT_EQ(run(filter, clipboard), "");
  EXPECT_EQ(run(filter, "\x07ok"), "ok");
}

TEST(QueryFilter, ControlsInsideASequenceStillReachTheTerminal) {
  EXPECT_EQ(once("\x1b[6\rn."), "\r.");
  EXPECT_EQ(once("\x1b[3\x18m"), "\x1b[3\x18m");  // cancelled: passed as it is
  EXPECT_EQ(once("\x1b[6\x1b[1m"), "\x1b[6\x1b[1m");
}

TEST(QueryFilter, AnEscapeEndsAStringAndStartsTheNextSequence) {
  EXPECT_EQ(once("\x1b]11;?\x1b[6n!"), "!");
  EXPECT_EQ(once("\x1b]0;t\x1b[6n!"), "\x1b]0;t!");
  EXPECT_EQ(once("\x1bP$qm\x1b[1m!"), "\x1b[1m!");
}

TEST(QueryFilter, ReadsC1IntroducersAsTheScreenDoes) {
  for (std::string_view query : {"\xc2\x9b"
                                 "6n",
                                 "\xc2\x9b"
                                 ">c",
                                 "\xc2\x9d"
                                 "11;?\x07",
                                 "\xc2\x9d"
                                 "52;c;eA==\xc2\x9c",
                                 "\x1b]10;?\xc2\x9c", "\xc2\x90$qm\x1b\\"}) {
    EXPECT_EQ(once("a" + std::string(query) + "b"), "ab") << testing::PrintToString(query);
    EXPECT_EQ(bytewise("a" + std::string(query) + "b"), "ab") << testing::PrintToString(query);
  }
  const std::string kept =
      "\xc2\x9b"
      "31m\xc2\xa9\xc2\x85\xc2\x9d"
      "0;t\xc2\x9c\xc2\x9b"
      "6\xc2\x9b"
      "1m\xc3\xa9\xc2";
  EXPECT_EQ(once(kept), kept.substr(0, kept.size() - 1));  // the last C2 waits for its pair
  EXPECT_EQ(bytewise(kept), kept.substr(0, kept.size() - 1));
  QueryFilter filter;
  EXPECT_EQ(run(filter, "x\xc2"), "x");
  EXPECT_EQ(run(filter,
                "\x9b"
                "6ny\xc2"),
            "y");
  EXPECT_EQ(run(filter, "\xa9"), "\xc2\xa9");
}

TEST(QueryFilter, RemovesAQueryWithBytesTheScreenSkips) {
  // The screen model drops invalid UTF-8 inside a sequence, so it answers this CPR.
  EXPECT_EQ(once("a\x1b[6\xffnb"), "ab");
  EXPECT_EQ(bytewise("a\x1b[6\xffnb"), "ab");
}

TEST(QueryFilter, HoldsNoMoreThanItsLimit) {
  QueryFilter filter;
  std::string colours = "\x1b]4;1;" + std::string(QueryFilter::kMaxHeld, 'x');
  std::string out;
  for (std::size_t fed = 1; fed <= colours.size(); ++fed) {
    filter.filter(std::string_view(colours).substr(fed - 1, 1), out);
    EXPECT_LE(fed - out.size(), QueryFilter::kMaxHeld);
  }
  EXPECT_EQ(out, colours);  // too long for a query: let through, then streamed
  EXPECT_EQ(run(filter, "?\x07"), "?\x07");
}

TEST(QueryFilter, FollowsTheAlternateScreen) {
  QueryFilter filter;
  EXPECT_FALSE(filter.alternate_screen());
  run(filter, "\x1b[?25;1049h");
  EXPECT_TRUE(filter.alternate_screen());
  run(filter, "\x1b[?1049l");
  EXPECT_FALSE(filter.alternate_screen());
  run(filter, "\x1b[?47h");
  EXPECT_TRUE(filter.alternate_screen());
  filter.reset();
  EXPECT_FALSE(filter.alternate_screen());
}

}  // namespace
}  // namespace wharf::core
