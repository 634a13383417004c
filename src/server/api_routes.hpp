// /api/v1: the operations of src/ops over HTTP, for scripts and programs that hold the
// key (docs/api.md). Pure: the method, the path after /api/v1/, the query and the body
// become an operation's name and arguments, or a refusal with its HTTP status; the
// connection runs the operation.
//
// The routes are one table (api_v1_routes()), from which both the routing here and the
// OpenAPI document (server/openapi.hpp) come, so no route can be served undocumented or
// documented unserved:
//
//   GET    entries                     list_entries
//   GET    sessions                    list_sessions
//   POST   sessions          {launch}  new_session
//   DELETE sessions/ID                 end_session
//   GET    sessions/ID/screen?scrollback=N&since=SEQ   read_screen
//   POST   sessions/ID/keys  {keys}    send_keys
//   POST   sessions/ID/text  {text, submit?}           send_text
//   POST   sessions/ID/wait  {pattern | idle_ms, timeout_ms?}   wait_for
//   POST   sessions/ID/run   {command, timeout_ms?, interrupt?} run_command in ID
//   POST   sessions/ID/notify {state}  notify
//   POST   run               {command, session?, ...}  run_command (default: the shared shell)
//   GET    devices                     list_devices (paired browsers)
//   POST   devices/pair      {name?}   pair_device: a one-time pairing link and its QR code
//   POST   devices/revoke    {device}  revoke_device
//   GET    openapi.json                the OpenAPI 3.1 document (served by the router)
//   GET    health                      liveness, without the key (served by the router)
#pragma once

#include <boost/beast/http/status.hpp>
#include <boost/beast/http/verb.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "server/router.hpp"

namespace wharf::server {

struct ApiRefusal {
  http::status status;
  std::string code;
  std::string message;
  std::string allow;  // for 405: the methods the path takes
};

using ApiRoute = std::variant<OperationCall, ApiRefusal>;

// One route of /api/v1. `path` is relative to /api/v1/; "{session}" stands for a session's
// id (a positive integer), which becomes the operation's "session" argument.
struct ApiRouteSpec {
  enum class Arguments { kNone, kQuery, kBody };
  http::verb method;
  std::string_view path;
  std::string_view operation;  // empty: served by the router itself (openapi.json, health)
  Arguments arguments = Arguments::kNone;
  http::status success = http::status::ok;  // 201 for a session started (api_endpoints.cpp)
};

std::span<const ApiRouteSpec> api_v1_routes();

ApiRoute route_api_v1(http::verb method, std::string_view path,
                      const std::vector<std::pair<std::string, std::string>>& query,
                      std::string_view body, bool body_is_json);

// The HTTP status for an operation's error code.
http::status status_for_operation_error(std::string_view code);

}  // namespace wharf::server
