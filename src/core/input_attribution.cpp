#include "core/input_attribution.hpp"

namespace wharf::core {

bool InputAttribution::should_record(SessionId session, std::string_view kind,
                                     std::string_view label, std::int64_t now_ms) {
  auto key = std::make_tuple(session, std::string(kind), std::string(label));
  auto it = last_.find(key);
  // A clock that went backwards (a test, a suspended machine) records again rather than
  // staying silent for an unknown time.
  if (it != last_.end() && now_ms >= it->second &&
      now_ms - it->second < kInputAttributionInterval.count())
    return false;
  if (it != last_.end()) {
    it->second = now_ms;
  } else {
    if (last_.size() >= kMaxAttributionEntries) prune(now_ms);
    last_.emplace(std::move(key), now_ms);
  }
  return true;
}

void InputAttribution::forget(SessionId session) {
  for (auto it = last_.begin(); it != last_.end();)
    it = std::get<0>(it->first) == session ? last_.erase(it) : std::next(it);
}

void InputAttribution::prune(std::int64_t now_ms) {
  for (auto it = last_.begin(); it != last_.end();)
    it = now_ms - it->second >= kInputAttributionInterval.count() ? last_.erase(it) : std::next(it);
  // Still full: every entry is recent (thousands of clients within a minute). Dropping
  // them all costs at most one extra row each, never a missed one.
  if (last_.size() >= kMaxAttributionEntries) last_.clear();
}

}  // namespace wharf::core
