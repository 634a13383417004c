// What the control socket understands: one JSON request per line, answered by one JSON
// line. Requests:
//
//   {"op": NAME, "args": {...}}   any operation of src/ops (list_sessions, new_session,
//                                 end_session, read_screen, send_keys, send_text,
//                                 run_command, wait_for)
//                                 -> {"ok": true, "result": {...}, "text": "..."}
//   {"verb": "agent", "name"?}    what new sessions start   -> {"ok": true, "default", "kind"}
//   {"verb": "cwd", "cwd"?}       where they start          -> {"ok": true, "cwd"}
//   {"verb": "restart"}           the daemon starts again on the binary now on disk,
//                                 keeping every session     -> {"ok": true, "sessions"}
//   {"verb": "rotate_key"}        a new key; every window and the old URL stop working
//                                                           -> {"ok": true, "url"}
//
// Failures: {"ok": false, "code": "...", "error": "..."}. The caller is who the peer
// process is (core/ownership.hpp): the control listener finds it from the socket's
// peer credentials, never from anything in the request.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <functional>
#include <string>
#include <string_view>

#include "app/session_service.hpp"
#include "core/ownership.hpp"

namespace wharf::server {

// Room for the largest web pane page (512 KiB) as JSON text, escapes and all.
inline constexpr std::size_t kMaxControlRequestBytes = 1536 * 1024;

// Answers one request line; never throws.
// What only the daemon itself can do; an empty one refuses its verb.
struct DaemonActions {
  std::function<void()> restart;
  std::function<std::string()> rotate_key;  // returns the new URL
};

boost::asio::awaitable<std::string> handle_control_request(std::string_view line,
                                                           app::SessionService& sessions,
                                                           core::Caller caller,
                                                           const DaemonActions& actions = {});

}  // namespace wharf::server
