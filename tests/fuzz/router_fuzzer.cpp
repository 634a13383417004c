// Arbitrary bytes through Beast's request parser and then wharf's router: no input may
// crash either, and no response without the key may carry the page or the status.
#include <boost/beast/http.hpp>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "server/router.hpp"

namespace {

wharf::server::ServerContext& context() {
  static wharf::server::ServerContext ctx = [] {
    wharf::server::ServerContext c;
    c.key = "00017f80abcdefff1020304050607090";
    c.listen = {.ip = "127.0.0.1", .port = 7373};
    return c;
  }();
  return ctx;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace http = boost::beast::http;
  http::request_parser<http::string_body> parser;
  parser.eager(true);
  parser.header_limit(16 * 1024);
  parser.body_limit(64 * 1024);
  boost::beast::error_code ec;
  parser.put(boost::asio::buffer(data, size), ec);
  if (ec || !parser.is_header_done()) return 0;
  const auto& request = parser.get();
  auto decision = wharf::server::route_request(request, context());
  std::string_view raw(reinterpret_cast<const char*>(data), size);
  bool has_key = raw.find(context().key) != std::string_view::npos;
  if (!has_key && std::holds_alternative<wharf::server::UpgradeToWebSocket>(decision)) std::abort();
  if (auto* response = std::get_if<wharf::server::Response>(&decision)) {
    if (!has_key && response->result() == http::status::ok &&
        response->body().find("\"sessions\"") != std::string::npos)
      std::abort();
  }
  return 0;
}
