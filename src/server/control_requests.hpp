// What the control socket understands: one JSON request per line,
// {"verb": "...", ...}, answered by one JSON line, {"ok": true, ...} or
// {"ok": false, "code": "...", "error": "..."}. Each verb is a small entry in one
// table; the CLI verbs in src/cli/commands/ are their clients.
//
//   ls                                  -> sessions: [{id, name, status, pid, cwd, ...}]
//   new   {shell?, cwd?, name?, cols?, rows?} -> id
//   kill  {id}
//   read-screen {id, scrollback?}       -> lines, scrollback, cursor, cols, rows, title,
//                                          alternate_screen
#pragma once

#include <string>
#include <string_view>

#include "app/session_service.hpp"

namespace wharf::server {

inline constexpr std::size_t kMaxControlRequestBytes = 64 * 1024;

// Answers one request line; never throws.
std::string handle_control_request(std::string_view line, app::SessionService& sessions);

}  // namespace wharf::server
