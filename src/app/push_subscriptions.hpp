// The browsers that asked for Web Push, one subscription each, kept in
// STATE_DIR/push-subscriptions.json so they survive restarts. Written whole (temporary
// file renamed over it, mode 0600) after every change: an endpoint is a capability (who
// holds it may push to that browser), so the file is as private as the key.
//
// Invariants: every kept subscription passed core::parse_push_subscription(); no two
// share an endpoint (a browser that subscribes again replaces its entry, keys and all);
// at most kMaxPushSubscriptions are kept, a further one is refused ("limit_reached")
// rather than evicting a browser silently. A missing file is "none yet"; entries in the
// file that no longer parse are dropped at load with a warning.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/web_push.hpp"

namespace wharf::app {

inline constexpr std::size_t kMaxPushSubscriptions = 50;

class PushSubscriptions {
 public:
  explicit PushSubscriptions(std::filesystem::path file) : file_(std::move(file)) {}

  // Reads the file (none yet when it is absent). An error leaves the list empty.
  core::Status load();

  // Adds or replaces (same endpoint) and saves. Errors: "limit_reached", or the file's.
  core::Status add(core::PushSubscription subscription);
  // Removes the one with this endpoint and saves; false when there was none.
  bool remove(std::string_view endpoint);

  const std::vector<core::PushSubscription>& all() const { return list_; }

 private:
  core::Status save() const;

  std::filesystem::path file_;
  std::vector<core::PushSubscription> list_;
};

}  // namespace wharf::app
