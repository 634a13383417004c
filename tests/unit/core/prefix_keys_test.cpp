#include "core/prefix_keys.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

using Kind = KeyAction::Kind;

// The actions as text, one per entry: the input itself, or the command's letter.
std::vector<std::string> describe(const std::vector<KeyAction>& actions) {
  std::vector<std::string> out;
  for (const KeyAction& a : actions) {
    switch (a.kind) {
      case Kind::kInput:
        out.push_back("input:" + a.input);
        break;
      case Kind::kDetach:
        out.push_back("detach");
        break;
      case Kind::kTake:
        out.push_back("take");
        break;
      case Kind::kRedraw:
        out.push_back("redraw");
        break;
    }
  }
  return out;
}

std::vector<std::string> scan_once(std::string_view keys) {
  PrefixKeys keys_scanner;
  return describe(keys_scanner.scan(keys));
}

using Lines = std::vector<std::string>;

TEST(PrefixKeys, PlainTypingIsOneInput) {
  EXPECT_EQ(scan_once("ls -l\r"), Lines{"input:ls -l\r"});
  EXPECT_EQ(scan_once(""), Lines{});
}

TEST(PrefixKeys, CommandsFollowThePrefix) {
  EXPECT_EQ(scan_once("\x1d"
                      "d"),
            Lines{"detach"});
  EXPECT_EQ(scan_once("\x1d"
                      "t"),
            Lines{"take"});
  EXPECT_EQ(scan_once("\x1d"
                      "r"),
            Lines{"redraw"});
}

TEST(PrefixKeys, InputBeforeACommandGoesFirst) {
  EXPECT_EQ(scan_once("ab\x1d"
                      "tcd\x1d"
                      "re"),
            (Lines{"input:ab", "take", "input:cd", "redraw", "input:e"}));
}

TEST(PrefixKeys, NothingAfterADetachIsScanned) {
  EXPECT_EQ(scan_once("echo\x1d"
                      "dmore\x1d"
                      "t"),
            (Lines{"input:echo", "detach"}));
}

TEST(PrefixKeys, ThePrefixTwiceSendsItself) {
  EXPECT_EQ(scan_once("a\x1d\x1d"
                      "b"),
            Lines{"input:a\x1d"
                  "b"});
}

TEST(PrefixKeys, OtherKeysAfterThePrefixAreSwallowed) {
  EXPECT_EQ(scan_once("a\x1dxb"), Lines{"input:ab"});
  EXPECT_EQ(scan_once("\x1d"
                      "D"),
            Lines{});
}

TEST(PrefixKeys, ThePrefixCarriesOverToTheNextRead) {
  PrefixKeys keys;
  EXPECT_EQ(describe(keys.scan("a\x1d")), Lines{"input:a"});
  EXPECT_EQ(describe(keys.scan("tb")), (Lines{"take", "input:b"}));
  EXPECT_EQ(describe(keys.scan("\x1d")), Lines{});
  EXPECT_EQ(describe(keys.scan("\x1d")), Lines{"input:\x1d"});
  EXPECT_EQ(describe(keys.scan("d")), Lines{"input:d"});
}

}  // namespace
}  // namespace wharf::core
