// The session channel's daemon side (docs/sandbox.md, "Guards"): one Unix socket per
// sandboxed session, bound read-only into the sandbox at /run/wharf/session/channel.sock,
// through which the program inside asks for what the sandbox does not let it do itself.
// Two requests (core/channel_message.hpp): `notify` (wharf notify) and `guard` (a git or
// gh command that publishes work, from the shim, cli/guard_shim.hpp).
//
// Everything arriving here comes from the sandbox and is not trusted: the guard rules run
// again on the argv sent (core/guard_rules.hpp) and only what they allow and rewrite is
// run, with the host's own git or gh, outside the sandbox, exactly once, after the person
// approved it. A guard request carries the shim's stdin, stdout and stderr (SCM_RIGHTS), so
// the approved command talks to the session's terminal. A connection that goes away while
// its decision is open withdraws the decision. A misbehaving client gets an error line and
// loses its connection; the daemon goes on.
//
// Single-threaded: every member and every hook runs on the executor given to open().
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/channel_message.hpp"
#include "core/exit_status.hpp"
#include "core/result.hpp"

namespace wharf::app {

using ChannelSessionId = std::uint64_t;  // the same as core::SessionId

// A guarded command the person is asked about. `argv` is what would run (argv[0] the bare
// program name, bodies carrying the disclosure marker); `client_argv` what the sandbox sent.
struct GuardRequest {
  ChannelSessionId session = 0;
  std::string what;    // "git push origin main", for the decision's title
  std::string reason;  // why it is guarded
  std::vector<std::string> argv;
  std::vector<std::string> client_argv;
  std::string cwd;
  bool body_from_file = false;
};

struct DecisionTicket {
  std::uint64_t id = 0;
  std::int64_t expires_in_s = 0;
};

enum class DecisionVerdict { approved, denied, expired };

struct DecisionOutcome {
  DecisionVerdict verdict = DecisionVerdict::expired;
  std::string by;    // who answered (approved, denied)
  std::string note;  // the person's note (denied)
};

using DecisionCallback = std::function<void(DecisionOutcome)>;

struct SessionChannelHooks {
  // `wharf notify` from inside the sandbox.
  std::function<void(const core::ChannelNotify&)> notify;
  // Opens a decision and answers its id; `decided` is to be called once, later, with the
  // outcome (from any thread: the channel moves it onto its executor). An Error refuses
  // the request (the client is told why).
  std::function<core::Result<DecisionTicket>(const GuardRequest&, DecisionCallback decided)>
      open_decision;
  // The client went away while the decision was open: it no longer needs an answer.
  std::function<void(std::uint64_t id)> withdraw_decision;
  // The environment of the approved command, NAME=value entries (the session's, without
  // the sandbox's proxy variables). Its PATH finds the real program unless host_path is set.
  std::function<std::vector<std::string>()> environment;
  // Optional: the PATH to find the real git and gh on; empty: the environment's PATH.
  std::function<std::string()> host_path;
  // Optional: the approved command ended (for the audit record).
  std::function<void(const GuardRequest&, std::uint64_t id, core::ExitStatus)> ran;
};

struct SessionChannelLimits {
  std::chrono::milliseconds read_timeout{10'000};  // for the request line to arrive whole
  std::size_t max_connections = 8;                 // at once; more are closed at once
};

class SessionChannelConnection;
struct SessionChannelState;

class SessionChannel {
 public:
  // Creates the socket at `socket_path` (mode 0600; a file already there is replaced) and
  // starts accepting. Destroying the channel closes every connection (withdrawing their
  // open decisions), stops accepting and removes the socket file. An approved command
  // already running goes on to its end.
  static core::Result<std::unique_ptr<SessionChannel>> open(boost::asio::any_io_executor executor,
                                                            std::filesystem::path socket_path,
                                                            ChannelSessionId session,
                                                            SessionChannelHooks hooks,
                                                            SessionChannelLimits limits = {});
  ~SessionChannel();
  SessionChannel(const SessionChannel&) = delete;
  SessionChannel& operator=(const SessionChannel&) = delete;

  const std::filesystem::path& socket_path() const { return path_; }
  std::size_t connection_count() const { return connections_.size(); }

  // Internal: a connection is done.
  void forget(SessionChannelConnection* connection);

 private:
  SessionChannel(boost::asio::local::stream_protocol::acceptor acceptor, std::filesystem::path path,
                 std::shared_ptr<SessionChannelState> state);
  void accept();

  boost::asio::local::stream_protocol::acceptor acceptor_;
  std::filesystem::path path_;
  // Shared with the connections, which may outlive the channel (a command still running).
  std::shared_ptr<SessionChannelState> state_;
  std::set<std::shared_ptr<SessionChannelConnection>> connections_;
};

}  // namespace wharf::app
