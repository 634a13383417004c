// /api/v1: the operations of src/ops over HTTP, for scripts and programs that hold the
// key (docs/api.md). Pure: the method, the path after /api/v1/, the query and the body
// become an operation's name and arguments, or a refusal with its HTTP status; the
// connection runs the operation.
//
//   GET    sessions                    list_sessions
//   POST   sessions          {launch}  new_session
//   DELETE sessions/ID                 end_session
//   GET    sessions/ID/screen?scrollback=N&since=SEQ   read_screen
//   POST   sessions/ID/keys  {keys}    send_keys
//   POST   sessions/ID/text  {text, submit?}           send_text
//   POST   sessions/ID/wait  {pattern | idle_ms, timeout_ms?}   wait_for
//   POST   sessions/ID/run   {command, timeout_ms?, interrupt?} run_command in ID
//   POST   run               {command, session?, ...}  run_command (default: the shared shell)
#pragma once

#include <boost/beast/http/status.hpp>
#include <boost/beast/http/verb.hpp>
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

ApiRoute route_api_v1(http::verb method, std::string_view path,
                      const std::vector<std::pair<std::string, std::string>>& query,
                      std::string_view body, bool body_is_json);

// The HTTP status for an operation's error code.
http::status status_for_operation_error(std::string_view code);

}  // namespace wharf::server
