#include "server/push_routes.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "server/server_context.hpp"

namespace wharf::server {
namespace json = boost::json;
namespace {

Response wrong_method(const Request& req, std::string_view allow) {
  Response res = error_reply(http::status::method_not_allowed, "bad_method",
                             "this route takes " + std::string(allow), req);
  res.set(http::field::allow, allow);
  return res;
}

http::status status_of(const core::Error& error) {
  if (error.code == "bad_argument" || error.code == "bad_request") return http::status::bad_request;
  if (error.code == "limit_reached") return http::status::too_many_requests;
  if (error.code == "unavailable") return http::status::service_unavailable;
  return http::status::internal_server_error;
}

core::Result<json::value> json_body(const Request& req) {
  auto type = req.find(http::field::content_type);
  if (type == req.end() || !type->value().starts_with("application/json"))
    return core::Error{"send a JSON body (Content-Type: application/json)", "bad_request"};
  boost::system::error_code ec;
  json::value body = json::parse(req.body(), ec);
  if (ec || !body.is_object())
    return core::Error{"the body must be one JSON object", "bad_request"};
  return body;
}

Response refusal(const core::Error& error, const Request& req) {
  return error_reply(status_of(error), error.code.empty() ? "refused" : error.code, error.message,
                     req);
}

}  // namespace

Response serve_push(const Request& req, std::string_view path, const ServerContext& ctx) {
  const PushHooks& push = ctx.push;
  if (path == "/api/push") {
    if (req.method() != http::verb::get && req.method() != http::verb::head)
      return wrong_method(req, "GET, HEAD");
    json::object answer =
        push.status ? push.status()
                    : json::object{{"enabled", false}, {"public_key", ""}, {"subscriptions", 0}};
    answer["ok"] = true;
    return json_reply(http::status::ok, json::serialize(answer) + "\n", req);
  }
  if (path != "/api/push/subscriptions")
    return error_reply(http::status::not_found, "not_found", "no such route (see docs/api.md)",
                       req);
  if (req.method() != http::verb::post && req.method() != http::verb::delete_)
    return wrong_method(req, "POST, DELETE");
  if (!push.subscribe || !push.unsubscribe)
    return refusal(core::Error{"web push is off in this wharf", "unavailable"}, req);
  auto body = json_body(req);
  if (!body) return refusal(body.error(), req);
  if (req.method() == http::verb::post) {
    if (auto kept = push.subscribe(body.value()); !kept) return refusal(kept.error(), req);
    json::object answer = push.status ? push.status() : json::object{};
    answer["ok"] = true;
    return json_reply(http::status::ok, json::serialize(answer) + "\n", req);
  }
  const json::value* endpoint = body.value().get_object().if_contains("endpoint");
  if (endpoint == nullptr || !endpoint->is_string())
    return refusal(core::Error{"the body must name the subscription's endpoint", "bad_argument"},
                   req);
  bool removed = push.unsubscribe(endpoint->get_string());
  return json_reply(http::status::ok,
                    json::serialize(json::object{{"ok", true}, {"removed", removed}}) + "\n", req);
}

}  // namespace wharf::server
