// What a sandboxed program sends wharf's egress proxy, parsed as the proxy parses it:
// Beast reads the request head (with the proxy's header limit), then the request line is
// judged against a fixed allow-list. Whatever the bytes, nothing crashes, and a request
// that is let through names a host and port the list allows, with an origin-form path
// for plain HTTP.
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "egress/egress_proxy.hpp"
#include "egress/proxy_request.hpp"

namespace http = boost::beast::http;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<wharf::core::Endpoint> kAllow{
      wharf::core::endpoint_of("api.anthropic.com").value(),
      wharf::core::endpoint_of("*.example.com:80").value(),
      wharf::core::endpoint_of("10.0.0.5:8080").value()};
  http::request_parser<http::empty_body> parser;
  parser.header_limit(static_cast<std::uint32_t>(wharf::egress::kMaxHeadBytes));
  parser.skip(true);
  boost::system::error_code ec;
  parser.put(boost::asio::buffer(data, size), ec);
  if (ec || !parser.is_header_done()) return 0;
  const auto& head = parser.get();
  auto judged = wharf::egress::judge_proxy_request(std::string_view(head.method_string()),
                                                   std::string_view(head.target()), kAllow);
  if (!judged) {
    const std::string& code = judged.error().code;
    if (code != "bad_request" && code != "not_allowed") std::abort();
    return 0;
  }
  const auto& target = judged.value();
  if (!wharf::core::allowed(kAllow, target.host, target.port)) std::abort();
  if (!target.tunnel && !target.origin_form.starts_with('/')) std::abort();
  wharf::egress::dialable_address(target.host);
  return 0;
}
