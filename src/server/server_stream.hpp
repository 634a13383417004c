// One connection's byte stream: plain TCP, or TLS over TCP once the HTTP session has
// shaken hands (tls_handshake.hpp). A variant rather than a template parameter, so the
// HTTP and WebSocket sessions stay one class each whatever the listener speaks: every
// operation goes to whichever stream the connection holds, with the caller's own
// handler, so completion and cancellation behave exactly as on that stream.
//
// Invariants: timeouts and the socket always live in the TCP layer (under TLS too), so
// `expires_after` bounds a TLS handshake and TLS records alike. A WebSocket over this
// stream tears down (and, on its own timeout, closes) whichever layer it holds.
#pragma once

#include <boost/asio/async_result.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/websocket/teardown.hpp>
#include <chrono>
#include <utility>
#include <variant>

namespace wharf::server {

class ServerStream {
 public:
  using PlainStream = boost::beast::tcp_stream;
  using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;
  using executor_type = PlainStream::executor_type;

  explicit ServerStream(boost::asio::ip::tcp::socket socket)
      : stream_(std::in_place_type<PlainStream>, std::move(socket)) {}

  executor_type get_executor() { return tcp().get_executor(); }
  bool is_tls() const { return std::holds_alternative<TlsStream>(stream_); }

  // The TCP layer, whichever way the connection speaks.
  PlainStream& tcp() {
    if (auto* plain = std::get_if<PlainStream>(&stream_)) return *plain;
    return std::get<TlsStream>(stream_).next_layer();
  }
  boost::asio::ip::tcp::socket& socket() { return tcp().socket(); }
  void expires_after(std::chrono::steady_clock::duration after) { tcp().expires_after(after); }
  void expires_never() { tcp().expires_never(); }

  // From here on the connection speaks TLS; the handshake is the caller's next step.
  TlsStream& start_tls(boost::asio::ssl::context& context) {
    PlainStream plain = std::move(std::get<PlainStream>(stream_));
    return stream_.emplace<TlsStream>(std::move(plain), context);
  }
  TlsStream& tls() { return std::get<TlsStream>(stream_); }

  template <class MutableBuffers, class Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
        [this](auto handler, const MutableBuffers& to) {
          std::visit([&](auto& inner) { inner.async_read_some(to, std::move(handler)); }, stream_);
        },
        token, buffers);
  }

  template <class ConstBuffers, class Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
        [this](auto handler, const ConstBuffers& from) {
          std::visit([&](auto& inner) { inner.async_write_some(from, std::move(handler)); },
                     stream_);
        },
        token, buffers);
  }

  // Found by Beast's WebSocket through argument-dependent lookup.
  friend void teardown(boost::beast::role_type role, ServerStream& stream,
                       boost::system::error_code& ec) {
    std::visit(
        [&](auto& inner) {
          using boost::beast::websocket::teardown;
          teardown(role, inner, ec);
        },
        stream.stream_);
  }
  template <class Handler>
  friend void async_teardown(boost::beast::role_type role, ServerStream& stream,
                             Handler&& handler) {
    std::visit(
        [&](auto& inner) {
          using boost::beast::websocket::async_teardown;
          async_teardown(role, inner, std::forward<Handler>(handler));
        },
        stream.stream_);
  }
  friend void beast_close_socket(ServerStream& stream) {
    boost::system::error_code ignored;
    stream.socket().close(ignored);
  }

 private:
  std::variant<PlainStream, TlsStream> stream_;
};

}  // namespace wharf::server
