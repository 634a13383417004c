#include "server/api_endpoints.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/json/serialize.hpp>

#include "app/upload_store.hpp"
#include "app/web_push_channel.hpp"
#include "ops/operation.hpp"
#include "server/device_routes.hpp"

namespace wharf::server {
namespace asio = boost::asio;

asio::awaitable<Response> run_api_operation(const OperationCall& call, const Request& request,
                                            ServerContext& context) {
  if (context.sessions == nullptr)
    co_return operation_response(core::Error{"not ready", "internal"}, request);
  // Whoever holds the key may use every session (core/ownership.hpp).
  // The device whose cookie came along is this browser ("current" in list_devices).
  ops::Context caller{*context.sessions,
                      core::Caller{.kind = core::Caller::Kind::kKeyHolder,
                                   .device = cookie_device(request, context).value_or(0)}};
  auto answer = co_await ops::run_operation(call.name, caller, call.args);
  Response response = operation_response(answer, request);
  // A session made by POST /api/v1/sessions is a created resource: 201, and where it is.
  if (answer && call.name == "new_session") {
    response.result(http::status::created);
    boost::system::error_code ec;
    const auto* id = answer.value().if_contains("session");
    auto number = id != nullptr ? id->to_number<std::int64_t>(ec) : std::int64_t{0};
    if (id != nullptr && !ec)
      response.set(http::field::location, "/api/v1/sessions/" + std::to_string(number));
  }
  co_return response;
}

Response store_upload(const Request& request, ServerContext& context) {
  if (context.uploads == nullptr)
    return error_reply(http::status::not_found, "refused", "uploads are off", request);
  auto stored = context.uploads->store(request.body());
  if (!stored) {
    const core::Error& error = stored.error();
    http::status status = error.code == "too_large"          ? http::status::payload_too_large
                          : error.code == "unsupported_type" ? http::status::unsupported_media_type
                                                             : http::status::internal_server_error;
    return error_reply(status, error.code, error.message, request);
  }
  const app::StoredUpload& upload = stored.value();
  spdlog::info("upload stored: {} ({} bytes, {})", upload.name, upload.bytes, upload.type);
  return operation_response(boost::json::object{{"path", upload.path},
                                                {"name", upload.name},
                                                {"bytes", upload.bytes},
                                                {"type", upload.type}},
                            request);
}

Response stop_daemon(const Request& request, ServerContext& context,
                     const asio::any_io_executor& executor) {
  if (!context.request_stop || context.sessions == nullptr)
    return operation_response(core::Error{"this wharf cannot be stopped from here", "refused"},
                              request);
  boost::json::array names;
  for (const core::SessionEntry* e : context.sessions->registry().entries())
    names.push_back(boost::json::string(e->name()));
  spdlog::info("stop requested over HTTP: ending {} session(s)", names.size());
  asio::post(executor, context.request_stop);
  return operation_response(boost::json::object{{"sessions", std::move(names)}}, request);
}

PushHooks push_hooks(app::WebPushChannel& channel) {
  return PushHooks{
      .status =
          [&channel] {
            return boost::json::object{{"enabled", channel.enabled()},
                                       {"public_key", channel.public_key()},
                                       {"subscriptions", channel.subscription_count()}};
          },
      .subscribe =
          [&channel](const boost::json::value& subscription) {
            return channel.subscribe(subscription);
          },
      .unsubscribe =
          [&channel](std::string_view endpoint) { return channel.unsubscribe(endpoint); },
  };
}

}  // namespace wharf::server
