// One HTTP(S) POST from wharf to a server the operator configured (an ntfy topic, a
// browser's push service). Outbound requests are rare and small, so each gets its own
// connection: resolve, connect, TLS for https (the system's CA store, SNI, host name
// verified), send, read the status and at most kMaxResponseBytes of body, close. The whole
// exchange has one deadline. done() runs exactly once on the executor, with the status or
// an error saying which step failed; the URL's query and the body never reach an error.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"

namespace wharf::app {

inline constexpr std::size_t kMaxResponseBytes = 64 * 1024;

struct OutboundRequest {
  std::string url;  // http:// or https://
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds timeout{10000};
};

struct OutboundResponse {
  unsigned status = 0;
  std::string body;  // cut to kMaxResponseBytes
};

using OutboundDone = std::function<void(core::Result<OutboundResponse>)>;

void post_outbound(boost::asio::any_io_executor executor, OutboundRequest request,
                   OutboundDone done);

}  // namespace wharf::app
