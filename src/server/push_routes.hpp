// The HTTP side of Web Push (app/web_push_channel.hpp, docs/api.md "Web Push"): the page
// asks for the VAPID public key, hands over its browser's PushSubscription, or withdraws
// it. Page routes, like /api/agent: the key (or a device cookie, as for every /api/ call)
// and, for a change, wharf's own Origin are checked by the router first.
//
//   GET    /api/push                {"enabled", "public_key", "subscriptions"}
//   POST   /api/push/subscriptions  the PushSubscription JSON: kept (same endpoint replaces)
//   DELETE /api/push/subscriptions  {"endpoint": URL}: forgotten ({"removed": bool})
//
// The endpoint travels in the body, never the query: it is a capability, and request
// targets are logged. Pure, like the router: the channel is reached through
// ServerContext::push (server/push_hooks.hpp).
#pragma once

#include <string_view>

#include "server/router.hpp"

namespace wharf::server {

// `path` is "/api/push" or starts with "/api/push/".
Response serve_push(const Request& request, std::string_view path, const ServerContext& context);

}  // namespace wharf::server
