// Input attribution: which kind of client typed into a session, and when, for the audit
// store, never what was typed. Pure: the caller gives every time.
//
// The rule: a (session, client kind, client label) is recorded at most once per
// kInputAttributionInterval. A person typing a sentence is one row, not one per key; a
// client that comes back after a quiet minute is a new row. Kinds: "window" (a browser
// window; label: the paired device's name, "" for the key), "cli", "rest", "mcp" (label:
// the MCP client's name).
//
// Invariant: memory stays bounded. Entries older than the interval are useless to the
// rule and are dropped whenever the table passes kMaxAttributionEntries; forget() drops a
// session's entries when it ends.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

namespace wharf::core {

using SessionId = std::uint64_t;

inline constexpr std::chrono::milliseconds kInputAttributionInterval{60'000};
inline constexpr std::size_t kMaxAttributionEntries = 4096;

class InputAttribution {
 public:
  // Whether this input should be recorded now; when it says yes, the next yes for the
  // same (session, kind, label) comes kInputAttributionInterval later at the earliest.
  bool should_record(SessionId session, std::string_view kind, std::string_view label,
                     std::int64_t now_ms);
  void forget(SessionId session);
  std::size_t size() const { return last_.size(); }

 private:
  void prune(std::int64_t now_ms);
  std::map<std::tuple<SessionId, std::string, std::string>, std::int64_t> last_;
};

}  // namespace wharf::core
