// The host of one session: the process that owns the program's PTY, its process session
// and the screen as it really is, and outlives any daemon (docs/hosts.md).
//
// A daemon reaches the host over a link (host/frame_link.hpp): the socket pair the host
// was born with, and later connections to its socket in the runtime dir (owner-only,
// peer uid checked). At most one daemon is linked at a time; a new one replaces the old.
// While no daemon is linked the program runs on: the host drains the PTY into its screen
// and answers the terminal's queries, so nothing waits for the daemon to come back.
//
// Invariants: the PTY is read only while the link's outbox is under kHighWater (a slow
// daemon slows the program, it never grows the host without bound); the session is
// finished once its leader has been reaped, the PTY has closed and no member is left;
// the host then keeps the final screen and status until a daemon says it has recorded
// them (`recorded`), and exits.
#pragma once

#include <sys/types.h>

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "core/host_protocol.hpp"
#include "core/screen.hpp"
#include "host/frame_link.hpp"
#include "pty/pty_process.hpp"
#include "pty/session_cgroup.hpp"

namespace wharf::host {

inline constexpr std::size_t kHighWater = 4u << 20;
// The daemon keeps what it sends under 1 MiB (app::Session); this only bounds a daemon
// that does not.
inline constexpr std::size_t kMaxPtyInputBytes = 8u << 20;

class SessionHost {
 public:
  SessionHost(asio::io_context& io, core::host::SpawnRequest request, pty::PtyProcess process,
              std::optional<pty::SessionCgroup> cgroup, std::string socket_path,
              asio::local::stream_protocol::acceptor acceptor);
  SessionHost(const SessionHost&) = delete;
  SessionHost& operator=(const SessionHost&) = delete;

  // Starts the PTY, the accept loop and the reaper; `first` is the launching daemon's
  // socket pair, already greeted by its spawn request.
  void start(LocalSocket first);

 private:
  void read_pty();
  void on_pty_output(std::size_t n);
  // `from_daemon`: typed input, acknowledged with `written` once it reached the PTY (the
  // terminal's own answers to queries are not).
  void queue_pty_input(std::string_view bytes, bool from_daemon);
  void write_pty();
  void resize(core::TerminalSize size);

  void accept_next();
  void link(LocalSocket socket, bool greeted);
  void on_frame(const std::shared_ptr<FrameLink>& from, core::host::Frame& frame);
  void greet(const std::shared_ptr<FrameLink>& link);
  core::host::HostState state() const;

  void watch_signals();
  void reap_children();
  void end();
  void ending_tick();
  void on_leader_exit(const core::ExitStatus& status);
  void close_pty();
  // Every process of the session: its terminal session's, and its cgroup's (which holds
  // those that left the terminal session with setsid).
  std::size_t signal_members(int signal);
  void maybe_finish();
  void quit();

  asio::io_context& io_;
  core::host::SpawnRequest request_;
  pid_t pid_;
  std::optional<pty::SessionCgroup> cgroup_;
  std::string socket_path_;
  asio::local::stream_protocol::acceptor acceptor_;
  asio::posix::stream_descriptor pty_;
  core::TerminalSize size_;
  core::Screen screen_;
  asio::signal_set signals_;
  asio::steady_timer ending_timer_;

  std::shared_ptr<FrameLink> link_;  // the daemon's, once greeted
  std::array<char, 64 * 1024> read_buffer_{};
  std::string utf8_tail_;
  bool reading_ = false;
  struct PendingInput {
    std::string bytes;
    bool from_daemon = false;
  };
  std::deque<PendingInput> input_;
  std::size_t input_bytes_ = 0;
  bool writing_ = false;

  std::uint64_t bytes_out_ = 0;
  std::uint64_t bytes_in_ = 0;
  std::chrono::steady_clock::time_point last_output_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_input_ = last_output_;

  std::optional<core::ExitStatus> leader_exit_;
  bool output_closed_ = false;
  bool ending_ = false;
  enum class Phase { kHangup, kTerminate, kKill } phase_ = Phase::kHangup;
  std::chrono::steady_clock::time_point phase_deadline_{};
  int quiet_ticks_ = 0;
  bool survivors_gone_ = false;
  bool finished_ = false;
};

// Where a new screen's state numbers start (core::Screen's first_seq), for the host's
// screen and the daemon's copy alike: microseconds since the epoch, so every number is
// later than any an earlier daemon or host handed out and a reader's stale `since` gets
// a full answer.
std::uint64_t first_screen_seq();

// `wharf host`: run by the daemon (never by hand) with the socket pair on fd 3. Reads the
// spawn request, starts the program and serves it until the session is over.
int run_host(int argc, char** argv);

}  // namespace wharf::host
