// The rate rule of input attribution (core/input_attribution.hpp): once per client per
// session per minute, with a manual clock.
#include "core/input_attribution.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

TEST(InputAttribution, OncePerClientPerSessionPerMinute) {
  InputAttribution rule;
  EXPECT_TRUE(rule.should_record(1, "window", "phone", 0));
  EXPECT_FALSE(rule.should_record(1, "window", "phone", 1));
  EXPECT_FALSE(rule.should_record(1, "window", "phone", 59'999));
  EXPECT_TRUE(rule.should_record(1, "window", "phone", 60'000));
  EXPECT_FALSE(rule.should_record(1, "window", "phone", 60'500));
}

TEST(InputAttribution, EachClientAndSessionCountsOnItsOwn) {
  InputAttribution rule;
  EXPECT_TRUE(rule.should_record(1, "window", "phone", 0));
  EXPECT_TRUE(rule.should_record(1, "window", "laptop", 0));
  EXPECT_TRUE(rule.should_record(1, "cli", "", 0));
  EXPECT_TRUE(rule.should_record(1, "mcp", "claude-code", 0));
  EXPECT_TRUE(rule.should_record(2, "window", "phone", 0));
  EXPECT_FALSE(rule.should_record(2, "window", "phone", 10));
}

TEST(InputAttribution, ForgetStartsASessionAfresh) {
  InputAttribution rule;
  EXPECT_TRUE(rule.should_record(1, "cli", "", 0));
  EXPECT_TRUE(rule.should_record(2, "cli", "", 0));
  rule.forget(1);
  EXPECT_EQ(rule.size(), 1u);
  EXPECT_TRUE(rule.should_record(1, "cli", "", 5));
  EXPECT_FALSE(rule.should_record(2, "cli", "", 5));
}

TEST(InputAttribution, AClockGoingBackRecordsAgain) {
  InputAttribution rule;
  EXPECT_TRUE(rule.should_record(1, "rest", "", 100'000));
  EXPECT_TRUE(rule.should_record(1, "rest", "", 50'000));
}

TEST(InputAttribution, StaysBounded) {
  InputAttribution rule;
  for (SessionId s = 1; s <= kMaxAttributionEntries; ++s)
    ASSERT_TRUE(rule.should_record(s, "cli", "", 0));
  // Past the bound, entries older than the interval are dropped first.
  EXPECT_TRUE(rule.should_record(kMaxAttributionEntries + 1, "cli", "", 60'000));
  EXPECT_EQ(rule.size(), 1u);
  // All recent: the table is cleared rather than grown.
  for (SessionId s = 100'000; rule.size() < kMaxAttributionEntries; ++s)
    ASSERT_TRUE(rule.should_record(s, "cli", "", 61'000));
  EXPECT_TRUE(rule.should_record(1, "window", "x", 61'001));
  EXPECT_LE(rule.size(), kMaxAttributionEntries);
}

}  // namespace
}  // namespace wharf::core
