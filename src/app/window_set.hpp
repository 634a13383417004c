// The windows connected to the daemon (browser tabs, `wharf attach`) and what every one
// of them is told: the session list, driver changes, that the daemon is stopping, and
// the one chime for a finished session nobody looked at.
//
// Invariants: lives on the event-loop thread; windows are held weakly (a closing window
// never waits on this set); telling walks a copy, because a listener may close and
// remove itself while being told. Ids are never reused.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>

#include "app/session.hpp"
#include "core/session_registry.hpp"

namespace wharf::app {

// A connected window, told about list and role changes.
class WindowListener {
 public:
  virtual ~WindowListener() = default;
  // `list` is the protocol's `sessions` message, built once for every window.
  virtual void on_sessions_changed(const OutputChunk& list) = 0;
  virtual void on_driver_changed(core::SessionId session, bool driving,
                                 std::optional<core::WindowId> by) = 0;
  virtual void on_daemon_stopping() = 0;
  // The daemon has begun to stop (its sessions are ending); on_daemon_stopping follows.
  virtual void on_stop_announced(bool sessions_kept) = 0;
  // A session finished ten seconds ago and nobody looked: this window plays the chime.
  virtual void on_chime(core::SessionId session) = 0;
  // The key this window opened with is no longer valid (`wharf key rotate`): it is told
  // and closed; it comes back only with the new link.
  virtual void on_key_rotated() = 0;
  // Device `device` was revoked (app/device_service.hpp): a window it opened closes.
  virtual void on_device_revoked(std::int64_t /*device*/) {}
  // The session's web pane changed (published or cleared); a window showing it asks
  // SessionService::pane_message for the news. Windows with no pane ignore it.
  virtual void on_pane_changed(core::SessionId /*session*/) {}
  // The pending decisions changed (app/decision_desk.hpp): `message` is the protocol's
  // `decisions` message, built once for every window.
  virtual void on_decisions_changed(const OutputChunk& /*message*/) {}
};

class WindowSet {
 public:
  core::WindowId add(std::weak_ptr<WindowListener> listener);
  void remove(core::WindowId window);
  // A person used this window (typed, attached, looked): it is the one that chimes.
  void mark_used(core::WindowId window) { last_used_ = window; }
  // The window's page is visible and focused, with a person there (the `looking`
  // message): no notification leaves the page for the session it shows. A window that
  // never says so (`wharf attach`) never counts as looking.
  void set_looking(core::WindowId window, bool looking);
  bool looking(core::WindowId window) const { return looking_.contains(window); }

  void tell_sessions(const OutputChunk& list) const;
  // The window that lost the session and the one that gained it, each its own news.
  void tell_driver(core::SessionId session, const core::DriverChange& change) const;
  void tell_stop_announced(bool sessions_kept) const;
  void tell_stopping() const;
  void tell_key_rotated() const;
  void tell_device_revoked(std::int64_t device) const;
  void tell_pane(core::SessionId session) const;
  void tell_decisions(const OutputChunk& message) const;
  // One chime for all the windows of this daemon: the one used last, else any.
  void chime(core::SessionId session) const;

 private:
  std::map<core::WindowId, std::weak_ptr<WindowListener>> windows_;
  core::WindowId next_ = 1;
  core::WindowId last_used_ = 0;
  std::set<core::WindowId> looking_;
};

}  // namespace wharf::app
