#include "core/session_registry.hpp"

#include <algorithm>
#include <set>

namespace wharf::core {

Result<SessionId> SessionRegistry::add(std::string program, std::string cwd,
                                       std::int64_t created_ms, std::string custom_name,
                                       std::string kind) {
  if (sessions_.size() >= max_live_) {
    return Error{"wharf already runs " + std::to_string(sessions_.size()) +
                 " sessions, its limit (WHARF_MAX_SESSIONS); end one first"};
  }
  SessionEntry entry;
  entry.id = next_id_++;
  entry.program = std::move(program);
  entry.kind = std::move(kind);
  entry.cwd = std::move(cwd);
  entry.created_ms = created_ms;
  sessions_.push_back(std::move(entry));
  order_.push_back(sessions_.back().id);
  if (!custom_name.empty()) {
    if (auto renamed = rename(sessions_.back().id, custom_name); !renamed) {
      remove(sessions_.back().id);
      return renamed.error();
    }
  }
  return order_.back();
}

Status SessionRegistry::restore(SessionEntry entry) {
  if (entry.id == 0 || find(entry.id) != nullptr)
    return Error{"session " + std::to_string(entry.id) + " is already live"};
  entry.status = SessionStatus::kRunning;
  entry.driver.reset();
  entry.reserved.reset();
  entry.windows.clear();
  if (entry.custom_name.size() > kMaxNameBytes) entry.custom_name.clear();
  next_id_ = std::max(next_id_, entry.id + 1);
  order_.push_back(entry.id);
  sessions_.push_back(std::move(entry));
  return ok_status();
}

void SessionRegistry::remove(SessionId id) {
  if (const SessionEntry* entry = find(id))
    for (WindowId window : entry->windows) tokens_.erase(window);
  std::erase_if(sessions_, [id](const SessionEntry& e) { return e.id == id; });
  std::erase(order_, id);
}

void SessionRegistry::mark_ending(SessionId id) {
  if (auto* entry = find_mutable(id)) entry->status = SessionStatus::kEnding;
}

SessionEntry* SessionRegistry::find_mutable(SessionId id) {
  auto it = std::find_if(sessions_.begin(), sessions_.end(),
                         [id](const SessionEntry& e) { return e.id == id; });
  return it == sessions_.end() ? nullptr : &*it;
}

void SessionRegistry::set_origin(SessionId id, std::string creator, bool shared_shell) {
  if (SessionEntry* entry = find_mutable(id)) {
    entry->creator = std::move(creator);
    entry->shared_shell = shared_shell;
  }
}

void SessionRegistry::set_capabilities(SessionId id, Capabilities capabilities) {
  if (SessionEntry* entry = find_mutable(id)) entry->capabilities = std::move(capabilities);
}

const SessionEntry* SessionRegistry::find(SessionId id) const {
  return const_cast<SessionRegistry*>(this)->find_mutable(id);
}

std::vector<const SessionEntry*> SessionRegistry::entries() const {
  std::vector<const SessionEntry*> out;
  out.reserve(order_.size());
  for (SessionId id : order_) out.push_back(find(id));
  return out;
}

Status SessionRegistry::rename(SessionId id, std::string_view name) {
  SessionEntry* entry = find_mutable(id);
  if (entry == nullptr) return Error{"no live session " + std::to_string(id)};
  if (name.size() > kMaxNameBytes)
    return Error{"a session name is at most " + std::to_string(kMaxNameBytes) + " bytes"};
  for (char c : name) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return Error{"a session name cannot hold control characters"};
  }
  // Surrounding blanks would make tabs that look alike; an all-blank name is no name.
  auto first = name.find_first_not_of(' ');
  entry->custom_name =
      first == std::string_view::npos
          ? std::string{}
          : std::string(name.substr(first, name.find_last_not_of(' ') - first + 1));
  return ok_status();
}

Status SessionRegistry::reorder(const std::vector<SessionId>& order) {
  std::set<SessionId> given(order.begin(), order.end());
  std::set<SessionId> live(order_.begin(), order_.end());
  if (given.size() != order.size() || given != live)
    return Error{"a new order must list every live session exactly once"};
  order_ = order;
  return ok_status();
}

std::optional<SessionId> SessionRegistry::neighbour(SessionId id) const {
  auto it = std::find(order_.begin(), order_.end(), id);
  if (it == order_.end()) return std::nullopt;
  if (it + 1 != order_.end()) return *(it + 1);
  if (it != order_.begin()) return *(it - 1);
  return std::nullopt;
}

