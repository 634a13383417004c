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

#include "core/activity.hpp"
#include "core/control_message.hpp"
#include "core/exit_status.hpp"
#include "core/screen.hpp"
#include "core/shell_marks.hpp"
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
  // `next` is where a window showing this session should land.
  virtual void on_exit(core::SessionId id, const core::ExitStatus& status,
                       std::optional<core::SessionId> next) = 0;
};

struct EndingTimings {
  std::chrono::milliseconds hangup_grace{300};      // SIGHUP -> SIGTERM
  std::chrono::milliseconds terminate_grace{2000};  // SIGTERM -> SIGKILL
  std::chrono::milliseconds poll{50};               // how often survivors are looked for
};

// What the shell's OSC 133 marks (core/shell_marks.hpp) say about a session. Only the
// bash and zsh sessions wharf starts with its shell integration print them.
struct ShellState {
  bool integrated = false;  // started with wharf's shell integration
  bool marks_seen = false;  // the shell has printed at least one mark
  bool at_prompt = false;   // its last mark was A or B: it waits for a command line
  std::optional<int> last_exit;
  std::uint64_t commands = 0;  // command lines it has run (C marks)
};

inline constexpr std::size_t kMaxPendingInputBytes = 1 << 20;
// Scrollback lines a snapshot carries: what the page keeps.
inline constexpr std::size_t kSnapshotScrollbackLines = 2000;

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(asio::io_context& io, core::SessionId id, std::string program, pty::PtyProcess process,
          core::TerminalSize size, EndingTimings timings);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // `on_finished` runs once the session is finished (see above); the owner then calls
  // notify_exit() so the windows hear where to go next.
  void start(std::function<void(core::SessionId, const core::ExitStatus&)> on_finished);
  void notify_exit(std::optional<core::SessionId> next);

  core::SessionId id() const { return id_; }
  asio::any_io_executor executor() { return pty_.get_executor(); }
  pid_t pid() const { return pid_; }
  core::TerminalSize size() const { return size_; }
  bool ending() const { return ending_; }
  bool finished() const { return finished_; }
  const std::string& program() const { return program_; }
  std::uint64_t bytes_out() const { return bytes_out_; }
  std::uint64_t bytes_in() const { return bytes_in_; }
  std::chrono::steady_clock::time_point last_activity() const { return last_activity_; }
  // When the program last printed anything.
  std::chrono::steady_clock::time_point last_output() const { return last_output_; }

  // What the session is doing, for the tab's light (core/activity.hpp). The listener
  // hears every change and, once per unseen finish, that it is time to chime.
  enum class ActivityEvent { kChanged, kChime };
  void set_activity_listener(std::function<void(core::SessionId, ActivityEvent)> listener) {
    on_activity_ = std::move(listener);
  }
  core::Activity activity() const { return activity_.activity(); }
  void mark_activity(core::Activity activity);  // wharf notify
  void seen();                                  // a person looked at it

  const ShellState& shell_state() const { return shell_; }
  void set_shell_integration(bool integrated) { shell_.integrated = integrated; }
  // One run_command at a time per session: the shell reads one command line at a time.
  bool command_in_flight() const { return command_in_flight_; }
  void set_command_in_flight(bool in_flight) { command_in_flight_ = in_flight; }

  // The screen as it is now, as bytes that recreate it, and as text.
  // The bytes that recreate the screen now, shared: windows catching up at the same state
  // (many watchers falling behind the same flood) reuse one rendering.
  OutputChunk snapshot() const;
  core::ScreenText text(std::size_t scrollback_lines) const {
    return screen_->text(scrollback_lines);
  }
  const core::Screen& screen() const { return *screen_; }

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
  void on_output(std::size_t n);
  void follow_shell_marks(std::string_view chunk);
  void activity_changed(bool changed);
  void arm_activity_timer();
  void write_more();
  void queue_input(std::string_view bytes);
  void ending_tick();
  void close_pty();
  void maybe_finish();
  template <class Fn>
  void for_each_observer(Fn&& fn);

  core::SessionId id_;
  std::string program_;
  pid_t pid_;
  std::unique_ptr<core::Screen> screen_;
  asio::posix::stream_descriptor pty_;
  core::TerminalSize size_;
  EndingTimings timings_;
  asio::steady_timer ending_timer_;
  std::array<char, 64 * 1024> read_buffer_{};
  std::string utf8_tail_;
  // The last snapshot and the screen state it shows (bytes fed, state number, size).
  mutable OutputChunk snapshot_;
  mutable std::uint64_t snapshot_fed_ = 0;
  mutable std::uint64_t snapshot_seq_ =
      0;  // the first bytes of a character the last read cut (at most 3)
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
  std::function<void(core::SessionId, const core::ExitStatus&)> on_finished_;
  std::uint64_t bytes_out_ = 0;
  std::uint64_t bytes_in_ = 0;
  std::chrono::steady_clock::time_point last_activity_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_output_ = last_activity_;
  core::ShellMarkScanner marks_;
  std::vector<core::ShellMark> found_marks_;  // reused storage
  ShellState shell_;
  bool command_in_flight_ = false;
  core::ActivityTracker activity_;
  asio::steady_timer activity_timer_;
  bool activity_timer_armed_ = false;
  std::function<void(core::SessionId, ActivityEvent)> on_activity_;
};

}  // namespace wharf::app
