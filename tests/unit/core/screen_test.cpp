// The screen model: feeding a stream to one screen, then that screen's snapshot to a
// fresh screen of the same size, must give the same cells, cursor, title and modes
// (compared through a second snapshot and the plain text), and terminal queries are
// answered exactly once, by the model.
#include "core/screen.hpp"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

namespace wharf::core {
namespace {

struct Stream {
  const char* name;
  std::string bytes;
  TerminalSize size{80, 24};
};

// gtest prints a parameter in test listings (ctest -N); the name, not its bytes.
void PrintTo(const Stream& stream, std::ostream* out) {
  *out << stream.name;
}

std::string numbered_lines(int n) {
  std::string out;
  for (int i = 1; i <= n; ++i) {
    out += "\x1b[3" + std::to_string(i % 8) + "mline " + std::to_string(i) + "\x1b[0m\r\n";
  }
  return out;
}

std::vector<Stream> streams() {
  return {
      {"plain", "hello\r\nworld"},
      {"colours",
       "\x1b[1;31mred bold\x1b[0m \x1b[38;5;208m256\x1b[0m \x1b[38;2;10;200;30;48;2;1;2;3m"
       "truecolor\x1b[0m \x1b[3;4;7;9mstyles\x1b[0m\x1b[44m   \x1b[0m"},
      {"wide and combining", "\xe4\xb8\xad\xe6\x96\x87 e\xcc\x81 caf\xc3\xa9 \xf0\x9f\x98\x80 |"},
      {"alternate screen",
       "primary text\r\n\x1b[?1049h\x1b[2J\x1b[Halt line 1\x1b[5;10Halt line 5\x1b[?25l"},
      {"scroll region",
       numbered_lines(30) + "\x1b[5;10r\x1b[10;1Hin region\r\nscrolled\r\nagain\x1b[3;1H"},
      {"origin mode", "\x1b[4;12r\x1b[?6h\x1b[2;3Hrel"},
      {"modes",
       "\x1b[?1h\x1b=\x1b[?2004h\x1b[?1004h\x1b[?1002h\x1b[?1006h\x1b[4h\x1b[?7l"
       "\x1b]2;my title\x07\x1b[5 qmodes"},
      {"long scrollback", numbered_lines(3000)},
      {"pen left set", "abc\x1b[1;32;45m"},
      {"narrow", "0123456789abcdefghij0123456789", TerminalSize{10, 5}},
      {"cursor at end", std::string(80, 'x') + "\r\nnext"},
  };
}

class ScreenRoundTrip : public ::testing::TestWithParam<Stream> {};

TEST_P(ScreenRoundTrip, SnapshotRecreatesTheScreen) {
  const Stream& stream = GetParam();
  Screen original(stream.size);
  original.feed(stream.bytes);

  Screen replica(stream.size);
  replica.feed(original.snapshot());

  EXPECT_EQ(replica.snapshot(), original.snapshot());
  ScreenText a = original.text(SIZE_MAX);
  ScreenText b = replica.text(SIZE_MAX);
  EXPECT_EQ(b.lines, a.lines);
  EXPECT_EQ(b.scrollback, a.scrollback);
  EXPECT_EQ(b.cursor.row, a.cursor.row);
  EXPECT_EQ(b.cursor.col, a.cursor.col);
  EXPECT_EQ(b.cursor.visible, a.cursor.visible);
  EXPECT_EQ(b.title, a.title);
  EXPECT_EQ(b.alternate_screen, a.alternate_screen);
  const InputModes& ma = original.modes();
  const InputModes& mb = replica.modes();
  EXPECT_EQ(mb.application_cursor, ma.application_cursor);
  EXPECT_EQ(mb.application_keypad, ma.application_keypad);
  EXPECT_EQ(mb.bracketed_paste, ma.bracketed_paste);
  EXPECT_EQ(mb.focus_reporting, ma.focus_reporting);
  EXPECT_EQ(mb.mouse_tracking, ma.mouse_tracking);
  EXPECT_EQ(mb.mouse_encoding, ma.mouse_encoding);
  EXPECT_EQ(mb.scroll_top, ma.scroll_top);
  EXPECT_EQ(mb.scroll_bottom, ma.scroll_bottom);
  EXPECT_EQ(mb.origin, ma.origin);
  EXPECT_EQ(mb.autowrap, ma.autowrap);
  EXPECT_EQ(mb.insert, ma.insert);
  // Nothing in a snapshot asks the terminal a question.
  EXPECT_EQ(replica.take_replies(), "");
}

INSTANTIATE_TEST_SUITE_P(Streams, ScreenRoundTrip, ::testing::ValuesIn(streams()),
                         [](const auto& param_info) {
                           std::string name = param_info.param.name;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(Screen, TracksTheStateItReports) {
  Screen screen({80, 24});
  screen.feed(
      "\x1b[?1049h\x1b[?2004h\x1b[?1h\x1b[?1000h\x1b[?1006h\x1b]0;agent\x07\x1b[3;7Hx\x1b[?25l");
  EXPECT_TRUE(screen.alternate_screen());
  EXPECT_TRUE(screen.modes().bracketed_paste);
  EXPECT_TRUE(screen.modes().application_cursor);
  EXPECT_EQ(screen.modes().mouse_tracking, 1000);
  EXPECT_EQ(screen.modes().mouse_encoding, 1006);
  EXPECT_EQ(screen.title(), "agent");
  auto text = screen.text();
  EXPECT_EQ(text.lines[2], "      x");
  EXPECT_EQ(text.cursor.row, 2);
  EXPECT_EQ(text.cursor.col, 7);
  EXPECT_FALSE(text.cursor.visible);

  screen.feed(
      "\x1b[?1049l\x1b[?2004l\x1b"
      "c");
  EXPECT_FALSE(screen.alternate_screen());
  EXPECT_FALSE(screen.modes().bracketed_paste);
  EXPECT_FALSE(screen.modes().application_cursor);
  EXPECT_EQ(screen.modes().mouse_tracking, 0);
}

TEST(Screen, ModesSurviveSequencesSplitAcrossFeeds) {
  Screen screen({80, 24});
  std::string seq = "\x1b[?2004h\x1b[5;9r";
  for (char c : seq) screen.feed(std::string_view(&c, 1));
  EXPECT_TRUE(screen.modes().bracketed_paste);
  EXPECT_EQ(screen.modes().scroll_top, 4);
  EXPECT_EQ(screen.modes().scroll_bottom, 8);  // rows 5..9, 0-based inclusive
}

TEST(Screen, AnswersTerminalQueriesOnce) {
  Screen screen({80, 24});
  screen.feed("\x1b[5;10H\x1b[6n");
  EXPECT_EQ(screen.take_replies(), "\x1b[5;10R");
  EXPECT_EQ(screen.take_replies(), "");

  screen.feed("\x1b[c");
  std::string da = screen.take_replies();
  EXPECT_TRUE(da.starts_with("\x1b[?")) << da;
  EXPECT_TRUE(da.ends_with("c")) << da;

  screen.feed("\x1b]11;?\x1b\\");
  EXPECT_EQ(screen.take_replies(), "\x1b]11;rgb:0e0e/1111/1616\x1b\\");

  screen.feed("\x1bP$qm\x1b\\");  // DECRQSS for SGR
  EXPECT_TRUE(screen.take_replies().starts_with("\x1bP1$r")) << "DECRQSS answered";
}

TEST(Screen, ScrollbackIsBoundedInBytes) {
  Screen screen({80, 24}, 64 * 1024);
  screen.feed(numbered_lines(20000));
  EXPECT_LE(screen.scrollback_bytes(), 64u * 1024u);
  EXPECT_GT(screen.scrollback_dropped(), 0u);
  auto text = screen.text(SIZE_MAX);
  ASSERT_FALSE(text.scrollback.empty());
  // The newest lines are kept: the screen holds 19978..20000 and an empty last row.
  EXPECT_EQ(text.scrollback.back(), "line 19977");
  EXPECT_EQ(text.lines[22], "line 20000");
}

TEST(Screen, SnapshotLimitsScrollbackAndCarriesNoClipboardWrites) {
  Screen screen({80, 24});
  screen.feed(numbered_lines(100));
  screen.feed("\x1b]52;c;aGVsbG8=\x07");
  std::string snap = screen.snapshot(10);
  Screen replica({80, 24});
  replica.feed(snap);
  EXPECT_EQ(replica.text(SIZE_MAX).scrollback.size(), 10u);
  EXPECT_EQ(snap.find("\x1b]52"), std::string::npos);
}

TEST(Screen, ResizeChangesTheGrid) {
  Screen screen({80, 24});
  screen.feed("abc");
  screen.resize({40, 10});
  EXPECT_EQ(screen.size(), (TerminalSize{40, 10}));
  EXPECT_EQ(screen.text().lines.size(), 10u);
  EXPECT_EQ(screen.text().lines[0], "abc");
}

TEST(StripSgr, LeavesOnlyText) {
  EXPECT_EQ(strip_sgr("\x1b[0;1;31mred\x1b[0m plain"), "red plain");
}

}  // namespace
}  // namespace wharf::core
