// One live terminal session: a program on a PTY, the bytes it writes, the windows
// watching it.
//
// The PTY is always drained as fast as it produces: output is handed to observers as
// shared immutable chunks and each observer bounds its own queue (a slow window never
// holds the PTY back). Input is queued with a byte bound and written without blocking.
// Ending escalates SIGHUP -> SIGTERM -> SIGKILL over every process of the terminal
// session; the session is finished once its leader has been reaped and the PTY has
// closed, and only then do observers hear `on_exit`.
#pragma once

#include <sys/types.h>

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/control_message.hpp"
#include "core/exit_status.hpp"
#include "core/terminal_size.hpp"
#include "pty/pty_process.hpp"

namespace wharf::app {

namespace asio = boost::asio;

using OutputChunk = std::shared_ptr<const std::string>;

class SessionObserver {
 public:
  virtual ~SessionObserver() = default;
  virtual void on_output(const OutputChunk& chunk) = 0;
  virtual void on_resize(core::TerminalSize size) = 0;
  virtual void on_exit(core::SessionId id, const core::ExitStatus& status) = 0;
};

struct EndingTimings {
  std::chrono::milliseconds hangup_grace{300};      // SIGHUP -> SIGTERM
  std::chrono::milliseconds terminate_grace{2000};  // SIGTERM -> SIGKILL
  std::chrono::milliseconds poll{50};               // how often survivors are looked for
};

inline constexpr std::size_t kMaxPendingInputBytes = 1 << 20;

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(asio::io_context& io, core::SessionId id, pty::PtyProcess process,
          core::TerminalSize size, EndingTimings timings);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void start(std::function<void(core::SessionId)> on_finished);

  core::SessionId id() const { return id_; }
  pid_t pid() const { return pid_; }
  core::TerminalSize size() const { return size_; }
  bool ending() const { return ending_; }
  bool finished() const { return finished_; }

  void attach(const std::shared_ptr<SessionObserver>& observer);
  void detach(const SessionObserver* observer);
  std::size_t observer_count() const { return observers_.size(); }

  // False when the input queue is full (the program is not reading); nothing is queued.
  bool write_input(std::string_view bytes);
  core::TerminalSize resize(core::TerminalSize requested);

  // Starts the escalation; idempotent.
  void end();
  // Called by the service when the reaper collected the leader.
  void on_leader_exit(const core::ExitStatus& status);

 private:
  void read_more();
  void write_more();
  void ending_tick();
  void close_pty();
  void maybe_finish();
  template <class Fn>
  void for_each_observer(Fn&& fn);

  core::SessionId id_;
  pid_t pid_;
  asio::posix::stream_descriptor pty_;
  core::TerminalSize size_;
  EndingTimings timings_;
  asio::steady_timer ending_timer_;
  std::array<char, 64 * 1024> read_buffer_{};
  std::deque<std::string> input_;
  std::size_t input_bytes_ = 0;
  bool writing_ = false;
  std::vector<std::weak_ptr<SessionObserver>> observers_;
  std::optional<core::ExitStatus> leader_exit_;
  bool output_closed_ = false;
  bool ending_ = false;
  enum class Phase { kHangup, kTerminate, kKill } phase_ = Phase::kHangup;
  std::chrono::steady_clock::time_point phase_deadline_{};
  int quiet_ticks_ = 0;
  bool survivors_gone_ = false;
  bool finished_ = false;
  std::function<void(core::SessionId)> on_finished_;
};

}  // namespace wharf::app
