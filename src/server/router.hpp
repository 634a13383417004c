// Decides the response to every HTTP request from the request alone: the Host rule,
// the key, the Origin rule for WebSocket upgrades, and the routes. No I/O happens here,
// so every refusal is unit-tested and the whole function can be fuzzed.
//
// Routes:   /static/<file>   page modules, stylesheet, icon, vendored xterm (no key)
//           /                the page (key as ?k=, traded for a device cookie; or the cookie)
//           /pair/CODE       a one-time pairing link: a device cookie, then the page
//           /ws              WebSocket upgrade (key as ?k=, Origin must be our own)
//           /api/status      GET: JSON (key in X-Wharf-Key, Authorization: Bearer or ?k=)
//           /api/v1/health   GET: {"ok": true, "version"}, no key (a liveness probe)
//           /api/dirs        GET: the default directory and suggestions inside the workspace
//           /api/agent       POST {"agent": NAME}: what new sessions start (Origin, if sent,
//           /api/cwd         POST {"cwd": DIR}: where they start         must be our own)
//           /api/push        GET: the VAPID key; /api/push/subscriptions POST, DELETE: a
//                            browser's Web Push subscription (server/push_routes.hpp)
//           /api/v1/...      the operations of src/ops for programs (api_routes.hpp, docs/api.md)
//           /mcp             POST: MCP's Streamable HTTP (key in X-Wharf-Key, Origin checked)
//           /api/stop        POST: stop the daemon (the page's power button)
//           /api/upload      POST: an image for a session to read (the composer)
//
// Every refusal on /api/... and /mcp is JSON, {"ok": false, "error": {"code", "message"}},
// with its status: 401 no or wrong key, 403 a foreign Origin or a rebindable Host, 421 a
// Host that names another server, 404, 405 (with Allow), 413, 415, 431. The page and the
// static files keep their own plain answers.
#pragma once

#include <boost/beast/http.hpp>
#include <boost/json/object.hpp>
#include <variant>

#include "core/result.hpp"
#include "core/terminal_size.hpp"
#include "server/server_context.hpp"

namespace wharf::server {

namespace http = boost::beast::http;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

struct UpgradeToWebSocket {
  core::TerminalSize size;  // what the window asked for (clamped), used if a session starts
  std::int64_t device = 0;  // the paired device whose cookie opened it; 0: the key did
};

// An /api/v1 request, checked and read: the connection runs the operation (src/ops).
struct OperationCall {
  std::string name;
  boost::json::object args;
};

// A POST to /mcp that passed the key and Origin rules: the body is one JSON-RPC message.
struct McpPost {
  std::string protocol_version;  // the MCP-Protocol-Version header, if sent
};

// POST /api/stop with the key (and our own Origin, if any): the connection answers with
// the sessions that end, then asks the daemon to stop.
struct StopDaemon {};

// POST /api/upload with the key: the body is the file; the connection stores it.
struct UploadFile {};

using RouteDecision =
    std::variant<Response, UpgradeToWebSocket, OperationCall, McpPost, StopDaemon, UploadFile>;

inline constexpr std::string_view kKeyHeader = "X-Wharf-Key";

RouteDecision route_request(const Request& request, const ServerContext& context);

// Whether a request (its header is enough) carries the key in any accepted form:
// X-Wharf-Key, Authorization: Bearer, or ?k=. The connection sizes body limits by it.
bool holds_key(const Request& request, const ServerContext& context);

// An operation's answer: 200 with its JSON, or the error's status (api_routes.hpp).
Response operation_response(const core::Result<boost::json::object>& answer, const Request& req);
Response json_reply(http::status status, std::string body, const Request& req);
// Any body with wharf's common headers (no referrer, no framing, no-store).
Response plain_reply(http::status status, std::string_view content_type, std::string body,
                     const Request& req);
// A refusal in the JSON shape above.
Response error_reply(http::status status, std::string_view code, std::string_view message,
                     const Request& req);
// The same, for the connection's answers made before a request was read whole (a header
// or body over its limit, a malformed request): there is no request to answer in kind.
Response error_reply(http::status status, std::string_view code, std::string_view message,
                     unsigned version, bool keep_alive);

}  // namespace wharf::server
