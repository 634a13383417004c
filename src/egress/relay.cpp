// The relay to the egress proxy (see relay.hpp).
#include "egress/relay.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <cstring>

#include "egress/byte_pump.hpp"

namespace wharf::egress {
namespace {

namespace asio = boost::asio;
using asio::use_awaitable;

asio::awaitable<void> serve(asio::ip::tcp::socket inner, std::string proxy_socket) {
  using namespace asio::experimental::awaitable_operators;
  asio::local::stream_protocol::socket outer(inner.get_executor());
  boost::system::error_code ec;
  co_await outer.async_connect(asio::local::stream_protocol::endpoint(proxy_socket),
                               asio::redirect_error(use_awaitable, ec));
  if (ec) {
    // wharf is restarting or gone: say so in the proxy's own words.
    const std::string text = "wharf: the egress proxy is not available\n";
    std::string answer =
        "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: " +
        std::to_string(text.size()) + "\r\n\r\n" + text;
    co_await asio::async_write(inner, asio::buffer(answer),
                               asio::redirect_error(use_awaitable, ec));
    co_return;
  }
  co_await (pump_bytes(inner, outer) && pump_bytes(outer, inner));
}

asio::awaitable<void> accept_loop(asio::ip::tcp::acceptor& acceptor, std::string proxy_socket) {
  for (;;) {
    boost::system::error_code ec;
    auto socket = co_await acceptor.async_accept(asio::redirect_error(use_awaitable, ec));
    if (ec) continue;
    asio::co_spawn(acceptor.get_executor(), serve(std::move(socket), proxy_socket), asio::detached);
  }
}

}  // namespace

core::Result<int> bind_relay_port(std::uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return core::Error{std::string("relay socket: ") + std::strerror(errno)};
  int on = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(fd, 64) != 0) {
    int error = errno;
    ::close(fd);
    return core::Error{"the relay cannot listen on 127.0.0.1:" + std::to_string(port) + ": " +
                       std::strerror(error)};
  }
  return fd;
}

void run_relay(int listen_fd, const std::string& proxy_socket) {
  asio::io_context io;
  asio::ip::tcp::acceptor acceptor(io, asio::ip::tcp::v4(), listen_fd);
  asio::co_spawn(io, accept_loop(acceptor, proxy_socket), asio::detached);
  io.run();
  ::_exit(0);
}

}  // namespace wharf::egress
