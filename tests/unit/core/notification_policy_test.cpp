// When a notification leaves the page (core/notification_policy.hpp), with a manual
// clock: the debounce per session, quiet hours that wrap midnight, nobody looking, and
// the bell that answers a keystroke.
#include "core/notification_policy.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

using namespace std::chrono_literals;
using Time = NotificationPolicy::Time;

constexpr int kNoon = 12 * 60;
const Time t0 = Time{} + 1000h;

TEST(NotificationPolicy, OnePerDebounceWindowPerSession) {
  NotificationPolicy policy;  // 60 s
  EXPECT_EQ(policy.decide(1, t0, kNoon, false), NotifyVerdict::kSend);
  EXPECT_EQ(policy.decide(1, t0 + 59s, kNoon, false), NotifyVerdict::kDebounced);
  EXPECT_EQ(policy.decide(2, t0 + 59s, kNoon, false), NotifyVerdict::kSend);  // its own window
  EXPECT_EQ(policy.decide(1, t0 + 60s, kNoon, false), NotifyVerdict::kSend);
  // The window counts from the last one sent, not from the refused ones.
  EXPECT_EQ(policy.decide(1, t0 + 100s, kNoon, false), NotifyVerdict::kDebounced);
  EXPECT_EQ(policy.decide(1, t0 + 120s, kNoon, false), NotifyVerdict::kSend);
}

TEST(NotificationPolicy, DebounceZeroLetsEveryEventThrough) {
  NotificationPolicy policy({.debounce = 0s});
  EXPECT_EQ(policy.decide(1, t0, kNoon, false), NotifyVerdict::kSend);
  EXPECT_EQ(policy.decide(1, t0, kNoon, false), NotifyVerdict::kSend);
}

TEST(NotificationPolicy, NothingWhileSomebodyLooksAndItOpensNoWindow) {
  NotificationPolicy policy;
  EXPECT_EQ(policy.decide(1, t0, kNoon, true), NotifyVerdict::kLookedAt);
  EXPECT_EQ(policy.decide(1, t0 + 1s, kNoon, false), NotifyVerdict::kSend);
}

TEST(NotificationPolicy, ForgetEndsTheWindow) {
  NotificationPolicy policy;
  EXPECT_EQ(policy.decide(1, t0, kNoon, false), NotifyVerdict::kSend);
  policy.forget(1);
  EXPECT_EQ(policy.decide(1, t0 + 1s, kNoon, false), NotifyVerdict::kSend);
}

TEST(NotificationPolicy, QuietHoursWrapMidnight) {
  NotificationPolicy policy({.debounce = 0s, .quiet_hours = QuietHours{22 * 60, 7 * 60 + 30}});
  EXPECT_EQ(policy.decide(1, t0, 21 * 60 + 59, false), NotifyVerdict::kSend);
  EXPECT_EQ(policy.decide(1, t0, 22 * 60, false), NotifyVerdict::kQuietHours);
  EXPECT_EQ(policy.decide(1, t0, 0, false), NotifyVerdict::kQuietHours);
  EXPECT_EQ(policy.decide(1, t0, 7 * 60 + 29, false), NotifyVerdict::kQuietHours);
  EXPECT_EQ(policy.decide(1, t0, 7 * 60 + 30, false), NotifyVerdict::kSend);
}

TEST(NotificationPolicy, QuietHoursWithinADay) {
  QuietHours lunch{12 * 60, 13 * 60};
  EXPECT_FALSE(lunch.contains(11 * 60 + 59));
  EXPECT_TRUE(lunch.contains(12 * 60));
  EXPECT_FALSE(lunch.contains(13 * 60));
  EXPECT_FALSE(lunch.contains(23 * 60));
}

TEST(NotificationPolicy, ParsesAndRefusesQuietHours) {
  auto hours = parse_quiet_hours("22:00-07:30");
  ASSERT_TRUE(hours);
  EXPECT_EQ(hours.value().start, 22 * 60);
  EXPECT_EQ(hours.value().end, 7 * 60 + 30);
  EXPECT_EQ(format_quiet_hours(hours.value()), "22:00-07:30");
  for (const char* bad : {"", "22:00", "22:00-", "24:00-07:00", "22:60-07:00", "2:00-07:00",
                          "22:00-07:00x", "22.00-07.00", "aa:bb-cc:dd", "-"})
    EXPECT_FALSE(parse_quiet_hours(bad)) << bad;
  auto same = parse_quiet_hours("08:00-08:00");
  ASSERT_FALSE(same);
  EXPECT_NE(same.error().message.find("same minute"), std::string::npos);
}

TEST(NotificationPolicy, ABellRightAfterAKeyAnswersTheKey) {
  EXPECT_TRUE(bell_calls_for_person(t0, std::nullopt));
  EXPECT_FALSE(bell_calls_for_person(t0 + 200ms, t0));
  EXPECT_FALSE(bell_calls_for_person(t0 + 999ms, t0));
  EXPECT_TRUE(bell_calls_for_person(t0 + 1s, t0));
}

}  // namespace
}  // namespace wharf::core
