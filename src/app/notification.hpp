// A notification that leaves the page: a session waits for its user or has finished,
// and somebody away from the desk should hear of it. The notifier decides whether one
// goes out (debounce, quiet hours, nobody already looking); each channel (ntfy, Web
// Push, a command) only delivers what it is handed. A notification never carries the
// screen's contents unless the operator turned that on: pushes pass third-party servers.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/session_registry.hpp"

namespace wharf::app {

struct Notification {
  core::SessionId session = 0;
  std::string session_name;  // the tab's name
  std::string program;       // the catalog entry it runs ("claude", "bash")
  std::string kind;          // "waiting" or "finished"
  std::string title;         // e.g. "claude 3 is waiting for you", "claude · api has finished"
  std::string message;       // one short line; the screen only when the operator allows it
  // public_url + "/#session=ID": opens the page on that session. Absent without a
  // configured public_url; channels then send no link.
  std::optional<std::string> click_url;
};

// One way out. deliver() starts the delivery and returns at once: it runs on the daemon's
// io_context, never blocks it, and reports its own failures to the log (never the
// notification's text). A channel that cannot deliver drops the notification.
class NotificationChannel {
 public:
  virtual ~NotificationChannel() = default;
  virtual std::string_view name() const = 0;
  virtual void deliver(const Notification& notification) = 0;
};

}  // namespace wharf::app
