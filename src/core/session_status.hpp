// What a session's program reports about itself, for the page's status strip
// (docs/page.md, "The status strip"): a shell's working directory (OSC 7) and how its
// last command ended and how long it ran (OSC 133 C and D marks, core/shell_marks.hpp);
// an agent's own numbers (model, context use, cost, quota), as its status line hands
// them over (`wharf status-line`, reading Claude Code's statusLine JSON).
//
// Pure: time comes from the caller, so a test drives the clock by hand. Invariants: an
// agent report never holds more than a few hundred bytes (every string is cut to
// printable ASCII, every number checked finite, not negative, and clamped); the
// directory is bounded by the OSC it came in (VtParser::kMaxOscBytes); a D mark with no
// C before it (an empty command line, the first prompt) leaves the last command as it
// was; the status is empty until the program reports something, and an empty status is
// what the page hides.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/shell_marks.hpp"

namespace wharf::core {

// An agent's numbers, each optional (older versions send fewer).
struct AgentReport {
  std::string agent;                      // "claude"
  std::string model;                      // "Opus 4.5"
  std::string effort;                     // "high"
  std::string version;                    // the agent's own version
  std::optional<double> context_percent;  // of the context window in use
  std::optional<std::int64_t> context_tokens;
  std::optional<std::int64_t> context_window;
  std::optional<double> cost_usd;                   // this conversation so far
  std::optional<double> five_hour_percent;          // quota used in the five-hour window
  std::optional<std::int64_t> five_hour_resets_at;  // seconds since the epoch
  std::optional<double> seven_day_percent;
  std::optional<std::int64_t> seven_day_resets_at;

  bool operator==(const AgentReport&) const = default;
};

struct CommandResult {
  bool running = false;                     // a command line is running now (C seen, D not yet)
  std::optional<int> exit_code;             // of the last command that ended
  std::optional<std::int64_t> duration_ms;  // from its C mark to its D mark
  bool operator==(const CommandResult&) const = default;
};

struct ProgramStatus {
  std::string cwd;  // absolute; empty: never reported
  std::optional<CommandResult> command;
  std::optional<AgentReport> agent;

  bool empty() const { return cwd.empty() && !command && !agent; }
  bool operator==(const ProgramStatus&) const = default;
};

class StatusTracker {
 public:
  using Clock = std::chrono::steady_clock;

  // Each returns whether the status changed.
  bool on_mark(const ShellMark& mark, Clock::time_point now);
  bool on_report(AgentReport report);

  const ProgramStatus& status() const { return status_; }

 private:
  ProgramStatus status_;
  std::optional<Clock::time_point> command_started_;  // the C mark of the running command
};

// At most one message per `interval`: a change is sent at once when the last one went out
// at least `interval` ago, else at the time this returns (the caller arms a timer, and
// sends the status as it is then: changes in between are merged, never queued).
class StatusThrottle {
 public:
  using Clock = std::chrono::steady_clock;
  explicit StatusThrottle(std::chrono::milliseconds interval) : interval_(interval) {}
  Clock::time_point send_at(Clock::time_point now) const {
    if (!last_sent_) return now;
    Clock::time_point earliest = *last_sent_ + interval_;
    return earliest > now ? earliest : now;
  }
  void sent(Clock::time_point now) { last_sent_ = now; }

 private:
  std::chrono::milliseconds interval_;
  std::optional<Clock::time_point> last_sent_;
};

inline constexpr std::chrono::milliseconds kStatusInterval{250};  // at most 4 a second
inline constexpr std::size_t kMaxReportText = 48;                 // bytes of each string
inline constexpr std::size_t kMaxStatusPayloadBytes = 64 * 1024;  // a status line's JSON

// The status as the `status` message and `list_sessions` carry it (docs/protocol.md):
// {} when empty. `home` (may be empty) gives `cwd_short`, the path with ~ for it.
boost::json::object status_json(const ProgramStatus& status, std::string_view home);

// The `status` message a window hears (docs/protocol.md).
std::string status_message(std::uint64_t session, const ProgramStatus& status,
                           std::string_view home);

// `path` with a leading `home` shown as ~ ("/home/me/src" -> "~/src"; "/home/me" -> "~").
std::string abbreviate_home(std::string_view path, std::string_view home);

// Reads Claude Code's statusLine JSON (its fields as of 2.1.197: model.display_name,
// version, cost.total_cost_usd, context_window.{used_percentage,total_input_tokens,
// context_window_size}, effort.level, rate_limits.{five_hour,seven_day}.{used_percentage,
// resets_at}); anything missing or of the wrong type is left out. Nothing when `payload`
// is not an object.
std::optional<AgentReport> parse_claude_status(const boost::json::value& payload);

// The report as one short line, for the agent to show in its own status line:
// "Opus 4.5 · context 42% · $0.31 · 5h quota 12%".
std::string report_line(const AgentReport& report);

}  // namespace wharf::core
