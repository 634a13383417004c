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

// Driver grace: the times below are a manual clock, in milliseconds.
constexpr std::int64_t kGrace = 10000;
const std::string kTokenA = "0123456789abcdef0123456789abcdef";
const std::string kTokenB = "fedcba9876543210fedcba9876543210";

TEST(SessionRegistry, ALeavingDriverWithATokenKeepsTheLeaseReserved) {
  SessionRegistry r;
  SessionId s = add(r, 1);
  r.attach(s, 10, kTokenA, 0);
  r.attach(s, 20, kTokenB, 0);
  auto left = r.detach(s, 10, kTokenA, 1000, kGrace);
  EXPECT_FALSE(left.gained);  // the watcher is not promoted
  EXPECT_FALSE(r.is_driver(s, 20));
  EXPECT_EQ(r.find(s)->driver, 10u);  // still the closed window's
  EXPECT_EQ(r.next_expiry(), 1000 + kGrace);
  EXPECT_TRUE(r.expire_reservations(1000 + kGrace - 1).empty());
}

TEST(SessionRegistry, TheSameTokenWithinTheGraceGetsTheLeaseBack) {
  SessionRegistry r;
  SessionId s = add(r, 1);
  r.attach(s, 10, kTokenA, 0);
  r.attach(s, 20, kTokenB, 0);
  r.detach(s, 10, kTokenA, 1000, kGrace);
  auto back = r.attach(s, 11, kTokenA, 1000 + kGrace - 1);
  EXPECT_EQ(back.gained, 11u);
  EXPECT_FALSE(back.lost);
  EXPECT_TRUE(r.is_driver(s, 11));
  EXPECT_FALSE(r.find(s)->reserved);
  EXPECT_FALSE(r.next_expiry());
  EXPECT_TRUE(r.expire_reservations(1000 + 2 * kGrace).empty());
  EXPECT_TRUE(r.is_driver(s, 11));
}

TEST(SessionRegistry, ADifferentTokenOrNoneDoesNotRestoreTheLease) {
  SessionRegistry r;
  SessionId s = add(r, 1);
  r.attach(s, 10, kTokenA, 0);
  r.detach(s, 10, kTokenA, 0, kGrace);
  EXPECT_FALSE(r.attach(s, 11, kTokenB, 5).gained);
  EXPECT_FALSE(r.attach(s, 12, "", 5).gained);
  EXPECT_FALSE(r.is_driver(s, 11));
  EXPECT_FALSE(r.is_driver(s, 12));
  EXPECT_EQ(r.find(s)->driver, 10u);
}

TEST(SessionRegistry, WhenTheGraceRunsOutTheLeasePassesAsWithout) {
  SessionRegistry r;
  SessionId s = add(r, 1);
  r.attach(s, 10, kTokenA, 0);
  r.attach(s, 20, kTokenB, 0);
  r.attach(s, 30, "", 0);
  r.detach(s, 10, kTokenA, 1000, kGrace);
  auto changes = r.expire_reservations(1000 + kGrace);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].first, s);
  EXPECT_EQ(changes[0].second.gained, 20u);  // the window attached longest
  EXPECT_TRUE(r.is_driver(s, 20));
  // The token that comes back too late is only a watcher.
  EXPECT_FALSE(r.attach(s, 11, kTokenA, 1000 + kGrace + 1).gained);
  EXPECT_TRUE(r.is_driver(s, 20));
}

TEST(SessionRegistry, ALateReturnWithNobodyElseDrivesAsTheFirstWindow) {
  SessionRegistry r;
  SessionId s = add(r, 1);
  r.attach(s, 10, kTokenA, 0);
  r.detach(s, 10, kTokenA, 0, kGrace);
  EXPECT_TRUE(r.expire_reservations(kGrace).empty());  // nobody to hand it to
  EXPECT_FALSE(r.find(s)->driver);
  EXPECT_EQ(r.attach(s, 11, kTokenB, kGrace + 1).gained, 11u);
}

TEST(SessionRegistry, AReservationNoticedLateByAnAttachGoesToTheLongestAttached) {
  SessionRegistry r;
  SessionId s = add(r, 1);
  r.attach(s, 10, kTokenA, 0);
  r.attach(s, 20, kTokenB, 0);
  r.detach(s, 10, kTokenA, 0, kGrace);
  auto late = r.attach(s, 11, kTokenA, kGrace);  // expiry not yet run: attach notices
  EXPECT_EQ(late.gained, 20u);
  EXPECT_TRUE(r.is_driver(s, 20));
  EXPECT_FALSE(r.next_expiry());
}

TEST(SessionRegistry, AnExplicitTakeDuringTheGraceWinsAtOnce) {
  SessionRegistry r;
  SessionId s = add(r, 1);
  r.attach(s, 10, kTokenA, 0);
  r.attach(s, 20, kTokenB, 0);
  r.detach(s, 10, kTokenA, 0, kGrace);
  auto taken = r.take(s, 20);
  EXPECT_EQ(taken.gained, 20u);
  EXPECT_TRUE(r.is_driver(s, 20));
  EXPECT_FALSE(r.next_expiry());
  // The reloaded window then comes back as a watcher.
  EXPECT_FALSE(r.attach(s, 11, kTokenA, 5).gained);
  EXPECT_TRUE(r.is_driver(s, 20));
}

TEST(SessionRegistry, NoTokenOrNoGraceHandsTheLeaseOnAtOnce) {
  SessionRegistry r;
  SessionId s = add(r, 1);
  r.attach(s, 10, "", 0);
  r.attach(s, 20, kTokenB, 0);
  EXPECT_EQ(r.detach(s, 10, "", 0, kGrace).gained, 20u);
  r.attach(s, 30, kTokenA, 0);
  EXPECT_EQ(r.detach(s, 20, kTokenB, 0, 0).gained, 30u);
  EXPECT_FALSE(r.next_expiry());
}

TEST(SessionRegistry, ATabBackBeforeItsOldConnectionClosedGetsTheLeaseWhenItDoes) {
  SessionRegistry r;
  SessionId s = add(r, 1);
  r.attach(s, 10, kTokenA, 0);
  r.attach(s, 20, kTokenB, 0);
  EXPECT_FALSE(r.attach(s, 11, kTokenA, 1).gained);  // the old connection still drives
  auto closed = r.detach(s, 10, kTokenA, 2, kGrace);
  EXPECT_EQ(closed.gained, 11u);
  EXPECT_TRUE(r.is_driver(s, 11));
  EXPECT_FALSE(r.next_expiry());
}

TEST(SessionRegistry, AWatcherLeavingDuringTheGraceLeavesTheReservation) {
  SessionRegistry r;
  SessionId s = add(r, 1);
  r.attach(s, 10, kTokenA, 0);
  r.attach(s, 20, kTokenB, 0);
  r.detach(s, 10, kTokenA, 0, kGrace);
  EXPECT_FALSE(r.detach(s, 20, kTokenB, 1, kGrace).lost);
  EXPECT_EQ(r.next_expiry(), kGrace);
  EXPECT_EQ(r.attach(s, 11, kTokenA, 2).gained, 11u);
}

}  // namespace
}  // namespace wharf::core
