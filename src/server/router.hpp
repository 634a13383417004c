// Decides the response to every HTTP request from the request alone: the Host rule,
// the key, the Origin rule for WebSocket upgrades, and the routes. No I/O happens here,
// so every refusal is unit-tested and the whole function can be fuzzed.
//
// Routes:   /static/<file>   page modules, stylesheet, icon, vendored xterm (no key)
//           /                the page (key as ?k=)
//           /ws              WebSocket upgrade (key as ?k=, Origin must be our own)
//           /api/status      GET: JSON (key in X-Wharf-Key or ?k=)
//           /api/dirs        GET: the default directory and suggestions inside the workspace
//           /api/agent       POST {"agent": NAME}: what new sessions start (Origin, if sent,
//           /api/cwd         POST {"cwd": DIR}: where they start         must be our own)
#pragma once

#include <boost/beast/http.hpp>
#include <variant>

#include "core/terminal_size.hpp"
#include "server/server_context.hpp"

namespace wharf::server {

namespace http = boost::beast::http;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

struct UpgradeToWebSocket {
  core::TerminalSize size;  // what the window asked for (clamped), used if a session starts
};

using RouteDecision = std::variant<Response, UpgradeToWebSocket>;

inline constexpr std::string_view kKeyHeader = "X-Wharf-Key";

RouteDecision route_request(const Request& request, const ServerContext& context);

// Responses the connection classes also need (cap reached, malformed request).
Response plain_response(http::status status, std::string_view text, unsigned version,
                        bool keep_alive);

}  // namespace wharf::server
