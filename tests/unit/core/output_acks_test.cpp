#include "core/output_acks.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

constexpr std::uint64_t kEvery = OutputAcks::kAckEvery;

TEST(OutputAcks, NothingToAcknowledgeBeforeOutput) {
  OutputAcks acks;
  acks.restart();
  EXPECT_EQ(acks.take(), std::nullopt);
}

TEST(OutputAcks, DueWhenCaughtUpOrEveryKAckEvery) {
  OutputAcks acks;
  acks.restart();
  EXPECT_FALSE(acks.written(100, acks.epoch(), false));
  EXPECT_TRUE(acks.written(0, acks.epoch(), true));
  EXPECT_EQ(acks.take(), 100u);
  EXPECT_FALSE(acks.written(kEvery - 1, acks.epoch(), false));
  EXPECT_TRUE(acks.written(1, acks.epoch(), false));
  EXPECT_EQ(acks.take(), 100 + kEvery);
}

TEST(OutputAcks, EachTotalOnce) {
  OutputAcks acks;
  acks.restart();
  acks.written(10, acks.epoch(), true);
  EXPECT_EQ(acks.take(), 10u);
  EXPECT_EQ(acks.take(), std::nullopt);
  acks.written(5, acks.epoch(), true);
  EXPECT_EQ(acks.take(), 15u);
}

TEST(OutputAcks, AnOlderEpochAddsNothing) {
  OutputAcks acks;
  acks.restart();
  const std::uint64_t old = acks.epoch();
  acks.written(10, old, true);
  acks.restart();
  EXPECT_NE(acks.epoch(), old);
  acks.written(kEvery, old, true);
  EXPECT_EQ(acks.take(), std::nullopt);
  acks.written(7, acks.epoch(), true);
  EXPECT_EQ(acks.take(), 7u);
}

TEST(OutputAcks, PausedUntilTheNextAttached) {
  OutputAcks acks;
  acks.restart();
  acks.written(10, acks.epoch(), true);
  acks.pause();
  EXPECT_EQ(acks.take(), std::nullopt);
  acks.restart();
  acks.written(3, acks.epoch(), true);
  EXPECT_EQ(acks.take(), 3u);
}

}  // namespace
}  // namespace wharf::core