std::optional<SessionId> SessionRegistry::landing(std::optional<SessionId> last_viewed) const {
  if (last_viewed) {
    const SessionEntry* entry = find(*last_viewed);
    if (entry != nullptr && entry->status == SessionStatus::kRunning) return entry->id;
  }
  const SessionEntry* newest = nullptr;
  for (const SessionEntry& e : sessions_) {
    if (e.status != SessionStatus::kRunning) continue;
    if (newest == nullptr || e.created_ms > newest->created_ms ||
        (e.created_ms == newest->created_ms && e.id > newest->id))
      newest = &e;
  }
  return newest ? std::optional<SessionId>(newest->id) : std::nullopt;
}

DriverChange SessionRegistry::attach(SessionId id, WindowId window, std::string_view token,
                                     std::int64_t now_ms) {
  SessionEntry* entry = find_mutable(id);
  if (entry == nullptr) return {};
  if (std::find(entry->windows.begin(), entry->windows.end(), window) == entry->windows.end())
    entry->windows.push_back(window);
  if (!token.empty()) tokens_[window] = std::string(token);
  if (entry->reserved) {
    if (!token.empty() && token == entry->reserved->token && now_ms < entry->reserved->until_ms) {
      // The window that drove, back from its reload: the closed socket it was is gone,
      // so only this one hears of the change.
      entry->reserved.reset();
      entry->driver = window;
      return {.lost = std::nullopt, .gained = window};
    }
    if (now_ms < entry->reserved->until_ms) return {};  // a watcher while the lease waits
    // Ran out before anyone noticed: the lease goes where the leaving would have sent
    // it, the window attached longest (this one, if it is alone).
    entry->reserved.reset();
    entry->driver = entry->windows.front();
    return {.lost = std::nullopt, .gained = entry->driver};
  }
  if (!entry->driver) {
    entry->driver = window;
    return {.lost = std::nullopt, .gained = window};
  }
  return {};
}

DriverChange SessionRegistry::detach(SessionId id, WindowId window, std::string_view token,
                                     std::int64_t now_ms, std::int64_t grace_ms) {
  SessionEntry* entry = find_mutable(id);
  if (entry == nullptr) return {};
  std::erase(entry->windows, window);
  tokens_.erase(window);
  if (entry->driver != window) return {};
  if (!token.empty()) {
    // The same tab already back on a new connection (it attached before this one was
    // seen to close): the lease is its own at once.
    for (WindowId other : entry->windows) {
      auto it = tokens_.find(other);
      if (it != tokens_.end() && it->second == token) {
        entry->driver = other;
        return {.lost = window, .gained = other};
      }
    }
  }
  if (!token.empty() && grace_ms > 0) {
    // `driver` keeps naming the closed window: input and resizes from anyone else are
    // refused as from any watcher until it comes back or the grace runs out.
    entry->reserved = SessionEntry::Reservation{std::string(token), now_ms + grace_ms};
    return {};
  }
  entry->driver.reset();
  if (entry->windows.empty()) return {.lost = window, .gained = std::nullopt};
  entry->driver = entry->windows.front();
  return {.lost = window, .gained = entry->driver};
}

DriverChange SessionRegistry::take(SessionId id, WindowId window) {
  SessionEntry* entry = find_mutable(id);
  if (entry == nullptr || entry->driver == window) return {};
  if (std::find(entry->windows.begin(), entry->windows.end(), window) == entry->windows.end())
    return {};
  // A person's explicit choice wins over a lease kept for a window that went away.
  entry->reserved.reset();
  DriverChange change{.lost = entry->driver, .gained = window};
  entry->driver = window;
  return change;
}

std::vector<std::pair<SessionId, DriverChange>> SessionRegistry::expire_reservations(
    std::int64_t now_ms) {
  std::vector<std::pair<SessionId, DriverChange>> changes;
  for (SessionEntry& entry : sessions_) {
    if (!entry.reserved || now_ms < entry.reserved->until_ms) continue;
    entry.reserved.reset();
    entry.driver.reset();
    if (entry.windows.empty()) continue;
    entry.driver = entry.windows.front();
    changes.emplace_back(entry.id, DriverChange{.lost = std::nullopt, .gained = entry.driver});
  }
  return changes;
}

std::optional<std::int64_t> SessionRegistry::next_expiry() const {
  std::optional<std::int64_t> next;
  for (const SessionEntry& entry : sessions_) {
    if (entry.reserved && (!next || entry.reserved->until_ms < *next))
      next = entry.reserved->until_ms;
  }
  return next;
}

bool SessionRegistry::is_driver(SessionId id, WindowId window) const {
  const SessionEntry* entry = find(id);
  return entry != nullptr && entry->driver == window;
}

}  // namespace wharf::core
