#include "server/listener.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "server/http_session.hpp"

namespace wharf::server {

core::Result<std::shared_ptr<Listener>> Listener::open(asio::io_context& io,
                                                       const asio::ip::tcp::endpoint& endpoint,
                                                       ServerContext& context) {
  asio::ip::tcp::acceptor acceptor(io);
  boost::system::error_code ec;
  std::string where = endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
  if (acceptor.open(endpoint.protocol(), ec); ec)
    return core::Error{"cannot listen on " + where + ": " + ec.message()};
  // Restarting right after a stop must not fail on connections in TIME_WAIT.
  acceptor.set_option(asio::ip::tcp::acceptor::reuse_address(true), ec);
  if (acceptor.bind(endpoint, ec); ec)
    return core::Error{"cannot listen on " + where + ": " + ec.message()};
  if (acceptor.listen(asio::socket_base::max_listen_connections, ec); ec)
    return core::Error{"cannot listen on " + where + ": " + ec.message()};
  return std::make_shared<Listener>(io, std::move(acceptor), context);
}

Listener::Listener(asio::io_context& io, asio::ip::tcp::acceptor acceptor, ServerContext& context)
    : io_(io), acceptor_(std::move(acceptor)), context_(context) {}

void Listener::start() {
  asio::co_spawn(
      io_, [self = shared_from_this()] { return self->accept_loop(); }, asio::detached);
}

void Listener::stop() {
  boost::system::error_code ignored;
  acceptor_.close(ignored);
}

asio::awaitable<void> Listener::accept_loop() {
  for (;;) {
    auto [ec, socket] = co_await acceptor_.async_accept(asio::as_tuple(asio::use_awaitable));
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) co_return;
    if (ec) {
      // EMFILE and friends: keep serving the connections we have.
      spdlog::warn("accept failed: {}", ec.message());
      continue;
    }
    if (context_.open_connections >= kMaxConnections) {
      spdlog::warn("connection refused: {} connections open (the cap)", context_.open_connections);
      boost::system::error_code ignored;
      socket.close(ignored);
      continue;
    }
    // Keystroke echoes and the attach messages are small writes that must not wait
    // for the peer's delayed ACK.
    boost::system::error_code ignored;
    socket.set_option(asio::ip::tcp::no_delay(true), ignored);
    std::make_shared<HttpSession>(std::move(socket), context_)->start();
  }
}

}  // namespace wharf::server
