// Accepts TCP connections and gives each to an HttpSession. Binding happens in open()
// so that a port in use is reported before anything else starts.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <memory>

#include "core/result.hpp"
#include "server/server_context.hpp"

namespace wharf::server {

namespace asio = boost::asio;

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  static core::Result<std::shared_ptr<Listener>> open(asio::io_context& io,
                                                      const asio::ip::tcp::endpoint& endpoint,
                                                      ServerContext& context);
  Listener(asio::io_context& io, asio::ip::tcp::acceptor acceptor, ServerContext& context);

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  void start();
  void stop();

 private:
  asio::awaitable<void> accept_loop();

  asio::io_context& io_;
  asio::ip::tcp::acceptor acceptor_;
  ServerContext& context_;
};

}  // namespace wharf::server
