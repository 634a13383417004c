// The registry of live sessions, as every window sees it: ids (never reused while the
// daemon runs), names, tab order, status, the windows attached to each, and which one
// drives it. Pure bookkeeping: starting and ending programs happens in app/, which asks
// the registry first (is there room?) and tells it afterwards.
//
// Driver lease: the first window to attach to an undriven session drives it; a watcher
// may take over at any time (the previous driver becomes a watcher and is told); when
// the driver leaves, the window attached longest takes over, so a session with windows
// always has a driver.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/control_message.hpp"
#include "core/result.hpp"

namespace wharf::core {

using WindowId = std::uint64_t;

enum class SessionStatus { kRunning, kEnding };

inline constexpr std::size_t kDefaultMaxSessions = 8;
inline constexpr std::size_t kMaxNameBytes = 64;

struct SessionEntry {
  SessionId id = 0;
  std::string program;         // the catalog entry it runs, e.g. "bash" or "claude"
  std::string kind = "shell";  // the entry's kind: "shell", "agent" or "action"
  std::string custom_name;     // empty: the default name
  std::string cwd;
  std::int64_t created_ms = 0;
  SessionStatus status = SessionStatus::kRunning;
  std::optional<WindowId> driver;
  std::vector<WindowId> windows;  // attached, oldest first
  std::string creator = "key";    // who started it (core/ownership.hpp's creator_label)
  bool shared_shell = false;      // the shell programs use when they name no session

  std::string default_name() const { return program + " " + std::to_string(id); }
  std::string name() const { return custom_name.empty() ? default_name() : custom_name; }
};

// What a driver change did, so the caller can tell the windows involved.
struct DriverChange {
  std::optional<WindowId> lost;    // stopped driving
  std::optional<WindowId> gained;  // started driving
};

class SessionRegistry {
 public:
  explicit SessionRegistry(std::size_t max_live = kDefaultMaxSessions) : max_live_(max_live) {}

  // Registers a new session at the end of the tab order, or says why not (the cap).
  Result<SessionId> add(std::string program, std::string cwd, std::int64_t created_ms,
                        std::string custom_name = {}, std::string kind = "shell");
  // Registers a session a previous daemon started (its host outlived that daemon), with
  // its id, name and fields as they were, at the end of the tab order. Refused for an id
  // already live. The cap does not apply: a live program is never turned away.
  Status restore(SessionEntry entry);
  // Ids below `id` are never handed out (they belong to sessions still alive elsewhere).
  void reserve_ids_below(SessionId id) { next_id_ = std::max(next_id_, id); }
  void remove(SessionId id);
  void mark_ending(SessionId id);

  const SessionEntry* find(SessionId id) const;
  std::vector<const SessionEntry*> entries() const;  // tab order
  std::size_t live_count() const { return order_.size(); }
  std::size_t max_live() const { return max_live_; }

  // Who started a session, and whether it is the shared shell (set once, after add()).
  void set_origin(SessionId id, std::string creator, bool shared_shell);
  Status rename(SessionId id, std::string_view name);  // empty restores the default
  Status reorder(const std::vector<SessionId>& order);

  // Where a window lands after `id` ends: its right neighbour, else its left.
  std::optional<SessionId> neighbour(SessionId id) const;
  // Where a window lands when it opens: `last_viewed` if live, else the newest session.
  std::optional<SessionId> landing(std::optional<SessionId> last_viewed) const;

  DriverChange attach(SessionId id, WindowId window);
  DriverChange detach(SessionId id, WindowId window);
  DriverChange take(SessionId id, WindowId window);
  bool is_driver(SessionId id, WindowId window) const;

 private:
  SessionEntry* find_mutable(SessionId id);

  std::size_t max_live_;
  SessionId next_id_ = 1;
  std::vector<SessionEntry> sessions_;  // kept in tab order
  std::vector<SessionId> order_;
};

}  // namespace wharf::core
