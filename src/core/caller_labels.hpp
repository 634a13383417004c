// How the audit names a caller (core/ownership.hpp's Caller): who answered a decision
// ("device:phone", "key", "cli", "mcp:claude-code", "rest", "session:3") and which kind of
// client typed into a session ("window", "cli", "rest", "mcp" with a label). Labels only:
// what a caller may do is decided by its kind, never by these words.
#pragma once

#include <string>
#include <string_view>

#include "core/ownership.hpp"

namespace wharf::core {

// At most this many bytes of an MCP client's or a device's name are kept in a label.
inline constexpr std::size_t kMaxClientLabelBytes = 64;

// `device_name`: the paired device's name when the caller came with one ("" otherwise).
std::string answerer_label(const Caller& caller, std::string_view device_name);

struct InputClient {
  std::string kind;   // "window", "cli", "rest" or "mcp"
  std::string label;  // a device's or an MCP client's name, "session:N", or ""
};
InputClient input_client(const Caller& caller, std::string_view device_name);

// The `via` of an MCP client from its clientInfo ("claude-code 1.2.3" -> "mcp:claude-code"):
// the first word, cut to kMaxClientLabelBytes, printable ASCII only; "mcp" when nothing
// usable is left.
std::string mcp_via(std::string_view client_info);
// Whether a `via` a local client sent is one wharf takes ("mcp" or "mcp:NAME" as
// mcp_via makes it); anything else is ignored.
bool valid_via(std::string_view via);

}  // namespace wharf::core
