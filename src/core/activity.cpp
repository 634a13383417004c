#include "core/activity.hpp"

namespace wharf::core {

std::string_view activity_name(Activity activity) {
  switch (activity) {
    case Activity::kWorking:
      return "working";
    case Activity::kFinished:
      return "finished";
    case Activity::kWaiting:
      return "waiting";
    case Activity::kIdle:
      break;
  }
  return "idle";
}

bool ActivityTracker::on_input(Time now) {
  last_input_ = now;
  return false;
}

bool ActivityTracker::on_output(Time now) {
  bool echo = last_input_ && now - *last_input_ <= timings_.echo;
  bool continues = last_output_ && now - *last_output_ <= timings_.gap;
  last_output_ = now;
  if (activity_ == Activity::kWorking) return false;  // still working: the quiet restarts
  if (echo) {
    burst_start_.reset();  // typing, not work
    return false;
  }
  if (!continues || !burst_start_) burst_start_ = now;
  if (now - *burst_start_ < timings_.start_after) return false;
  activity_ = Activity::kWorking;
  return true;
}

bool ActivityTracker::tick(Time now) {
  if (activity_ != Activity::kWorking || !last_output_) return false;
  if (now - *last_output_ < timings_.quiet) return false;
  burst_start_.reset();
  settle(Activity::kFinished, now);
  return true;
}

bool ActivityTracker::mark(Activity activity, Time now) {
  if (activity != Activity::kWaiting && activity != Activity::kFinished) return false;
  bool changed = activity_ != activity;
  burst_start_.reset();
  settle(activity, now);
  return changed;
}

bool ActivityTracker::seen() {
  if (activity_ != Activity::kFinished && activity_ != Activity::kWaiting) return false;
  activity_ = Activity::kIdle;
  chimed_ = true;
  return true;
}

bool ActivityTracker::chime_due(Time now) {
  if (chimed_ || (activity_ != Activity::kFinished && activity_ != Activity::kWaiting))
    return false;
  if (now - settled_at_ < timings_.chime_after) return false;
  chimed_ = true;
  return true;
}

std::optional<ActivityTracker::Time> ActivityTracker::next_deadline() const {
  if (activity_ == Activity::kWorking && last_output_) return *last_output_ + timings_.quiet;
  if (!chimed_ && (activity_ == Activity::kFinished || activity_ == Activity::kWaiting))
    return settled_at_ + timings_.chime_after;
  return std::nullopt;
}

void ActivityTracker::settle(Activity activity, Time now) {
  activity_ = activity;
  settled_at_ = now;
  chimed_ = false;
}

}  // namespace wharf::core
