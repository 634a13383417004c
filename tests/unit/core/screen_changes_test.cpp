// Screen::changes_since: a reader that kept the rows of an earlier read, shifted them by
// `scrolled` and replaced the rows it was given must have exactly the screen's text now.
// Checked differentially over every fixture, random mixes of them and hand-written streams
// (scrolling, scroll regions with LF and RI, SU/SD, IL/DL, ICH/DCH, margins, erases,
// the alternate screen, resizes, resets, wide and combining characters), cut into random
// pieces with a read after each; then the properties a reader relies on to get little:
// one changed cell gives one row, plain scrolling gives the scroll and the new rows, and
// nothing visible gives no new number.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <fstream>
#include <random>
#include <sstream>

#include "core/screen.hpp"

namespace wharf::core {
namespace {

// What a reader keeps from a read.
struct Copy {
  std::uint64_t seq = 0;
  std::vector<std::string> lines;
};

Copy read_all(const Screen& screen) {
  return Copy{screen.change_seq(), screen.text().lines};
}

// The reader's side: shift, then replace.
std::vector<std::string> applied(std::vector<std::string> lines, const ScreenChanges& changes) {
  if (changes.full) {
    lines.clear();
  } else {
    std::size_t rows = lines.size();
    std::size_t shift = std::min<std::size_t>(changes.scrolled, rows);
    lines.erase(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(shift));
    lines.resize(rows);
  }
  for (const auto& [row, text] : changes.lines) {
    if (static_cast<std::size_t>(row) >= lines.size())
      lines.resize(static_cast<std::size_t>(row) + 1);
    lines[static_cast<std::size_t>(row)] = text;
  }
  return lines;
}

// Catches `copy` up and compares with the screen; returns false on a mismatch.
bool catches_up(const Screen& screen, const ScreenText& now, const Copy& copy,
                const std::string& when) {
  ScreenChanges changes = screen.changes_since(copy.seq);
  int rows = screen.size().rows;
  bool ok = true;
  auto check = [&](bool condition, const std::string& what) {
    if (!condition) {
      ADD_FAILURE() << when << " (since " << copy.seq << ", now " << changes.seq << "): " << what;
      ok = false;
    }
  };
  check(changes.seq == screen.change_seq(), "seq is the screen's");
  check(changes.alternate_screen == now.alternate_screen, "alternate_screen");
  int previous = -1;
  for (const auto& line : changes.lines) {
    check(line.first > previous && line.first < rows, "rows ascending, on the screen");
    previous = line.first;
  }
  if (changes.full) {
    check(changes.lines.size() == static_cast<std::size_t>(rows), "full gives every row");
    check(changes.scrolled == 0, "full scrolls nothing");
  } else {
    check(changes.scrolled < static_cast<std::uint64_t>(rows), "scrolled below a screenful");
    check(copy.lines.size() == static_cast<std::size_t>(rows), "not full after a resize");
  }
  if (!ok) return false;
  std::vector<std::string> got = applied(copy.lines, changes);
  if (got != now.lines) {
    std::string diff;
    for (std::size_t row = 0; row < std::max(got.size(), now.lines.size()); ++row) {
      std::string a = row < got.size() ? got[row] : "<none>";
      std::string b = row < now.lines.size() ? now.lines[row] : "<none>";
      if (a != b) diff += "\n  row " + std::to_string(row) + ": got '" + a + "' want '" + b + "'";
    }
    ADD_FAILURE() << when << " (since " << copy.seq << ", now " << changes.seq << ", full "
                  << changes.full << ", scrolled " << changes.scrolled << ", "
                  << changes.lines.size() << " lines):" << diff;
    return false;
  }
  return true;
}

// Reads after every piece fed and catches up earlier reads: the recent ones and a sample
// of older ones (which are usually too old, and must then be told so).
class Reader {
 public:
  explicit Reader(std::uint32_t seed) : random_(seed) {}

  // False after the first mismatch, so a broken stream reports once.
  bool read(const Screen& screen, const std::string& when) {
    ScreenText text = screen.text();
    Copy now{screen.change_seq(), text.lines};
    if (!recent_.empty()) {
      const Copy& last = recent_.back();
      if (now.seq < last.seq) {
        ADD_FAILURE() << when << ": the number went back, " << last.seq << " -> " << now.seq;
        return false;
      }
      if (now.seq == last.seq && now.lines != last.lines) {
        ADD_FAILURE() << when << ": the text changed under the same number " << now.seq;
        return false;
      }
    }
    for (const Copy& copy : recent_)
      if (!catches_up(screen, text, copy, when)) return false;
    for (const Copy& copy : older_)
      if (!catches_up(screen, text, copy, when + " (an older read)")) return false;
    if (recent_.size() == kRecent) {
      if (random_() % 8 == 0) {
        if (older_.size() == kOlder)
          older_.erase(older_.begin() + static_cast<std::ptrdiff_t>(random_() % kOlder));
        older_.push_back(recent_.front());
      }
      recent_.erase(recent_.begin());
    }
    recent_.push_back(std::move(now));
    return true;
  }

