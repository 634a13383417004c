#include "core/session_registry.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

SessionId add(SessionRegistry& r, std::int64_t at, std::string program = "bash") {
  auto id = r.add(std::move(program), "/w", at);
  EXPECT_TRUE(id.ok());
  return id.ok() ? id.value() : 0;
}

TEST(SessionRegistry, IdsGrowAndAreNeverReused) {
  SessionRegistry r;
  SessionId a = add(r, 1);
  SessionId b = add(r, 2);
  r.remove(b);
  SessionId c = add(r, 3);
  EXPECT_EQ(a, 1u);
  EXPECT_EQ(b, 2u);
  EXPECT_EQ(c, 3u);
}

TEST(SessionRegistry, DefaultNamesComeFromProgramAndId) {
  SessionRegistry r;
  SessionId id = add(r, 1, "zsh");
  EXPECT_EQ(r.find(id)->name(), "zsh 1");
  ASSERT_TRUE(r.rename(id, "  api server  "));
  EXPECT_EQ(r.find(id)->name(), "api server");
  ASSERT_TRUE(r.rename(id, ""));
  EXPECT_EQ(r.find(id)->name(), "zsh 1");
  EXPECT_FALSE(r.rename(id, "bad\x1bname"));
  EXPECT_FALSE(r.rename(id, std::string(65, 'x')));
  EXPECT_FALSE(r.rename(99, "nobody"));
  EXPECT_EQ(r.find(id)->name(), "zsh 1");
}

TEST(SessionRegistry, RefusesPastTheCapAndSaysSo) {
  SessionRegistry r(2);
  add(r, 1);
  add(r, 2);
  auto third = r.add("bash", "/w", 3);
  ASSERT_FALSE(third.ok());
  EXPECT_NE(third.error().message.find("2 sessions"), std::string::npos);
  r.remove(1);
  EXPECT_TRUE(r.add("bash", "/w", 4).ok());
}

TEST(SessionRegistry, ReorderNeedsAPermutationOfLiveSessions) {
  SessionRegistry r;
  add(r, 1);
  add(r, 2);
  add(r, 3);
  EXPECT_TRUE(r.reorder({3, 1, 2}));
  auto entries = r.entries();
  EXPECT_EQ(entries[0]->id, 3u);
  EXPECT_EQ(entries[2]->id, 2u);
  EXPECT_FALSE(r.reorder({3, 1}));
  EXPECT_FALSE(r.reorder({3, 1, 1}));
  EXPECT_FALSE(r.reorder({3, 1, 2, 4}));
  EXPECT_EQ(r.entries()[0]->id, 3u);  // unchanged by the refusals
}

TEST(SessionRegistry, EndingLandsOnTheRightNeighbourElseTheLeft) {
  SessionRegistry r;
  add(r, 1);
  add(r, 2);
  add(r, 3);
  EXPECT_EQ(r.neighbour(2), 3u);
  EXPECT_EQ(r.neighbour(3), 2u);
  EXPECT_EQ(r.neighbour(1), 2u);
  ASSERT_TRUE(r.reorder({2, 3, 1}));
  EXPECT_EQ(r.neighbour(1), 3u);
  r.remove(2);
  r.remove(3);
  EXPECT_EQ(r.neighbour(1), std::nullopt);
}

TEST(SessionRegistry, LandingPrefersLastViewedThenNewest) {
  SessionRegistry r;
  EXPECT_EQ(r.landing(std::nullopt), std::nullopt);
  add(r, 100);
  add(r, 300);
  add(r, 200);
  EXPECT_EQ(r.landing(1), 1u);
  EXPECT_EQ(r.landing(42), 2u);  // gone: the newest by creation time
  EXPECT_EQ(r.landing(std::nullopt), 2u);
  r.mark_ending(2);
  EXPECT_EQ(r.landing(2), 3u);  // an ending session is no place to land
}

TEST(SessionRegistry, FirstWindowDrivesOthersWatchAndCanTakeOver) {
  SessionRegistry r;
  SessionId s = add(r, 1);
  auto first = r.attach(s, 10);
  EXPECT_EQ(first.gained, 10u);
  auto second = r.attach(s, 20);
  EXPECT_FALSE(second.gained);
  EXPECT_TRUE(r.is_driver(s, 10));
  EXPECT_FALSE(r.is_driver(s, 20));

  auto took = r.take(s, 20);
  EXPECT_EQ(took.lost, 10u);
  EXPECT_EQ(took.gained, 20u);
  EXPECT_TRUE(r.is_driver(s, 20));
  auto back = r.take(s, 10);
  EXPECT_EQ(back.lost, 20u);
  EXPECT_TRUE(r.is_driver(s, 10));

  EXPECT_FALSE(r.take(s, 99).gained);  // not attached: cannot take
  EXPECT_FALSE(r.take(s, 10).gained);  // already driving: nothing changes
}

TEST(SessionRegistry, WhenTheDriverLeavesTheLongestAttachedWatcherDrives) {
  SessionRegistry r;
  SessionId s = add(r, 1);
  r.attach(s, 10);
  r.attach(s, 20);
  r.attach(s, 30);
  auto left = r.detach(s, 10);
  EXPECT_EQ(left.lost, 10u);
  EXPECT_EQ(left.gained, 20u);
  auto watcher_left = r.detach(s, 30);
  EXPECT_FALSE(watcher_left.lost);
  auto last = r.detach(s, 20);
  EXPECT_EQ(last.lost, 20u);
  EXPECT_FALSE(last.gained);
  EXPECT_FALSE(r.find(s)->driver);
  EXPECT_TRUE(r.attach(s, 40).gained);
}

}  // namespace
}  // namespace wharf::core
