#include "server/api_routes.hpp"

#include <array>
#include <boost/json/parse.hpp>
#include <charconv>
#include <optional>

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
      code == "no_device" || code == "no_shared_shell" || code == "no_decision")
    return http::status::not_found;
  if (code == "not_permitted") return http::status::forbidden;
  if (code == "busy" || code == "input_refused" || code == "no_shell_integration" ||
      code == "already_answered")
    return http::status::conflict;
  if (code == "limit_reached") return http::status::too_many_requests;
  if (code == "too_large") return http::status::payload_too_large;
  if (code == "internal" || code == "start_failed") return http::status::internal_server_error;
  return http::status::unprocessable_entity;
}

std::span<const ApiRouteSpec> api_v1_routes() {
  using A = ApiRouteSpec::Arguments;
  using http::verb;
  static constexpr std::array kRoutes{
      ApiRouteSpec{verb::get, "entries", "list_entries", A::kNone},
      ApiRouteSpec{verb::get, "sessions", "list_sessions", A::kNone},
      ApiRouteSpec{verb::post, "sessions", "new_session", A::kBody, http::status::created},
      ApiRouteSpec{verb::delete_, "sessions/{session}", "end_session", A::kNone},
      ApiRouteSpec{verb::get, "sessions/{session}/screen", "read_screen", A::kQuery},
      ApiRouteSpec{verb::post, "sessions/{session}/keys", "send_keys", A::kBody},
      ApiRouteSpec{verb::post, "sessions/{session}/text", "send_text", A::kBody},
      ApiRouteSpec{verb::post, "sessions/{session}/wait", "wait_for", A::kBody},
      ApiRouteSpec{verb::post, "sessions/{session}/run", "run_command", A::kBody},
      ApiRouteSpec{verb::post, "sessions/{session}/notify", "notify", A::kBody},
      ApiRouteSpec{verb::post, "sessions/{session}/name", "rename_session", A::kBody},
      ApiRouteSpec{verb::post, "sessions/{session}/position", "move_session", A::kBody},
      ApiRouteSpec{verb::post, "sessions/{session}/pane", "pane_show", A::kBody},
      ApiRouteSpec{verb::delete_, "sessions/{session}/pane", "pane_clear", A::kNone},
      ApiRouteSpec{verb::post, "run", "run_command", A::kBody},
      ApiRouteSpec{verb::get, "devices", "list_devices", A::kNone},
      ApiRouteSpec{verb::post, "devices/pair", "pair_device", A::kBody},
      ApiRouteSpec{verb::post, "devices/revoke", "revoke_device", A::kBody},
      ApiRouteSpec{verb::get, "decisions", "list_decisions", A::kNone},
      ApiRouteSpec{verb::get, "sessions/{session}/decisions", "list_decisions", A::kNone},
      ApiRouteSpec{verb::post, "decisions/answer", "answer_decision", A::kBody},
      ApiRouteSpec{verb::get, "openapi.json", "", A::kNone},
      ApiRouteSpec{verb::get, "health", "", A::kNone},
  };
  return kRoutes;
}

namespace {

// `path` against a route's template: nullopt when the shape differs; else the text in
// the {session} place ("" when the template has none).
std::optional<std::string_view> match_shape(std::string_view pattern, std::string_view path) {
  std::string_view id;
  for (;;) {
    std::size_t p_end = pattern.find('/');
    std::size_t s_end = path.find('/');
    std::string_view p = pattern.substr(0, p_end);
    std::string_view s = path.substr(0, s_end);
    if (p == "{session}") {
      id = s;
    } else if (p != s) {
      return std::nullopt;
    }
    if ((p_end == std::string_view::npos) != (s_end == std::string_view::npos)) return std::nullopt;
    if (p_end == std::string_view::npos) return id;
    pattern.remove_prefix(p_end + 1);
    path.remove_prefix(s_end + 1);
  }
}

}  // namespace

ApiRoute route_api_v1(http::verb method, std::string_view path,
                      const std::vector<std::pair<std::string, std::string>>& query,
                      std::string_view body, bool body_is_json) {
  const ApiRouteSpec* chosen = nullptr;
  std::string allow;
  std::optional<std::int64_t> session;
  for (const ApiRouteSpec& route : api_v1_routes()) {
    auto id_text = match_shape(route.path, path);
    if (!id_text) continue;
    if (route.path.find("{session}") != std::string_view::npos) {
      session = session_id(*id_text);
      if (!session)
        return refusal(http::status::bad_request, "bad_argument",
                       "a session is named by its id, a positive integer");
    }
    allow += (allow.empty() ? "" : ", ") + std::string(http::to_string(route.method));
    if (route.method == method && chosen == nullptr) chosen = &route;
  }
  if (allow.empty())
    return refusal(http::status::not_found, "not_found", "no such API route (see docs/api.md)");
  if (chosen == nullptr) return wrong_method(std::move(allow));
  if (chosen->operation.empty())
    return refusal(http::status::not_found, "not_found", "served by the router, not an operation");

  std::string name(chosen->operation);
  json::object args;
  switch (chosen->arguments) {
    case ApiRouteSpec::Arguments::kNone:
      break;
    case ApiRouteSpec::Arguments::kQuery:
      // Every parameter is an argument (text; integers are read from digits), checked by
      // the operation against its own schema, which refuses an unknown one by name. The
      // page's cols and rows are ignored; the session is the path's.
      for (const auto& [key, value] : query) {
        if (key == "session")
          return refusal(http::status::bad_request, "bad_argument",
                         "the session is named by the path, not the query");
        if (key != "cols" && key != "rows") args[key] = value;
      }
      break;
    case ApiRouteSpec::Arguments::kBody: {
      auto parsed = body_object(body, body_is_json);
      if (auto* refused = std::get_if<ApiRefusal>(&parsed)) return std::move(*refused);
      args = std::move(std::get<json::object>(parsed));
      if (session && args.contains("session"))
        return refusal(http::status::bad_request, "bad_argument",
                       "the session is named by the path, not the body");
      break;
    }
  }
  if (session) args["session"] = *session;
  return OperationCall{std::move(name), std::move(args)};
}

}  // namespace wharf::server
