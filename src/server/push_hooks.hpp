// What the router may ask of Web Push (app/web_push_channel.hpp), as plain hooks in the
// ServerContext, so the router stays pure: its unit tests and fuzzer set none, and push is
// then "off". The daemon wires them to its one WebPushChannel (server/push_routes.hpp).
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <functional>
#include <string_view>

#include "core/result.hpp"

namespace wharf::server {

struct PushHooks {
  std::function<boost::json::object()> status;  // enabled, public_key, subscriptions
  std::function<core::Status(const boost::json::value& subscription)> subscribe;
  std::function<bool(std::string_view endpoint)> unsubscribe;
};

}  // namespace wharf::server
