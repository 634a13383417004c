// The notifier: where the sessions' calls for their person arrive (an agent's hook or
// `wharf notify`, the terminal bell, the quiet after output) and where it is decided,
// once for every channel, whether a notification leaves the page
// (core/notification_policy.hpp). What it sends says which session and why, never what is
// on its screen unless `[notifications] include_screen` is on: the last few non-empty
// lines, cut short. Channels (ntfy, the command hook, Web Push) are added at start; with
// none, events are only counted.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/notification.hpp"
#include "core/notification_policy.hpp"

namespace wharf::app {

// Why the session calls: its own word (an agent's hook, `wharf notify`), the terminal
// bell, or its output having gone quiet after work (core/activity.hpp).
enum class NotifySource { kSaid, kBell, kQuiet };

struct NotifyEvent {
  core::SessionId session = 0;
  core::NotifyKind kind = core::NotifyKind::kWaiting;
  NotifySource source = NotifySource::kSaid;
  std::string session_name;  // as the tab shows it
  std::string program;       // the catalog entry's name
  bool looked_at = false;    // a window attached to it is visible and focused
  // The visible rows, only filled when wants_screen(): nothing else reads them.
  std::vector<std::string> screen_lines;
  // The session's own words in place of the stock sentence ("Approve? git push origin
  // main" for a pending decision); "" for the stock one.
  std::string said = {};
};

struct NotifierOptions {
  core::NotificationRules rules;
  bool include_screen = false;
  std::optional<std::string> public_url;  // scheme://host[:port], no trailing slash
};

// At most this many lines and bytes of the screen go into a message (include_screen).
inline constexpr std::size_t kScreenLinesInMessage = 6;
inline constexpr std::size_t kScreenBytesInMessage = 1000;

class Notifier {
 public:
  using Clock = std::chrono::steady_clock;

  explicit Notifier(NotifierOptions options);
  Notifier(const Notifier&) = delete;
  Notifier& operator=(const Notifier&) = delete;

  void add_channel(std::unique_ptr<NotificationChannel> channel);
  // A channel owned elsewhere (the daemon's Web Push); it must outlive the notifier.
  void add_channel(NotificationChannel& channel);
  std::size_t channel_count() const { return channels_.size(); }
  std::vector<std::string> channel_names() const;
  const NotifierOptions& options() const { return options_; }
  bool wants_screen() const { return options_.include_screen; }

  // Decides and, for kSend, hands the notification to every channel. `minute_of_day`:
  // the local wall-clock minute (absent: read from the system clock now).
  core::NotifyVerdict on_event(const NotifyEvent& event, Clock::time_point now = Clock::now(),
                               std::optional<int> minute_of_day = std::nullopt);
  void forget(core::SessionId session) { policy_.forget(session); }

  // The notification an event makes (no decision taken): for on_event and for tests.
  Notification build(const NotifyEvent& event) const;

 private:
  NotifierOptions options_;
  core::NotificationPolicy policy_;
  std::vector<std::unique_ptr<NotificationChannel>> owned_;
  std::vector<NotificationChannel*> channels_;
};

// The local wall-clock minute of the day, from the system's time zone.
int local_minute_of_day();

}  // namespace wharf::app
