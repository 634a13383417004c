// The local control socket (`wharf ls`, `wharf new`, ...): a Unix socket in the runtime
// directory, mode 0600, and every connection's peer uid checked against ours, so only
// the user running wharf can drive it from a terminal. Requests and answers are one
// JSON object per line (see control_requests.hpp).
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <filesystem>
#include <functional>
#include <memory>

#include "app/session_service.hpp"
#include "core/result.hpp"
#include "server/control_requests.hpp"

namespace wharf::server {

class ControlListener : public std::enable_shared_from_this<ControlListener> {
 public:
  static core::Result<std::shared_ptr<ControlListener>> open(boost::asio::io_context& io,
                                                             const std::filesystem::path& path,
                                                             app::SessionService& sessions);
  ControlListener(boost::asio::io_context& io,
                  boost::asio::local::stream_protocol::acceptor acceptor,
                  std::filesystem::path path, app::SessionService& sessions);
  ~ControlListener();

  void start();
  void stop();
  // What `wharf restart` and `wharf key rotate` ask for; unset, the verb is refused.
  void set_actions(DaemonActions actions) { actions_ = std::move(actions); }

 private:
  boost::asio::awaitable<void> accept_loop();
  boost::asio::awaitable<void> serve(boost::asio::local::stream_protocol::socket socket,
                                     pid_t peer);

  boost::asio::io_context& io_;
  boost::asio::local::stream_protocol::acceptor acceptor_;
  std::filesystem::path path_;
  app::SessionService& sessions_;
  DaemonActions actions_;
};

}  // namespace wharf::server
