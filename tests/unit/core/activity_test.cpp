// The activity light's rules, on a manual clock: steady output is work, typing and a
// single short command are not, finished needs the quiet to hold, output that pauses and
// resumes is never finished, seen clears, notify marks, and the chime comes once.
#include "core/activity.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

using namespace std::chrono_literals;
using Time = ActivityTracker::Time;

class ActivityTest : public ::testing::Test {
 protected:
  // Output every `every` from now for `span`; returns whether activity changed.
  bool stream(std::chrono::milliseconds span, std::chrono::milliseconds every = 100ms) {
    bool changed = false;
    for (auto t = 0ms; t <= span; t += every) {
      now_ += every;
      changed = tracker_.on_output(now_) || changed;
    }
    return changed;
  }
  void wait(std::chrono::milliseconds d) { now_ += d; }

  ActivityTracker tracker_;
  Time now_{};
};

TEST_F(ActivityTest, SteadyOutputIsWorkThenFinishedOnceTheQuietHolds) {
  EXPECT_FALSE(stream(800ms)) << "not yet a second of output";
  EXPECT_EQ(tracker_.activity(), Activity::kIdle);
  EXPECT_TRUE(stream(400ms));
  EXPECT_EQ(tracker_.activity(), Activity::kWorking);
  wait(2900ms);
  EXPECT_FALSE(tracker_.tick(now_)) << "quiet not held long enough";
  wait(200ms);
  EXPECT_TRUE(tracker_.tick(now_));
  EXPECT_EQ(tracker_.activity(), Activity::kFinished);
}

TEST_F(ActivityTest, OutputThatPausesAndResumesIsNeverFinished) {
  stream(2s);
  ASSERT_EQ(tracker_.activity(), Activity::kWorking);
  for (int i = 0; i < 5; ++i) {
    wait(2500ms);  // a long pause, but shorter than the quiet
    EXPECT_FALSE(tracker_.tick(now_));
    stream(300ms);
    EXPECT_EQ(tracker_.activity(), Activity::kWorking);
  }
  ASSERT_TRUE(tracker_.next_deadline());
  EXPECT_EQ(*tracker_.next_deadline(), now_ + 3s);
}

TEST_F(ActivityTest, TypingAndShortCommandsAreNotWork) {
  for (int i = 0; i < 40; ++i) {  // four seconds of typing, each key echoed
    wait(100ms);
    tracker_.on_input(now_);
    wait(5ms);
    EXPECT_FALSE(tracker_.on_output(now_));
  }
  wait(1s);
  EXPECT_FALSE(stream(300ms)) << "a command printing for 0.3 s";
  wait(2s);
  EXPECT_FALSE(stream(500ms)) << "another, after a gap: a new burst";
  EXPECT_EQ(tracker_.activity(), Activity::kIdle);
  EXPECT_FALSE(tracker_.next_deadline());
}

TEST_F(ActivityTest, SeenClearsAndTheChimeComesOnceAfterTenSeconds) {
  stream(2s);
  wait(3s);
  ASSERT_TRUE(tracker_.tick(now_));
  EXPECT_FALSE(tracker_.chime_due(now_));
  EXPECT_EQ(*tracker_.next_deadline(), now_ + 10s);
  wait(10s);
  EXPECT_TRUE(tracker_.chime_due(now_));
  EXPECT_FALSE(tracker_.chime_due(now_ + 1h)) << "once";
  EXPECT_TRUE(tracker_.seen());
  EXPECT_EQ(tracker_.activity(), Activity::kIdle);
  EXPECT_FALSE(tracker_.seen()) << "nothing left to clear";
}

TEST_F(ActivityTest, SeenBeforeTheChimeMeansNoChime) {
  stream(2s);
  wait(3s);
  tracker_.tick(now_);
  wait(5s);
  EXPECT_TRUE(tracker_.seen());
  wait(10s);
  EXPECT_FALSE(tracker_.chime_due(now_));
}

TEST_F(ActivityTest, NotifyMarksWaitingAndFinishedAtOnce) {
  EXPECT_TRUE(tracker_.mark(Activity::kWaiting, now_));
  EXPECT_EQ(tracker_.activity(), Activity::kWaiting);
  wait(10s);
  EXPECT_TRUE(tracker_.chime_due(now_));
  EXPECT_TRUE(tracker_.mark(Activity::kFinished, now_));
  EXPECT_FALSE(tracker_.mark(Activity::kWorking, now_)) << "only waiting and finished";
  EXPECT_EQ(tracker_.activity(), Activity::kFinished);
  // New work replaces a finish nobody saw.
  stream(1500ms);
  EXPECT_EQ(tracker_.activity(), Activity::kWorking);
}

TEST(ActivityName, NamesEveryState) {
  EXPECT_EQ(activity_name(Activity::kIdle), "idle");
  EXPECT_EQ(activity_name(Activity::kWorking), "working");
  EXPECT_EQ(activity_name(Activity::kFinished), "finished");
  EXPECT_EQ(activity_name(Activity::kWaiting), "waiting");
}

}  // namespace
}  // namespace wharf::core
