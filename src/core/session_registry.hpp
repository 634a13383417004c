// The registry of live sessions, as every window sees it: ids (never reused while the
// daemon runs), names, tab order, status, the windows attached to each, and which one
// drives it. Pure bookkeeping: starting and ending programs happens in app/, which asks
// the registry first (is there room?) and tells it afterwards.
//
// Driver lease: the first window to attach to an undriven session drives it; a watcher
// may take over at any time (the previous driver becomes a watcher and is told); when
// the driver leaves, the window attached longest takes over, so a session with windows
// always has a driver.
//
// Driver grace: a driving window whose socket closes (a reload, a network drop) leaves
// the lease reserved for it for a short time instead of handing it over, if it said who
// it is (a window token the page keeps across its own reloads). Until the reservation
// runs out `driver` still names the closed window, so nobody else types or sizes the
// session; a window that attaches with the same token gets the lease back; an explicit
// take() wins at once; when the grace runs out, the lease goes where it would have gone
// without one (the window attached longest, else nobody). Times are milliseconds of any
// monotonic clock the caller picks (tests pass a manual one).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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
  Capabilities capabilities;      // what its sandbox enforces (sandboxed false: none)
  // The lease kept for a driving window that went away (see "Driver grace" above).
  struct Reservation {
    std::string token;          // the window token it must come back with; never logged
    std::int64_t until_ms = 0;  // when the grace runs out
  };
  std::optional<Reservation> reserved;

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
  void set_capabilities(SessionId id, Capabilities capabilities);
  Status rename(SessionId id, std::string_view name);  // empty restores the default
  Status reorder(const std::vector<SessionId>& order);

  // Where a window lands after `id` ends: its right neighbour, else its left.
  std::optional<SessionId> neighbour(SessionId id) const;
  // Where a window lands when it opens: `last_viewed` if live, else the newest session.
  std::optional<SessionId> landing(std::optional<SessionId> last_viewed) const;

  // `token`: the window's token (empty: none); `now_ms`: the caller's clock. An attach
  // with the token of a live reservation gets the lease back.
  DriverChange attach(SessionId id, WindowId window, std::string_view token = {},
                      std::int64_t now_ms = 0);
  // A driver that leaves with a token and a grace above 0 keeps the lease reserved until
  // now_ms + grace_ms; otherwise the window attached longest takes over.
  DriverChange detach(SessionId id, WindowId window, std::string_view token = {},
                      std::int64_t now_ms = 0, std::int64_t grace_ms = 0);
  DriverChange take(SessionId id, WindowId window);
  bool is_driver(SessionId id, WindowId window) const;
  // Ends the reservations whose grace ran out by now_ms, handing each lease on as a
  // driver leaving would have; returns what changed, per session.
  std::vector<std::pair<SessionId, DriverChange>> expire_reservations(std::int64_t now_ms);
  // The earliest time a reservation runs out, if any is held.
  std::optional<std::int64_t> next_expiry() const;

 private:
  SessionEntry* find_mutable(SessionId id);

  std::size_t max_live_;
  SessionId next_id_ = 1;
  std::vector<SessionEntry> sessions_;  // kept in tab order
  std::vector<SessionId> order_;
  // The token each attached window gave, if any: a reloaded page may attach before its
  // old connection is seen to close, and then gets the lease when it is.
  std::map<WindowId, std::string> tokens_;
};

}  // namespace wharf::core
