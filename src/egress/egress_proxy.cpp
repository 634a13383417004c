// The egress proxy (see egress_proxy.hpp).
#include "egress/egress_proxy.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/basic_stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>

#include "egress/byte_pump.hpp"
#include "egress/proxy_request.hpp"

namespace wharf::egress {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using local = asio::local::stream_protocol;
using asio::use_awaitable;
using ClientStream =
    beast::basic_stream<local, asio::any_io_executor, beast::unlimited_rate_policy>;

std::string answer(unsigned status, std::string_view reason, std::string_view text) {
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) +
                    "\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: " +
                    std::to_string(text.size() + 7) + "\r\n\r\nwharf: " + std::string(text) + "\n";
  return out;
}

}  // namespace

core::Result<std::shared_ptr<EgressProxy>> EgressProxy::open(asio::any_io_executor executor,
                                                             const std::string& socket_path,
                                                             std::vector<core::Endpoint> allow,
                                                             OnRefused on_refused,
                                                             MayDial may_dial) {
  ::unlink(socket_path.c_str());
  boost::system::error_code ec;
  local::acceptor acceptor(executor);
  acceptor.open(local(), ec);
  // Only the owner may connect: the sandbox runs as the same user, nobody else should.
  mode_t old_mask = ::umask(0077);
  if (!ec) acceptor.bind(local::endpoint(socket_path), ec);
  ::umask(old_mask);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    return core::Error{"the egress proxy cannot listen on " + socket_path + ": " + ec.message()};
  if (!may_dial) may_dial = dialable_address;
  return std::make_shared<EgressProxy>(std::move(acceptor), socket_path, std::move(allow),
                                       std::move(on_refused), std::move(may_dial));
}

EgressProxy::EgressProxy(local::acceptor acceptor, std::string socket_path,
                         std::vector<core::Endpoint> allow, OnRefused on_refused, MayDial may_dial)
    : acceptor_(std::move(acceptor)),
      socket_path_(std::move(socket_path)),
      allow_(std::move(allow)),
      on_refused_(std::move(on_refused)),
      may_dial_(std::move(may_dial)) {}

EgressProxy::~EgressProxy() {
  boost::system::error_code ignored;
  if (acceptor_.is_open()) {
    acceptor_.close(ignored);
    ::unlink(socket_path_.c_str());
  }
}

void EgressProxy::start() {
  asio::co_spawn(
      acceptor_.get_executor(), [self = shared_from_this()] { return self->accept_loop(); },
      asio::detached);
}

void EgressProxy::stop() {
  boost::system::error_code ignored;
  if (!acceptor_.is_open()) return;
  acceptor_.close(ignored);
  ::unlink(socket_path_.c_str());
}

asio::awaitable<void> EgressProxy::accept_loop() {
  auto self = shared_from_this();
  for (;;) {
    boost::system::error_code ec;
    local::socket client = co_await acceptor_.async_accept(asio::redirect_error(use_awaitable, ec));
    if (ec) {
      if (!acceptor_.is_open() || ec == asio::error::operation_aborted) co_return;
      continue;
    }
    asio::co_spawn(
        acceptor_.get_executor(),
        [self, socket = std::move(client)]() mutable { return self->serve(std::move(socket)); },
        asio::detached);
  }
}

void EgressProxy::refuse(std::string host, std::uint16_t port, std::string reason) {
  if (host.size() > 255) host.resize(255);
  if (on_refused_) on_refused_(Refusal{std::move(host), port, std::move(reason)});
}

asio::awaitable<void> EgressProxy::serve(local::socket socket) {
  using namespace asio::experimental::awaitable_operators;
  ClientStream client(std::move(socket));
  beast::flat_buffer buffer;
  http::request_parser<http::empty_body> parser;
  parser.header_limit(static_cast<std::uint32_t>(kMaxHeadBytes));
  parser.skip(true);  // the head only: a body flows through untouched
  boost::system::error_code ec;
  client.expires_after(kHeadTimeout);
  co_await http::async_read_header(client, buffer, parser, asio::redirect_error(use_awaitable, ec));
  client.expires_never();
  auto say = [&](std::string text) -> asio::awaitable<void> {
    boost::system::error_code ignored;
    co_await asio::async_write(client, asio::buffer(text),
                               asio::redirect_error(use_awaitable, ignored));
  };
  if (ec) {
    if (ec != http::error::end_of_stream && ec != beast::error::timeout)
      co_await say(answer(400, "Bad Request", "that is not an HTTP proxy request"));
    co_return;
  }
  const auto& head = parser.get();
  auto parsed =
      parse_proxy_request(std::string_view(head.method_string()), std::string_view(head.target()));
  if (!parsed) {
    co_await say(answer(400, "Bad Request", parsed.error().message));
    co_return;
  }
  if (!core::allowed(allow_, parsed.value().host, parsed.value().port)) {
    std::string why = parsed.value().host + ":" + std::to_string(parsed.value().port) +
                      " is not on this session's allow-list";
    refuse(parsed.value().host, parsed.value().port, "not on the allow-list");
    co_await say(answer(403, "Forbidden", why));
    co_return;
  }
  ProxyTarget target = std::move(parsed.value());

  asio::ip::tcp::resolver resolver(client.get_executor());
  auto results = co_await resolver.async_resolve(target.host, std::to_string(target.port),
                                                 asio::redirect_error(use_awaitable, ec));
  std::vector<asio::ip::tcp::endpoint> endpoints;
  if (!ec) {
    for (const auto& entry : results) {
      if (may_dial_(entry.endpoint().address().to_string())) endpoints.push_back(entry.endpoint());
    }
  }
  if (endpoints.empty()) {
    std::string why =
        ec ? "its name does not resolve" : "it resolves only to this machine's own addresses";
    refuse(target.host, target.port, why);
    co_await say(answer(502, "Bad Gateway", target.host + ": " + why));
    co_return;
  }
  beast::tcp_stream upstream(client.get_executor());
  upstream.expires_after(kDialTimeout);
  co_await upstream.async_connect(endpoints, asio::redirect_error(use_awaitable, ec));
  upstream.expires_never();
  if (ec) {
    co_await say(answer(502, "Bad Gateway", target.host + " did not answer: " + ec.message()));
    co_return;
  }

  if (target.tunnel) {
    co_await say("HTTP/1.1 200 Connection established\r\n\r\n");
  } else {
    // The request again in origin form, without the proxy's own headers, and the
    // connection closed after it so the client never sends a second host's request here.
    std::string out =
        std::string(head.method_string()) + " " + target.origin_form + " HTTP/1.1\r\n";
    for (const auto& field : head) {
      std::string_view name(field.name_string());
      if (beast::iequals(name, "Proxy-Connection") || beast::iequals(name, "Proxy-Authorization") ||
          beast::iequals(name, "Connection") || beast::iequals(name, "Keep-Alive"))
        continue;
      out += std::string(name) + ": " + std::string(field.value()) + "\r\n";
    }
    out += "Connection: close\r\n\r\n";
    co_await asio::async_write(upstream.socket(), asio::buffer(out),
                               asio::redirect_error(use_awaitable, ec));
    if (ec) co_return;
  }
  // Bytes the client sent after its head (TLS's first flight, a request body).
  if (buffer.size() > 0) {
    co_await asio::async_write(upstream.socket(), buffer.data(),
                               asio::redirect_error(use_awaitable, ec));
    if (ec) co_return;
    buffer.consume(buffer.size());
  }
  auto& inner = client.socket();
  auto& outer = upstream.socket();
  co_await (pump_bytes(inner, outer) && pump_bytes(outer, inner));
}

}  // namespace wharf::egress
