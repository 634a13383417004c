// The HTTP side of paired devices (app/device_service.hpp, docs/remote.md "Pairing a
// phone"): the device cookie, the trade of a `?k=KEY` page visit for a cookie of its own,
// and /pair/CODE.
//
// The cookie is named wharf_<port>: cookies ignore ports, so two daemons on one host keep
// one each. It is HttpOnly (no script reads it), SameSite=Strict (no other site's page
// can make the browser send it), Path=/, Secure when served over https, and lives 400
// days (the most browsers keep). Its value is the device token; the daemon stores only
// the token's hash.
//
// A trade answers 303 to the same address without `k` (other parameters kept), so the key
// leaves the address bar and the history. A navigation another site started would not
// carry a SameSite=Strict cookie through a redirect, so for those (Sec-Fetch-Site
// cross-site or same-site) the answer is a small page that moves on by itself from our
// own origin instead. Pure, like the router: the devices are reached through
// ServerContext::devices.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "server/router.hpp"

namespace wharf::server {

std::string device_cookie_name(const ServerContext& context);

// The device the request's cookie names, or nullopt (no cookie, no such device, no hooks).
std::optional<std::int64_t> cookie_device(const Request& request, const ServerContext& context);

// For a page GET: with `k` in the query, the trade's answer (a new device when the key is
// good and no device cookie came; just the clean address when a device cookie did).
// nullopt: no `k`, or a wrong key without a device (the caller refuses).
std::optional<Response> trade_page_key(const Request& request, bool key_good,
                                       const ServerContext& context);

// GET /pair/CODE.
Response serve_pair(const Request& request, std::string_view code, const ServerContext& context);

}  // namespace wharf::server
