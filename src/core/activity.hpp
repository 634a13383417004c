// What a session is doing, as a person glancing at its tab wants to know it, worked out
// from the rhythm of its output: `working` while it prints steadily (an agent thinking,
// a build), `finished` once that output stopped and the quiet held, `waiting` when the
// program said it needs the person (`wharf notify waiting`). Pure: the caller gives the
// time of every event, so tests drive it with a manual clock.
//
// Rules: output that answers a keystroke (the echo of typing) does not count as work;
// a burst must last start_after before it is work, so one `ls` is not; finished needs
// the quiet to hold, so output that pauses and resumes is never reported as finished.
// finished and waiting stay until the person has seen the session (seen()) or it works
// again; chime_due() says, once per finish, that nobody looked for chime_after.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace wharf::core {

enum class Activity { kIdle, kWorking, kFinished, kWaiting };

std::string_view activity_name(Activity activity);

struct ActivityTimings {
  std::chrono::milliseconds start_after{1000};  // a burst this long is work
  std::chrono::milliseconds gap{1500};          // a pause longer than this ends a burst
  std::chrono::milliseconds quiet{3000};        // quiet after work: finished
  std::chrono::milliseconds echo{250};          // output this soon after input is its echo
  std::chrono::milliseconds chime_after{10000};
};

class ActivityTracker {
 public:
  using Clock = std::chrono::steady_clock;
  using Time = Clock::time_point;

  explicit ActivityTracker(ActivityTimings timings = {}) : timings_(timings) {}

  // Each returns true when activity() changed.
  bool on_output(Time now);
  bool on_input(Time now);
  bool tick(Time now);
  bool mark(Activity activity, Time now);  // notify: kWaiting or kFinished
  bool seen();

  // True once per finish (or wait) that nobody has seen for chime_after.
  bool chime_due(Time now);
  // When tick() or chime_due() may next have something to say; none when nothing is
  // pending.
  std::optional<Time> next_deadline() const;

  Activity activity() const { return activity_; }

 private:
  void settle(Activity activity, Time now);

  ActivityTimings timings_;
  Activity activity_ = Activity::kIdle;
  std::optional<Time> last_input_;
  std::optional<Time> last_output_;
  std::optional<Time> burst_start_;
  Time settled_at_{};
  bool chimed_ = true;
};

}  // namespace wharf::core
