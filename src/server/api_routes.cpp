#include "server/api_routes.hpp"

#include <boost/json/parse.hpp>
#include <charconv>

namespace wharf::server {
namespace json = boost::json;
namespace {

ApiRefusal refusal(http::status status, std::string code, std::string message) {
  return ApiRefusal{status, std::move(code), std::move(message), {}};
}

ApiRefusal wrong_method(std::string allow) {
  return ApiRefusal{http::status::method_not_allowed, "bad_method", "method not allowed",
                    std::move(allow)};
}

// The body of a POST: a JSON object, or nothing at all (no arguments).
std::variant<json::object, ApiRefusal> body_object(std::string_view body, bool is_json) {
  if (body.empty()) return json::object{};
  if (!is_json)
    return refusal(http::status::unsupported_media_type, "bad_request",
                   "send a JSON body (Content-Type: application/json)");
  boost::system::error_code ec;
  json::value value = json::parse(body, ec);
  if (ec || !value.is_object())
    return refusal(http::status::bad_request, "bad_request", "the body must be one JSON object");
  return std::move(value.get_object());
}

std::optional<std::int64_t> session_id(std::string_view text) {
  std::int64_t id = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc{} || ptr != text.data() + text.size() || id <= 0) return std::nullopt;
  return id;
}

}  // namespace

http::status status_for_operation_error(std::string_view code) {
  if (code == "bad_argument" || code == "bad_field" || code == "bad_env" ||
      code == "bad_directory" || code == "bad_key" || code == "bad_request")
    return http::status::bad_request;
  if (code == "no_session" || code == "unknown_entry" || code == "unknown_operation" ||
      code == "no_shared_shell")
    return http::status::not_found;
  if (code == "not_permitted") return http::status::forbidden;
  if (code == "busy" || code == "input_refused" || code == "no_shell_integration")
    return http::status::conflict;
  if (code == "limit_reached") return http::status::too_many_requests;
  if (code == "internal" || code == "start_failed") return http::status::internal_server_error;
  return http::status::unprocessable_entity;
}

ApiRoute route_api_v1(http::verb method, std::string_view path,
                      const std::vector<std::pair<std::string, std::string>>& query,
                      std::string_view body, bool body_is_json) {
  bool get = method == http::verb::get;
  bool post = method == http::verb::post;

  // POST routes read their arguments from the body.
  auto with_body = [&](std::string name, std::optional<std::int64_t> session) -> ApiRoute {
    auto parsed = body_object(body, body_is_json);
    if (auto* refused = std::get_if<ApiRefusal>(&parsed)) return std::move(*refused);
    json::object args = std::move(std::get<json::object>(parsed));
    if (session) {
      if (args.contains("session"))
        return refusal(http::status::bad_request, "bad_argument",
                       "the session is named by the path, not the body");
      args["session"] = *session;
    }
    return OperationCall{std::move(name), std::move(args)};
  };

  if (path == "sessions") {
    if (get) return OperationCall{"list_sessions", {}};
    if (post) return with_body("new_session", std::nullopt);
    return wrong_method("GET, POST");
  }
  if (path == "run") {
    if (post) return with_body("run_command", std::nullopt);
    return wrong_method("POST");
  }

  constexpr std::string_view kSessions = "sessions/";
  if (!path.starts_with(kSessions))
    return refusal(http::status::not_found, "not_found", "no such API route (see docs/api.md)");
  std::string_view rest = path.substr(kSessions.size());
  std::string_view id_text = rest.substr(0, rest.find('/'));
  std::string_view action = rest.size() > id_text.size() ? rest.substr(id_text.size() + 1) : "";
  auto id = session_id(id_text);
  if (!id)
    return refusal(http::status::not_found, "no_session",
                   "a session is named by its id, a positive integer");

  if (action.empty()) {
    if (method == http::verb::delete_) return OperationCall{"end_session", {{"session", *id}}};
    return wrong_method("DELETE");
  }
  if (action == "screen") {
    if (!get) return wrong_method("GET");
    json::object args{{"session", *id}};
    for (const auto& [name, value] : query) {
      if (name == "scrollback" || name == "since") {
        args[name] = value;  // read_screen checks that it is a number
      } else if (name != "cols" && name != "rows") {
        return refusal(http::status::bad_request, "bad_argument",
                       "unknown query parameter (read_screen takes scrollback and since)");
      }
    }
    return OperationCall{"read_screen", std::move(args)};
  }
  struct Action {
    std::string_view path;
    std::string_view operation;
  };
  for (Action a : {Action{"keys", "send_keys"}, Action{"text", "send_text"},
                   Action{"wait", "wait_for"}, Action{"run", "run_command"}}) {
    if (action != a.path) continue;
    if (!post) return wrong_method("POST");
    return with_body(std::string(a.operation), id);
  }
  return refusal(http::status::not_found, "not_found", "no such API route (see docs/api.md)");
}

}  // namespace wharf::server
