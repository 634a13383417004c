// Accepts TCP connections and gives each to an HttpSession. Binding happens in open()
// so that a port in use is reported before anything else starts.
//
// Running out of file descriptors (EMFILE) must not make the accept loop spin: the
// kernel keeps reporting the waiting connections, and each accept fails at once. The
// listener holds one spare descriptor (as libuv does): out of descriptors, it frees the
// spare, takes each waiting connection, answers it 503 and closes it, then takes the
// spare back, and sleeps until the next client connects. When even that fails it waits a
// moment before trying again. Either way it warns at most once per interval, with a
// count, and serves normally again once connections end.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string_view>

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
  ~Listener();
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  void start();
  void stop();

 private:
  asio::awaitable<void> accept_loop();
  // Out of descriptors: refuses the waiting connections with the spare's slot. Returns
  // how many it refused (0: none was waiting), or nullopt when there was no spare.
  std::optional<std::size_t> shed_waiting_connections();
  // A warning that can repeat per connection is written at most once per kWarnEvery,
  // counting what happened in between.
  struct LimitedWarning {
    std::chrono::steady_clock::time_point last{};
    std::size_t unreported = 0;
  };
  static void warn_limited(LimitedWarning& warning, std::string_view what, std::size_t count);

  asio::io_context& io_;
  asio::ip::tcp::acceptor acceptor_;
  ServerContext& context_;
  int spare_fd_ = -1;
  LimitedWarning shed_warning_;
  LimitedWarning error_warning_;
  LimitedWarning cap_warning_;
};

}  // namespace wharf::server
