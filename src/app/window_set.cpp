#include "app/window_set.hpp"

namespace wharf::app {

core::WindowId WindowSet::add(std::weak_ptr<WindowListener> listener) {
  core::WindowId id = next_++;
  windows_.emplace(id, std::move(listener));
  return id;
}

void WindowSet::remove(core::WindowId window) {
  windows_.erase(window);
  looking_.erase(window);
}

void WindowSet::set_looking(core::WindowId window, bool looking) {
  if (looking && windows_.contains(window)) {
    looking_.insert(window);
  } else {
    looking_.erase(window);
  }
}

void WindowSet::tell_sessions(const OutputChunk& list) const {
  auto windows = windows_;
  for (auto& [id, weak] : windows)
    if (auto listener = weak.lock()) listener->on_sessions_changed(list);
}

void WindowSet::tell_driver(core::SessionId session, const core::DriverChange& change) const {
  auto tell = [&](std::optional<core::WindowId> window, bool driving) {
    if (!window) return;
    auto it = windows_.find(*window);
    if (it == windows_.end()) return;
    if (auto listener = it->second.lock())
      listener->on_driver_changed(session, driving, driving ? std::nullopt : change.gained);
  };
  tell(change.lost, false);
  tell(change.gained, true);
}

void WindowSet::tell_stop_announced(bool sessions_kept) const {
  auto windows = windows_;
  for (auto& [id, weak] : windows)
    if (auto listener = weak.lock()) listener->on_stop_announced(sessions_kept);
}

void WindowSet::tell_key_rotated() const {
  auto windows = windows_;
  for (auto& [id, weak] : windows)
    if (auto listener = weak.lock()) listener->on_key_rotated();
}

void WindowSet::tell_device_revoked(std::int64_t device) const {
  auto windows = windows_;
  for (auto& [id, weak] : windows)
    if (auto listener = weak.lock()) listener->on_device_revoked(device);
}

void WindowSet::tell_pane(core::SessionId session) const {
  auto windows = windows_;
  for (auto& [id, weak] : windows)
    if (auto listener = weak.lock()) listener->on_pane_changed(session);
}

void WindowSet::tell_decisions(const OutputChunk& message) const {
  auto windows = windows_;
  for (auto& [id, weak] : windows)
    if (auto listener = weak.lock()) listener->on_decisions_changed(message);
}

void WindowSet::tell_stopping() const {
  auto windows = windows_;
  for (auto& [id, weak] : windows)
    if (auto listener = weak.lock()) listener->on_daemon_stopping();
}

void WindowSet::chime(core::SessionId session) const {
  auto chosen = windows_.find(last_used_);
  std::shared_ptr<WindowListener> listener =
      chosen != windows_.end() ? chosen->second.lock() : nullptr;
  for (auto it = windows_.begin(); !listener && it != windows_.end(); ++it)
    listener = it->second.lock();
  if (listener) listener->on_chime(session);
}

}  // namespace wharf::app