  // Feeds `bytes` in random pieces, reading after each.
  bool feed(Screen& screen, std::string_view bytes, const std::string& name,
            std::size_t max_piece) {
    std::size_t at = 0;
    while (at < bytes.size()) {
      std::size_t n = 1 + random_() % max_piece;
      screen.feed(bytes.substr(at, n));
      at += n;
      if (!read(screen, name + " at byte " + std::to_string(std::min(at, bytes.size()))))
        return false;
    }
    return true;
  }

 private:
  static constexpr std::size_t kRecent = 8;
  static constexpr std::size_t kOlder = 4;
  std::mt19937 random_;
  std::vector<Copy> recent_;
  std::vector<Copy> older_;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

struct Fixture {
  std::string name;
  std::string bytes;
  TerminalSize size;
};

std::vector<Fixture> fixtures() {
  const std::string dir = WHARF_FIXTURES_DIR "/screens/";
  auto manifest = boost::json::parse(read_file(dir + "manifest.json")).as_object();
  std::vector<Fixture> out;
  for (const auto& [name, entry] : manifest) {
    const auto& o = entry.as_object();
    Fixture f;
    f.name = std::string(name);
    f.bytes = read_file(dir + std::string(o.at("file").as_string()));
    f.size = clamp_size(o.at("cols").as_int64(), o.at("rows").as_int64());
    if (const auto* probe = o.if_contains("probe")) f.bytes += std::string(probe->as_string());
    out.push_back(std::move(f));
  }
  return out;
}

TEST(ScreenChangesDifferential, EveryFixtureCatchesUpAtEveryCut) {
  std::vector<Fixture> all = fixtures();
  ASSERT_FALSE(all.empty());
  for (const Fixture& f : all) {
    ASSERT_FALSE(f.bytes.empty()) << f.name;
    Screen screen(f.size);
    Reader reader(11);
    reader.read(screen, f.name + " at the start");
    reader.feed(screen, f.bytes, f.name, 128);
  }
}

// As in cell_grid_test: no resizes inside random mixes (libvterm 0.1.4 misreads some);
// the hand-written streams below resize.
TEST(ScreenChangesDifferential, RandomMixesOfFixturesCatchUp) {
  std::vector<Fixture> all = fixtures();
  std::mt19937 random(20261201);
  for (int mix = 0; mix < 40; ++mix) {
    TerminalSize size{static_cast<std::uint16_t>(10 + random() % 110),
                      static_cast<std::uint16_t>(3 + random() % 40)};
    Screen screen(size);
    Reader reader(static_cast<std::uint32_t>(mix));
    int pieces = 3 + static_cast<int>(random() % 8);
    for (int piece = 0; piece < pieces; ++piece) {
      const Fixture& f = all[random() % all.size()];
      std::size_t from = random() % f.bytes.size();
      std::size_t n = 1 + random() % 4096;
      std::string name =
          "mix " + std::to_string(mix) + " piece " + std::to_string(piece) + " (" + f.name + ")";
      if (!reader.feed(screen, std::string_view(f.bytes).substr(from, n), name, 256)) break;
    }
  }
}

std::string numbered_lines(int from, int to) {
  std::string out;
  for (int i = from; i <= to; ++i) out += "line " + std::to_string(i) + "\r\n";
  return out;
}

std::string fill_screen(int rows, int cols) {
  std::string out = "\x1b[H";
  for (int row = 0; row < rows; ++row) {
    if (row > 0) out += "\r\n";
    for (int col = 0; col < cols; ++col) out += static_cast<char>('a' + (row + col) % 26);
  }
  return out;
}

// A TUI's way: a header and a status line outside a scroll region, output scrolling
// inside it with LF at its bottom, and the status line redrawn as it goes.
std::string region_scrolling(int rows) {
  std::string out = "\x1b[H\x1b[2J\x1b[7mheader\x1b[K\x1b[0m";
  out += "\x1b[2;" + std::to_string(rows - 1) + "r\x1b[" + std::to_string(rows - 1) + ";1H";
  for (int i = 0; i < 40; ++i) {
    out += "\r\noutput " + std::to_string(i);
    out +=
        "\x1b"
        "7\x1b[" +
        std::to_string(rows) + ";1Hstatus " + std::to_string(i % 3) +
        "\x1b[K\x1b"
        "8";
  }
  return out + "\x1b[r";
}

// Lines inserted at the top of a region with RI, as a pager scrolling back does.
std::string region_reverse(int rows) {
  std::string out = fill_screen(rows, 30) + "\x1b[3;" + std::to_string(rows - 2) + "r";
  for (int i = 0; i < 20; ++i) out += "\x1b[3;1H\x1bMback " + std::to_string(i);
  return out + "\x1b[r";
}

struct Step {
  std::string bytes;
  TerminalSize resize{0, 0};
};

struct Script {
  const char* name;
  TerminalSize size;
  std::vector<Step> steps;
};

std::vector<Script> scripts() {
  const std::string full = fill_screen(24, 80);
  const std::string small = fill_screen(8, 20);
  return {
      {"scrolling output", {80, 24}, {{numbered_lines(1, 300)}}},
      {"long lines wrapping",
       {40, 10},
       {{std::string(2000, 'w') + "\r\n" + std::string(999, 'v')}}},
      {"scroll region with LF", {80, 24}, {{region_scrolling(24)}}},
      {"scroll region with RI", {80, 24}, {{region_reverse(24)}}},
      {"scroll region at the top",
       {30, 8},
       {{small + "\x1b[1;5r\x1b[5;1H" + numbered_lines(1, 9)}}},
      {"SU and SD",
       {20, 8},
       {{small + "\x1b[2S\x1b[1T\x1b[41m\x1b[1S\x1b[0m\x1b[3;6r\x1b[2S\x1b[3T\x1b[r\x1b[20S"},
        {small + "\x1b[7S" + small + "\x1b[8S" + small + "\x1b[9T"}}},
      {"IL and DL",
       {20, 8},
       {{small + "\x1b[3;1H\x1b[2L\x1b[5;1H\x1b[1M\x1b[1;1H\x1b[1M\x1b[2;6r\x1b[3;1H\x1b[2L"
                 "\x1b[4M\x1b[r"}}},
      {"ICH, DCH and margins",
       {20, 8},
       {{small + "\x1b[2;3H\x1b[3@ins\x1b[4;2H\x1b[2P\x1b[5;19H\x1b[5@"
                 "\x1b[?69h\x1b[3;12s\x1b[2;6r\x1b[6;3H\n\n\n\x1b[3;4H\x1b[2@\x1b[2'}\x1b[3'~"
                 "\x1b[1S\x1b[1T\x1b[s\x1b[?69l\x1b[r"}}},
      {"erases",
       {80, 24},
       {{full + "\x1b[5;10H\x1b[K\x1b[6;10H\x1b[1K\x1b[7;1H\x1b[2K\x1b[8;5H\x1b[7X"
                "\x1b[44m\x1b[9;40H\x1b[K\x1b[0m\x1b[12;12H\x1b[J\x1b[3;3H\x1b[1J\x1b[2J\x1b[3J"
                "\x1b[H\x1b[1\"qkeep\x1b[0\"q gone\x1b[?2K\x1b[?2J"}}},
      {"alternate screen on and off",
       {40, 10},
       {{numbered_lines(1, 12) + "\x1b[?1049h\x1b[H\x1b[2Jalt one" + numbered_lines(1, 4) +
         "\x1b[?1049lprimary again\r\n\x1b[?47hA47\x1b[?47l\x1b[?1047hB\x1b[?1047l"
         "\x1b[?1049h\x1b[?1049h\x1b[?1049l"}}},
      {"resizes",
       {20, 8},
       {{small},
        {"", {12, 5}},
        {"after\r\n" + numbered_lines(1, 3)},
        {"", {30, 12}},
        {"\x1b[?1049halt\x1b[5;5Hx"},
        {"", {10, 4}},
        {"\x1b[?1049l"},
        {"", {10, 4}},
        {"tail" + numbered_lines(1, 6)}}},
      {"wide and combining characters",
       {12, 6},
       {{"0123456789\xe4\xb8\xad\xe6\x96\x87\r\n01234567890\xe4\xb8\xad|\x1b[3;1H\xe4\xb8\xad\x1b["
         "3;"
         "2Hx\x1b[3;1H\xe4\xb8\xad\x1b[4;1H\xe4\xb8\xad\xe4\xb8\xad\x1b[4;1Hab\x1b[5;"
         "1He\xcc\x81\xcc\x82 q\xcc\x83"
         "\x1b[5;1He\xcc\x81\xcc\x82\x1b[6;1H\xf0\x9f\x98\x80\r\n\xf0\x9f\x98\x80x\r\n"}}},
      {"reset",
       {20, 8},
       {{small +
         "\x1b"
         "c" +
         "after reset" +
         "\x1b[?1049hx\x1b"
         "c" +
         small}}},
      {"repainting the same frame",
       {20, 8},
       {{small + "\x1b[H" + small + "\x1b[2J\x1b[H" + small + "\x1b[3;3Hcdefgh\x1b[K"}}},
      {"double width lines", {20, 8}, {{small + "\x1b[2;1H\x1b#6\x1b[3;1H\x1b#3\x1b[2;1H\x1b#5"}}},
  };
}

TEST(ScreenChangesDifferential, HandWrittenStreamsCatchUp) {
  for (const Script& script : scripts()) {
    for (std::uint32_t seed : {1u, 2u}) {
      Screen screen(script.size);
      Reader reader(seed);
      std::string name = std::string(script.name) + " (seed " + std::to_string(seed) + ")";
      reader.read(screen, name + " at the start");
      bool ok = true;
      for (std::size_t i = 0; ok && i < script.steps.size(); ++i) {
        const Step& step = script.steps[i];
        std::string at = name + " step " + std::to_string(i);
        if (step.resize.cols != 0) {
          screen.resize(step.resize);
          ok = reader.read(screen, at + " (resized)");
        }
        if (ok) ok = reader.feed(screen, step.bytes, at, seed == 1 ? 7 : 64);
      }
    }
  }
}

std::vector<int> rows_of(const ScreenChanges& changes) {
  std::vector<int> out;
  for (const auto& line : changes.lines) out.push_back(line.first);
  return out;
}

TEST(ScreenChanges, OneChangedCellReportsItsRowAlone) {
  Screen screen({80, 24});
  screen.feed(fill_screen(24, 80));
  Copy before = read_all(screen);
  screen.feed("\x1b[10;5HZ\x1b[1;1H");
  ScreenChanges changes = screen.changes_since(before.seq);
  EXPECT_FALSE(changes.full);
  EXPECT_GT(changes.seq, before.seq);
  EXPECT_EQ(changes.scrolled, 0u);
  ASSERT_EQ(changes.lines.size(), 1u);
  EXPECT_EQ(changes.lines[0].first, 9);
  std::string row = before.lines[9];
  row[4] = 'Z';
  EXPECT_EQ(changes.lines[0].second, row);
  EXPECT_EQ(applied(before.lines, changes), screen.text().lines);
}

TEST(ScreenChanges, ScrollingOutputReportsTheScrollAndTheNewRows) {
  Screen screen({80, 24});
  screen.feed(numbered_lines(1, 100));  // rows 0..22 hold lines 78..100; the cursor on row 23
  Copy before = read_all(screen);
  screen.feed(numbered_lines(101, 103));
  ScreenChanges changes = screen.changes_since(before.seq);
  EXPECT_FALSE(changes.full);
  EXPECT_EQ(changes.scrolled, 3u);
  EXPECT_EQ(rows_of(changes), (std::vector<int>{20, 21, 22}));  // 23 came in blank
  EXPECT_EQ(changes.lines[0].second, "line 101");
  EXPECT_EQ(applied(before.lines, changes), screen.text().lines);

  // One line per feed, up to a screenful behind: still a shift and the new rows.
  Copy far = read_all(screen);
  for (int i = 104; i < 104 + 23; ++i) screen.feed(numbered_lines(i, i));
  changes = screen.changes_since(far.seq);
  EXPECT_FALSE(changes.full);
  EXPECT_EQ(changes.scrolled, 23u);
  EXPECT_EQ(applied(far.lines, changes), screen.text().lines);
  // A screenful: everything.
  screen.feed(numbered_lines(200, 200));
  changes = screen.changes_since(far.seq);
  EXPECT_TRUE(changes.full);
  EXPECT_EQ(changes.lines.size(), 24u);
  EXPECT_EQ(applied(far.lines, changes), screen.text().lines);
}

TEST(ScreenChanges, ScrollRegionReportsOnlyTheRegion) {
  Screen screen({80, 24});
  screen.feed(region_scrolling(24));
  screen.feed("\x1b[2;23r\x1b[23;1H");
  Copy before = read_all(screen);
  screen.feed("\r\nmore output");
  ScreenChanges changes = screen.changes_since(before.seq);
  EXPECT_FALSE(changes.full);
  EXPECT_EQ(changes.scrolled, 0u);  // the header did not move
  std::vector<int> rows = rows_of(changes);
  ASSERT_FALSE(rows.empty());
  EXPECT_GE(rows.front(), 1);
  EXPECT_LE(rows.back(), 22);
  EXPECT_EQ(applied(before.lines, changes), screen.text().lines);
}

TEST(ScreenChanges, NothingOnShowChangedKeepsTheNumber) {
  Screen screen({40, 10});
  screen.feed(fill_screen(10, 40));
  std::uint64_t seq = screen.change_seq();
  screen.feed("\x1b[3;4H\x1b[?25l\x1b]2;title\x07\x1b[?2004h\x1b[1;31m\x1b[0m\x1b[5;8r\x1b[r");
  EXPECT_EQ(screen.change_seq(), seq) << "cursor, title, modes and pen";
  screen.feed("\x1b[H" + fill_screen(10, 40));
  EXPECT_EQ(screen.change_seq(), seq) << "the same frame drawn again";
  screen.resize({40, 10});
  EXPECT_EQ(screen.change_seq(), seq) << "a resize to the same size";
  screen.feed("\x1b[2J");
  std::uint64_t cleared = screen.change_seq();
  EXPECT_GT(cleared, seq);
  screen.feed("\x1b[2J\x1b[K\x1b[5X\x1b[J");
  EXPECT_EQ(screen.change_seq(), cleared) << "erasing what is erased";
  EXPECT_EQ(screen.changes_since(cleared).lines.size(), 0u);
}

TEST(ScreenChanges, UnknownOrReplacedGivesEverything) {
  Screen screen({40, 10});
  EXPECT_EQ(screen.change_seq(), 1u);
  EXPECT_TRUE(screen.changes_since(0).full);
  screen.feed("hello");
  std::uint64_t seq = screen.change_seq();
  EXPECT_GT(seq, 1u);
  EXPECT_FALSE(screen.changes_since(seq).full);
  EXPECT_TRUE(screen.changes_since(0).full);
  EXPECT_TRUE(screen.changes_since(seq + 1).full) << "from the future";
  EXPECT_EQ(screen.changes_since(seq + 1).lines.size(), 10u);

  auto full_after = [&](std::string_view bytes) {
    std::uint64_t before = screen.change_seq();
    screen.feed(bytes);
    EXPECT_GT(screen.change_seq(), before) << ::testing::PrintToString(std::string(bytes));
    return screen.changes_since(before).full;
  };
  EXPECT_TRUE(full_after("\x1b[?1049h")) << "alternate screen on";
  EXPECT_TRUE(full_after("\x1b[?1049l")) << "and off";
  EXPECT_TRUE(
      full_after("\x1b"
                 "c"))
      << "reset";
  std::uint64_t before = screen.change_seq();
  screen.resize({30, 8});
  EXPECT_GT(screen.change_seq(), before);
  ScreenChanges changes = screen.changes_since(before);
  EXPECT_TRUE(changes.full) << "resize";
  EXPECT_EQ(changes.lines.size(), 8u);
}

TEST(ScreenChanges, NumbersNeverRepeat) {
  Screen screen({20, 5});
  std::uint64_t last = screen.change_seq();
  for (int i = 0; i < 50; ++i) {
    screen.feed(i % 10 == 9 ? std::string("\x1b[?1049h") : "x" + std::to_string(i) + "\r\n");
    if (i % 7 == 0) screen.resize({static_cast<std::uint16_t>(20 + i % 3), 5});
    if (i % 10 == 9) screen.feed("\x1b[?1049l");
    EXPECT_GT(screen.change_seq(), last) << i;
    last = screen.change_seq();
  }
}

}  // namespace
}  // namespace wharf::core

namespace wharf::core {
namespace {

// A screen numbered from a later start (the app uses the clock) answers a `since` from
// before its start, such as one kept from an earlier daemon's screen, with everything.
TEST(ScreenChanges, ASinceFromBeforeTheFirstStateGetsEverything) {
  Screen screen(TerminalSize{20, 4}, kDefaultScrollbackBytes, 5'000'000);
  EXPECT_EQ(screen.change_seq(), 5'000'000u);
  screen.feed("hello");
  EXPECT_TRUE(screen.changes_since(4'999'999).full);
  EXPECT_TRUE(screen.changes_since(12).full);
  ScreenChanges recent = screen.changes_since(5'000'000);
  EXPECT_FALSE(recent.full);
  ASSERT_EQ(recent.lines.size(), 1u);
  EXPECT_EQ(recent.lines[0].second, "hello");
}

}  // namespace
}  // namespace wharf::core
