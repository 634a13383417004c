// The session channel's socket and accept loop (app/session_channel.hpp); each accepted
// connection is a SessionChannelConnection. The number of connections at once is capped,
// since every one may hold three fds and an open decision: a program flooding its
// channel gets closed connections, not a daemon out of fds.
#include "app/session_channel.hpp"

#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/session_channel_connection.hpp"

namespace wharf::app {
namespace asio = boost::asio;
using local = asio::local::stream_protocol;

core::Result<std::unique_ptr<SessionChannel>> SessionChannel::open(
    asio::any_io_executor executor, std::filesystem::path socket_path, ChannelSessionId session,
    SessionChannelHooks hooks, SessionChannelLimits limits) {
  // The directory is the session's own; a file left there by an earlier run is stale.
  unlink(socket_path.c_str());
  local::acceptor acceptor(executor);
  boost::system::error_code ec;
  acceptor.open(local(), ec);
  // Created owner-only from the start: no moment where another user could connect.
  mode_t old_mask = umask(077);
  if (!ec) acceptor.bind(local::endpoint(socket_path.string()), ec);
  umask(old_mask);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    return core::Error{"cannot create the session channel " + socket_path.string() + ": " +
                       ec.message()};
  chmod(socket_path.c_str(), 0600);
  auto state = std::make_shared<SessionChannelState>();
  state->executor = executor;
  state->session = session;
  state->hooks = std::move(hooks);
  state->limits = limits;
  std::unique_ptr<SessionChannel> channel(
      new SessionChannel(std::move(acceptor), std::move(socket_path), std::move(state)));
  channel->state_->owner = channel.get();
  channel->accept();
  return core::Result<std::unique_ptr<SessionChannel>>(std::move(channel));
}

SessionChannel::SessionChannel(local::acceptor acceptor, std::filesystem::path path,
                               std::shared_ptr<SessionChannelState> state)
    : acceptor_(std::move(acceptor)), path_(std::move(path)), state_(std::move(state)) {}

SessionChannel::~SessionChannel() {
  state_->owner = nullptr;  // connections no longer report back
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  auto connections = std::move(connections_);
  for (const auto& connection : connections) connection->close();
  unlink(path_.c_str());
}

void SessionChannel::forget(SessionChannelConnection* connection) {
  for (auto it = connections_.begin(); it != connections_.end(); ++it) {
    if (it->get() == connection) {
      connections_.erase(it);
      return;
    }
  }
}

void SessionChannel::accept() {
  // The channel outlives every pending accept: its destructor closes the acceptor, and
  // the handler then sees operation_aborted before it touches `this`.
  acceptor_.async_accept([this](boost::system::error_code ec, local::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) {
      if (connections_.size() >= state_->limits.max_connections) {
        spdlog::warn("session {}: channel connection refused: {} already open", state_->session,
                     connections_.size());
        boost::system::error_code ignored;
        socket.close(ignored);
      } else {
        auto connection = std::make_shared<SessionChannelConnection>(std::move(socket), state_);
        connections_.insert(connection);
        connection->start();
      }
    }
    accept();
  });
}

}  // namespace wharf::app
