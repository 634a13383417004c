// One outbound POST as a coroutine on the daemon's executor. The URL is parsed first (a
// refusal never opens a socket); the one deadline is a time point: a timer cancels the
// resolver, and every later step (connect, TLS handshake, write, read) runs on a
// tcp_stream whose expiry is that same time point. Errors name the step and the host,
// never the path, query or body (an ntfy topic or a push endpoint is a secret of sorts).
#include "app/outbound_post.hpp"

#include <openssl/ssl.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/url/parse.hpp>
#include <exception>
#include <memory>
#include <utility>

#include "core/version.hpp"

namespace wharf::app {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

struct Target {
  bool tls = false;
  std::string host;  // without brackets for IPv6 literals
  std::string port;
  std::string host_header;
  std::string path;  // path and query, at least "/"
};

core::Result<Target> parse_target(const std::string& url) {
  auto parsed = boost::urls::parse_absolute_uri(url);
  if (!parsed) return core::Error("the URL is not an absolute http(s) URL");
  const auto& uri = *parsed;
  Target target;
  if (uri.scheme_id() == boost::urls::scheme::https) {
    target.tls = true;
  } else if (uri.scheme_id() != boost::urls::scheme::http) {
    return core::Error("the URL's scheme must be http or https");
  }
  if (!uri.has_authority() || uri.host().empty()) return core::Error("the URL has no host");
  if (uri.has_userinfo()) return core::Error("the URL must not carry a user name or password");
  target.host = uri.host_address();
  target.port = uri.has_port() ? std::string(uri.port()) : (target.tls ? "443" : "80");
  target.host_header = std::string(uri.encoded_host_and_port());
  target.path = std::string(uri.encoded_target());
  if (target.path.empty()) target.path = "/";
  return target;
}

std::string where(const Target& target) {
  return target.host + ":" + target.port;
}

template <class Stream>
asio::awaitable<core::Result<OutboundResponse>> exchange(Stream& stream, const Target& target,
                                                         const OutboundRequest& request) {
  http::request<http::string_body> message{http::verb::post, target.path, 11};
  message.set(http::field::host, target.host_header);
  message.set(http::field::user_agent, std::string("wharf/").append(core::kVersion));
  message.set(http::field::connection, "close");
  for (const auto& header : request.headers) message.set(header.first, header.second);
  message.body() = request.body;
  message.prepare_payload();

  auto [write_error, written] =
      co_await http::async_write(stream, message, asio::as_tuple(asio::use_awaitable));
  (void)written;
  if (write_error) {
    co_return core::Error("sending the request to " + where(target) +
                          " failed: " + write_error.message());
  }
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(kMaxResponseBytes);
  auto [header_error, header_bytes] =
      co_await http::async_read_header(stream, buffer, parser, asio::as_tuple(asio::use_awaitable));
  (void)header_bytes;
  if (header_error) {
    co_return core::Error("reading the response from " + where(target) +
                          " failed: " + header_error.message());
  }
  OutboundResponse response;
  response.status = parser.get().result_int();
  auto [body_error, body_bytes] =
      co_await http::async_read(stream, buffer, parser, asio::as_tuple(asio::use_awaitable));
  (void)body_bytes;
  // A body past the cap or a server that closes without finishing still has a status: the
  // status is what callers act on, the body is only for their log.
  (void)body_error;
  response.body = std::move(parser.get().body());
  if (response.body.size() > kMaxResponseBytes) response.body.resize(kMaxResponseBytes);
  co_return response;
}

asio::awaitable<core::Result<OutboundResponse>> run(asio::any_io_executor executor, Target target,
                                                    OutboundRequest request) {
  const auto deadline = Clock::now() + request.timeout;
  const auto timed_out = [&](const char* step) {
    return core::Error(std::string("timed out ") + step + " " + where(target) + " after " +
                       std::to_string(request.timeout.count()) + " ms");
  };

  tcp::resolver resolver(executor);
  asio::steady_timer resolve_deadline(executor, deadline);
  resolve_deadline.async_wait([&resolver](boost::system::error_code error) {
    if (!error) resolver.cancel();
  });
  auto [resolve_error, endpoints] = co_await resolver.async_resolve(
      target.host, target.port, asio::as_tuple(asio::use_awaitable));
  resolve_deadline.cancel();
  if (resolve_error == asio::error::operation_aborted) co_return timed_out("resolving");
  if (resolve_error) {
    co_return core::Error("could not resolve " + target.host + ": " + resolve_error.message());
  }

  if (!target.tls) {
    beast::tcp_stream stream(executor);
    stream.expires_at(deadline);
    auto [connect_error, endpoint] =
        co_await stream.async_connect(endpoints, asio::as_tuple(asio::use_awaitable));
    (void)endpoint;
    if (connect_error == beast::error::timeout) co_return timed_out("connecting to");
    if (connect_error) {
      co_return core::Error("could not connect to " + where(target) + ": " +
                            connect_error.message());
    }
    auto result = co_await exchange(stream, target, request);
    if (!result && Clock::now() >= deadline) co_return timed_out("talking to");
    co_return result;
  }

  asio::ssl::context context(asio::ssl::context::tls_client);
  context.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                      asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                      asio::ssl::context::no_tlsv1_1);
  boost::system::error_code setup_error;
  // The system's CA store; OpenSSL also honours SSL_CERT_FILE / SSL_CERT_DIR here.
  context.set_default_verify_paths(setup_error);
  if (setup_error) co_return core::Error("could not load the system's CA certificates");
  beast::ssl_stream<beast::tcp_stream> stream(executor, context);
  stream.set_verify_mode(asio::ssl::verify_peer);
  stream.set_verify_callback(asio::ssl::host_name_verification(target.host));
  // SNI carries a name, never an address literal (RFC 6066). SSL_ctrl is what the
  // SSL_set_tlsext_host_name macro expands to, without its C cast.
  boost::system::error_code address_error;
  asio::ip::make_address(target.host, address_error);
  if (address_error &&
      SSL_ctrl(stream.native_handle(), SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
               const_cast<char*>(target.host.c_str())) != 1) {
    co_return core::Error("could not set the TLS server name for " + target.host);
  }
  beast::get_lowest_layer(stream).expires_at(deadline);
  auto [connect_error, endpoint] = co_await beast::get_lowest_layer(stream).async_connect(
      endpoints, asio::as_tuple(asio::use_awaitable));
  (void)endpoint;
  if (connect_error == beast::error::timeout) co_return timed_out("connecting to");
  if (connect_error) {
    co_return core::Error("could not connect to " + where(target) + ": " + connect_error.message());
  }
  auto [handshake_error] = co_await stream.async_handshake(asio::ssl::stream_base::client,
                                                           asio::as_tuple(asio::use_awaitable));
  if (handshake_error == beast::error::timeout) co_return timed_out("in the TLS handshake with");
  if (handshake_error) {
    co_return core::Error("the TLS handshake with " + where(target) +
                          " failed: " + handshake_error.message());
  }
  auto result = co_await exchange(stream, target, request);
  if (!result && Clock::now() >= deadline) co_return timed_out("talking to");
  // No TLS close_notify: the request said Connection: close and the answer is read whole;
  // waiting on a server's shutdown would only add a way to hang.
  co_return result;
}

}  // namespace

void post_outbound(asio::any_io_executor executor, OutboundRequest request, OutboundDone done) {
  auto target = parse_target(request.url);
  if (!target) {
    const core::Error error = target.error();
    asio::post(executor, [done = std::move(done), error]() { done(error); });
    return;
  }
  // done() is shared between the coroutine (the normal end) and co_spawn's completion
  // (an exception escaping it), so that it runs exactly once either way.
  auto shared_done = std::make_shared<OutboundDone>(std::move(done));
  asio::co_spawn(
      executor,
      [executor, shared_done, target = std::move(target.value()),
       request = std::move(request)]() mutable -> asio::awaitable<void> {
        auto result = co_await run(executor, std::move(target), std::move(request));
        auto finish = std::exchange(*shared_done, nullptr);
        if (finish) finish(std::move(result));
      },
      [shared_done](std::exception_ptr thrown) {
        if (!thrown) return;
        auto finish = std::exchange(*shared_done, nullptr);
        if (finish) finish(core::Error("the outbound request failed unexpectedly"));
      });
}

}  // namespace wharf::app
