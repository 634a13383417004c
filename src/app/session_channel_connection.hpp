// One connection of a session channel (app/session_channel.hpp): reads the one request
// line with any fds sent along, answers a notify, and carries a guard through its
// decision to the run of the real command. Internal to the channel.
//
// A connection is in one state at a time: reading (a timer bounds it), pending (the
// decision is open; the socket is watched for the client leaving), running (the command
// has the fds; the client leaving changes nothing), done (the socket is closed). Every
// received fd is closed exactly once: when the command has been started, or when the
// request is refused, or when the connection ends.
#pragma once

#include <array>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/session_channel.hpp"

namespace wharf::app {

struct SessionChannelState {
  boost::asio::any_io_executor executor;
  ChannelSessionId session = 0;
  SessionChannelHooks hooks;
  SessionChannelLimits limits;
  SessionChannel* owner = nullptr;  // null once the channel is gone
};

class SessionChannelConnection : public std::enable_shared_from_this<SessionChannelConnection> {
 public:
  SessionChannelConnection(boost::asio::local::stream_protocol::socket socket,
                           std::shared_ptr<SessionChannelState> state);
  ~SessionChannelConnection();

  void start();
  // The channel is closing: withdraw an open decision, close the socket.
  void close();

 private:
  enum class Phase { reading, pending, running, done };

  void wait_readable();
  void on_readable();
  void handle_line(const std::string& line);
  void handle_guard(core::ChannelGuard guard);
  void on_decided(DecisionOutcome outcome);
  void watch_for_leaving();
  void run_approved();
  void read_status();
  void finish_run(std::optional<core::ExitStatus> status);
  void send(const core::ChannelReply& reply, bool last);
  void write_next();
  void fail(const std::string& message);
  void close_fds();
  void end();

  boost::asio::local::stream_protocol::socket socket_;
  std::shared_ptr<SessionChannelState> state_;
  boost::asio::steady_timer timer_;
  Phase phase_ = Phase::reading;
  std::string buffer_;
  std::vector<int> fds_;
  bool fds_truncated_ = false;
  GuardRequest request_;
  std::string program_path_;
  std::uint64_t decision_ = 0;
  std::deque<std::string> outbox_;
  bool writing_ = false;
  bool close_after_write_ = false;
  boost::asio::posix::stream_descriptor status_;
  std::string status_bytes_;
  std::array<char, 16> status_chunk_{};
};

}  // namespace wharf::app
