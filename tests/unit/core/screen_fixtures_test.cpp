// Snapshot fidelity over recorded streams: the real Claude Code, Codex and opencode
// TUIs and hand-written streams (tests/fixtures/screens/manifest.json). Each stream is
// fed to one screen, that screen's snapshot to a fresh one, and the two must agree on
// cells (with colours and attributes), scrollback, cursor, title and modes. Where the
// manifest gives a probe (bytes whose effect depends on invisible state, like the pen
// or the scroll region), the probe is written to both and they must still agree.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <fstream>
#include <ostream>
#include <sstream>

#include "core/screen.hpp"

namespace wharf::core {
namespace {

struct Fixture {
  std::string name;
  std::string bytes;
  TerminalSize size;
  std::string probe;
};

// gtest prints a parameter in test listings (ctest -N); the name, not its bytes.
void PrintTo(const Fixture& fixture, std::ostream* out) {
  *out << fixture.name;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

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
    if (const auto* probe = o.if_contains("probe")) f.probe = std::string(probe->as_string());
    out.push_back(std::move(f));
  }
  return out;
}

void expect_same(const Screen& a, const Screen& b, const std::string& when) {
  EXPECT_EQ(b.snapshot(), a.snapshot()) << when;
  ScreenText ta = a.text(SIZE_MAX);
  ScreenText tb = b.text(SIZE_MAX);
  EXPECT_EQ(tb.lines, ta.lines) << when;
  EXPECT_EQ(tb.scrollback, ta.scrollback) << when;
  EXPECT_EQ(tb.cursor.row, ta.cursor.row) << when;
  EXPECT_EQ(tb.cursor.col, ta.cursor.col) << when;
  EXPECT_EQ(tb.cursor.visible, ta.cursor.visible) << when;
  EXPECT_EQ(tb.title, ta.title) << when;
  EXPECT_EQ(tb.alternate_screen, ta.alternate_screen) << when;
}

class ScreenFixture : public ::testing::TestWithParam<Fixture> {};

TEST_P(ScreenFixture, SnapshotRoundTripIsExact) {
  const Fixture& f = GetParam();
  ASSERT_FALSE(f.bytes.empty()) << f.name;
  Screen original(f.size);
  original.feed(f.bytes);
  Screen replica(f.size);
  replica.feed(original.snapshot());
  expect_same(original, replica, f.name + " after the snapshot");
  if (!f.probe.empty()) {
    original.feed(f.probe);
    replica.feed(f.probe);
    expect_same(original, replica, f.name + " after the probe");
  }
}

INSTANTIATE_TEST_SUITE_P(Recorded, ScreenFixture, ::testing::ValuesIn(fixtures()),
                         [](const auto& param_info) {
                           std::string name = param_info.param.name;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace wharf::core
