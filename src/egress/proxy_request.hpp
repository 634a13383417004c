// What a sandboxed program asks wharf's egress proxy for, judged from the request line
// alone: `CONNECT host:port` (HTTPS and anything else tunnelled) or an absolute-form
// `GET http://host[:port]/path` (plain HTTP), checked against the session's allow-list.
// Pure, so every refusal is a unit test and the fuzzer needs no sockets.
//
// Names, not addresses, are what the list allows; an IP literal is refused unless the
// list names it, so a program cannot skip the list by resolving a name itself. After
// resolving an allowed name, addresses that point back into this machine or its link
// (loopback, link-local, unspecified, multicast) are refused too: an allowed wildcard
// whose owner points a subdomain at 127.0.0.1 must not reach wharf or other local
// services.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/capabilities.hpp"
#include "core/result.hpp"

namespace wharf::egress {

struct ProxyTarget {
  std::string host;
  std::uint16_t port = 0;
  bool tunnel = false;      // CONNECT: bytes flow both ways once connected
  std::string origin_form;  // plain HTTP: the path and query to send upstream
};

// The request line's target, without the list: refusals have code "bad_request"
// (answered 400).
core::Result<ProxyTarget> parse_proxy_request(std::string_view method, std::string_view target);

// Parsed and checked against the list: a host or port off it has code "not_allowed"
// (answered 403 and recorded).
core::Result<ProxyTarget> judge_proxy_request(std::string_view method, std::string_view target,
                                              const std::vector<core::Endpoint>& allow);

// Whether a resolved address may be dialled (see above). Text form as asio prints it.
bool dialable_address(std::string_view ip);

}  // namespace wharf::egress
