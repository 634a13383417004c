#include "core/notification_policy.hpp"

#include <cstdio>

namespace wharf::core {
namespace {

constexpr int kMinutesPerDay = 24 * 60;

// "HH:MM", 00:00 to 23:59, two digits each.
std::optional<int> parse_minute(std::string_view text) {
  if (text.size() != 5 || text[2] != ':') return std::nullopt;
  for (std::size_t i : {0U, 1U, 3U, 4U})
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
  int hours = (text[0] - '0') * 10 + (text[1] - '0');
  int minutes = (text[3] - '0') * 10 + (text[4] - '0');
  if (hours > 23 || minutes > 59) return std::nullopt;
  return hours * 60 + minutes;
}

}  // namespace

std::string_view notify_kind_name(NotifyKind kind) {
  return kind == NotifyKind::kWaiting ? "waiting" : "finished";
}

std::string_view notify_verdict_name(NotifyVerdict verdict) {
  switch (verdict) {
    case NotifyVerdict::kSend:
      return "send";
    case NotifyVerdict::kLookedAt:
      return "looked_at";
    case NotifyVerdict::kQuietHours:
      return "quiet_hours";
    case NotifyVerdict::kDebounced:
      return "debounced";
  }
  return "send";
}

bool QuietHours::contains(int minute_of_day) const {
  if (start < end) return minute_of_day >= start && minute_of_day < end;
  return minute_of_day >= start || minute_of_day < end;  // wraps midnight
}

Result<QuietHours> parse_quiet_hours(std::string_view text) {
  const Error wrong(
      "quiet_hours must be a local time range \"HH:MM-HH:MM\" (e.g. \"22:00-07:30\")");
  auto dash = text.find('-');
  if (dash == std::string_view::npos) return wrong;
  auto start = parse_minute(text.substr(0, dash));
  auto end = parse_minute(text.substr(dash + 1));
  if (!start || !end) return wrong;
  if (*start == *end) return Error("quiet_hours must not start and end at the same minute");
  return QuietHours{*start, *end};
}

std::string format_quiet_hours(const QuietHours& hours) {
  char text[48];
  std::snprintf(text, sizeof text, "%02d:%02d-%02d:%02d", hours.start / 60, hours.start % 60,
                hours.end / 60, hours.end % 60);
  return text;
}

NotifyVerdict NotificationPolicy::decide(SessionId session, Time now, int minute_of_day,
                                         bool looked_at) {
  if (looked_at) return NotifyVerdict::kLookedAt;
  if (rules_.quiet_hours && rules_.quiet_hours->contains(minute_of_day % kMinutesPerDay))
    return NotifyVerdict::kQuietHours;
  auto last = last_sent_.find(session);
  if (rules_.debounce.count() > 0 && last != last_sent_.end() &&
      now - last->second < rules_.debounce)
    return NotifyVerdict::kDebounced;
  last_sent_[session] = now;
  return NotifyVerdict::kSend;
}

bool bell_calls_for_person(std::chrono::steady_clock::time_point bell,
                           std::optional<std::chrono::steady_clock::time_point> last_input) {
  return !last_input || bell - *last_input >= kBellEcho;
}

}  // namespace wharf::core
