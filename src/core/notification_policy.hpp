// Whether a notification that leaves the page (ntfy, Web Push, a command) goes out for a
// session that waits for its user or has finished. Pure: the caller gives the time of
// every event and the local wall-clock minute, so tests drive it with a manual clock.
//
// Rules, in order: nothing while somebody is looking at the session (a window attached to
// it whose page is visible and focused); nothing inside the quiet hours (a local range
// "HH:MM-HH:MM" that may wrap midnight; the end minute is outside it); and at most one per
// debounce window per session, counted from the last one sent (a refused event does not
// open a window). A debounce of 0 lets every event through.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace wharf::core {

using SessionId = std::uint64_t;

inline constexpr std::chrono::seconds kDefaultNotifyDebounce{60};
inline constexpr std::chrono::seconds kMaxNotifyDebounce{86400};

enum class NotifyKind { kWaiting, kFinished };
std::string_view notify_kind_name(NotifyKind kind);

// Minutes since local midnight, [0, 1440).
struct QuietHours {
  int start = 0;
  int end = 0;
  bool contains(int minute_of_day) const;
};
// "22:00-07:30"; start and end must differ.
Result<QuietHours> parse_quiet_hours(std::string_view text);
std::string format_quiet_hours(const QuietHours& hours);

struct NotificationRules {
  std::chrono::seconds debounce = kDefaultNotifyDebounce;
  std::optional<QuietHours> quiet_hours;
};

enum class NotifyVerdict { kSend, kLookedAt, kQuietHours, kDebounced };
std::string_view notify_verdict_name(NotifyVerdict verdict);

class NotificationPolicy {
 public:
  using Clock = std::chrono::steady_clock;
  using Time = Clock::time_point;

  explicit NotificationPolicy(NotificationRules rules = {}) : rules_(rules) {}

  // Decides one event; a kSend opens the session's debounce window at `now`.
  NotifyVerdict decide(SessionId session, Time now, int minute_of_day, bool looked_at);
  // The session ended: its window is forgotten.
  void forget(SessionId session) { last_sent_.erase(session); }

  const NotificationRules& rules() const { return rules_; }

 private:
  NotificationRules rules_;
  std::map<SessionId, Time> last_sent_;
};

// A terminal bell calls for the person only when it does not answer a keystroke: the
// shell's bell on a backspace at an empty prompt or a failed completion comes within
// moments of the key. kBellEcho is that moment.
inline constexpr std::chrono::milliseconds kBellEcho{1000};
bool bell_calls_for_person(std::chrono::steady_clock::time_point bell,
                           std::optional<std::chrono::steady_clock::time_point> last_input);

}  // namespace wharf::core
