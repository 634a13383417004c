#include "core/output_budget.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

TEST(OutputBudget, SendsWithinTheBudget) {
  OutputBudget b(100);
  EXPECT_TRUE(b.try_send(60));
  EXPECT_TRUE(b.try_send(40));
  EXPECT_EQ(b.unacknowledged(), 100u);
  EXPECT_FALSE(b.behind());
}

TEST(OutputBudget, FallsBehindThenResyncsOnceEverythingIsAcknowledged) {
  OutputBudget b(100);
  ASSERT_TRUE(b.try_send(80));
  EXPECT_FALSE(b.try_send(30));  // would pass the budget
  EXPECT_TRUE(b.behind());
  EXPECT_FALSE(b.try_send(1));  // behind: nothing live until the resync
  EXPECT_EQ(b.on_ack(50), OutputBudget::Ack::kAccepted);
  EXPECT_FALSE(b.try_send(1));
  EXPECT_EQ(b.on_ack(80), OutputBudget::Ack::kResync);
  b.snapshot_sent(500);  // a snapshot may be larger than the budget
  EXPECT_FALSE(b.behind());
  EXPECT_TRUE(b.try_send(100));  // live output after it still gets the whole budget
  EXPECT_FALSE(b.try_send(1));   // ...but no more
  EXPECT_TRUE(b.behind());
  EXPECT_EQ(b.on_ack(680), OutputBudget::Ack::kResync);
  b.snapshot_sent(20);
  EXPECT_EQ(b.on_ack(700), OutputBudget::Ack::kAccepted);
  EXPECT_TRUE(b.try_send(100));
}

TEST(OutputBudget, RefusesImpossibleAcks) {
  OutputBudget b(100);
  ASSERT_TRUE(b.try_send(50));
  EXPECT_EQ(b.on_ack(51), OutputBudget::Ack::kInvalid);  // more than was sent
  EXPECT_EQ(b.on_ack(40), OutputBudget::Ack::kAccepted);
  EXPECT_EQ(b.on_ack(30), OutputBudget::Ack::kInvalid);  // going backwards
  EXPECT_EQ(b.unacknowledged(), 10u);
}

TEST(OutputBudget, ResetStartsAFreshAttachment) {
  OutputBudget b(10);
  b.try_send(10);
  b.try_send(1);
  ASSERT_TRUE(b.behind());
  b.reset();
  EXPECT_FALSE(b.behind());
  EXPECT_EQ(b.sent(), 0u);
  EXPECT_TRUE(b.try_send(10));
}

}  // namespace
}  // namespace wharf::core
