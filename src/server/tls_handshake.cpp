#include "server/tls_handshake.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ssl/stream_base.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/detect_ssl.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <string>

#include "core/request_policy.hpp"

namespace wharf::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

// Long enough for a phone on a slow network, short enough that a silent client does
// not hold a connection slot.
constexpr auto kHandshakeTimeout = std::chrono::seconds(10);
constexpr std::uint32_t kHeaderLimit = 16 * 1024;

http::response<http::string_body> plain_answer(
    const http::request_parser<http::empty_body>::value_type& req, const ServerContext& context) {
  http::response<http::string_body> res;
  res.version(11);
  res.set(http::field::server, "wharf");
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(false);
  auto host = req.find(http::field::host);
  bool host_ok =
      req.count(http::field::host) == 1 &&
      core::judge_host(host->value(), context.listen, context.reach) == core::HostVerdict::kAllowed;
  std::string_view target(req.target().data(), req.target().size());
  if (host_ok && target.starts_with('/')) {
    std::string secure = "https://" + std::string(host->value()) + std::string(target);
    res.result(http::status::temporary_redirect);
    res.set(http::field::location, secure);
    res.body() = "wharf speaks HTTPS on this port: open https://" + std::string(host->value()) +
                 "/ instead.\n";
  } else {
    res.result(http::status::bad_request);
    res.body() = "wharf speaks HTTPS on this port: open it with https:// instead of http://.\n";
  }
  res.prepare_payload();
  return res;
}

asio::awaitable<void> answer_plain_http(ServerStream& stream, beast::flat_buffer& buffer,
                                        const ServerContext& context, std::string_view peer) {
  http::request_parser<http::empty_body> parser;
  parser.header_limit(kHeaderLimit);
  auto [read_ec, read_n] = co_await http::async_read_header(stream.tcp(), buffer, parser,
                                                            asio::as_tuple(asio::use_awaitable));
  if (read_ec) {
    spdlog::info("connection from {} refused: it spoke neither TLS nor HTTP on the TLS port", peer);
    co_return;
  }
  auto res = plain_answer(parser.get(), context);
  spdlog::info(
      "plain HTTP {} from {} on the TLS port -> {} (anything it carried, a key included, crossed "
      "the network unencrypted)",
      core::loggable_target(parser.get().target(), context.key), peer, res.result_int());
  // Whether the answer arrived changes nothing: the connection ends either way.
  co_await http::async_write(stream.tcp(), res, asio::as_tuple(asio::use_awaitable));
  boost::system::error_code ignored;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

}  // namespace

asio::awaitable<bool> open_tls(ServerStream& stream, beast::flat_buffer& buffer,
                               const ServerContext& context, std::string_view peer) {
  stream.expires_after(kHandshakeTimeout);
  auto [detect_ec, is_tls] =
      co_await beast::async_detect_ssl(stream.tcp(), buffer, asio::as_tuple(asio::use_awaitable));
  if (detect_ec) co_return false;
  if (!is_tls) {
    co_await answer_plain_http(stream, buffer, context, peer);
    co_return false;
  }
  auto& tls = stream.start_tls(*context.tls_context);
  auto [handshake_ec, used] = co_await tls.async_handshake(
      asio::ssl::stream_base::server, buffer.data(), asio::as_tuple(asio::use_awaitable));
  if (handshake_ec) {
    // Most often a browser that does not trust the certificate yet (docs/remote.md).
    spdlog::info("TLS handshake with {} failed: {}", peer, handshake_ec.message());
    co_return false;
  }
  buffer.consume(used);
  co_return true;
}

}  // namespace wharf::server
