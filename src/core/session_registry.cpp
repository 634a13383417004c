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
  entry.windows.clear();
  if (entry.custom_name.size() > kMaxNameBytes) entry.custom_name.clear();
  next_id_ = std::max(next_id_, entry.id + 1);
  order_.push_back(entry.id);
  sessions_.push_back(std::move(entry));
  return ok_status();
}

void SessionRegistry::remove(SessionId id) {
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

DriverChange SessionRegistry::attach(SessionId id, WindowId window) {
  SessionEntry* entry = find_mutable(id);
  if (entry == nullptr) return {};
  if (std::find(entry->windows.begin(), entry->windows.end(), window) == entry->windows.end())
    entry->windows.push_back(window);
  if (!entry->driver) {
    entry->driver = window;
    return {.lost = std::nullopt, .gained = window};
  }
  return {};
}

DriverChange SessionRegistry::detach(SessionId id, WindowId window) {
  SessionEntry* entry = find_mutable(id);
  if (entry == nullptr) return {};
  std::erase(entry->windows, window);
  if (entry->driver != window) return {};
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
  DriverChange change{.lost = entry->driver, .gained = window};
  entry->driver = window;
  return change;
}

bool SessionRegistry::is_driver(SessionId id, WindowId window) const {
  const SessionEntry* entry = find(id);
  return entry != nullptr && entry->driver == window;
}

}  // namespace wharf::core
