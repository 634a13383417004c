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

using std::chrono::milliseconds;

TEST(OutputBudget, StartsBelowTheByteBudgetUntilTheWindowIsMeasured) {
  OutputBudget b;  // 1 MiB
  EXPECT_EQ(b.allowance(), kInitialOutputBudget);
  EXPECT_TRUE(b.try_send(kInitialOutputBudget));
  EXPECT_FALSE(b.try_send(1));
}

TEST(OutputBudget, ASlowWindowGetsAboutATenthOfASecondOfWork) {
  OutputBudget b;
  std::chrono::steady_clock::time_point t{};
  ASSERT_TRUE(b.try_send(200'000));
  b.on_ack(0, t);  // the first acknowledgement starts the measurement
  // It processes 20,000 bytes every 100 ms with plenty still queued: 200 kB/s.
  for (int i = 1; i <= 8; ++i)
    b.on_ack(static_cast<std::uint64_t>(i) * 20'000, t + milliseconds(100 * i));
  EXPECT_NEAR(b.rate(), 200'000.0, 1.0);
  EXPECT_EQ(b.allowance(), kMinOutputBudget);  // 20 kB of work, raised to the floor
}

TEST(OutputBudget, AFastWindowKeepsTheWholeByteBudget) {
  OutputBudget b;
  std::chrono::steady_clock::time_point t{};
  ASSERT_TRUE(b.try_send(250'000));
  b.on_ack(0, t);
  b.on_ack(250'000, t + milliseconds(10));  // 25 MB/s
  EXPECT_EQ(b.allowance(), kDefaultOutputBudget);
}

TEST(OutputBudget, AChunkLargerThanTheAllowanceStillGoesToAWindowThatIsUpToDate) {
  OutputBudget b;
  std::chrono::steady_clock::time_point t{};
  ASSERT_TRUE(b.try_send(100'000));
  b.on_ack(0, t);
  for (int i = 1; i <= 5; ++i)
    b.on_ack(static_cast<std::uint64_t>(i) * 20'000, t + milliseconds(100 * i));
  ASSERT_EQ(b.allowance(), kMinOutputBudget);
  // Everything acknowledged: a 64 KiB read goes out whole rather than leaving the window
  // waiting for an ack that will never come.
  EXPECT_TRUE(b.try_send(64 * 1024));
  EXPECT_FALSE(b.try_send(1));
}

TEST(OutputBudget, AnIdleWindowIsNotMeasuredSlow) {
  OutputBudget b;
  std::chrono::steady_clock::time_point t{};
  ASSERT_TRUE(b.try_send(1000));
  b.on_ack(1000, t);  // caught up: nothing queued behind this acknowledgement
  ASSERT_TRUE(b.try_send(1000));
  b.on_ack(2000, t + milliseconds(5000));  // 1000 bytes in 5 s, but it was waiting, not busy
  EXPECT_EQ(b.rate(), 0.0);
}

}  // namespace
}  // namespace wharf::core
