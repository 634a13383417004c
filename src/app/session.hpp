// One live terminal session as the daemon sees it: the link to the session's host
// process (host/session_host.hpp, which owns the PTY, the program and the screen as it
// really is), a copy of that screen kept from the same bytes, and the windows watching.
//
// Output arrives from the host as frames and is handed to observers as shared immutable
// chunks; each observer bounds its own queue (a slow window never holds the session
// back). Input is sent to the host with a byte bound. Ending is the host's work (SIGHUP
// -> SIGTERM -> SIGKILL over every process of the terminal session); the session is
// finished when the host says every process is gone, or when the host itself is lost
// (it crashed: host_lost()), and only then do observers hear `on_exit`. The copy of the
// screen never answers terminal queries: the host's screen does, once.
#pragma once

#include <sys/types.h>

#include <array>
#include <boost/asio/io_context.hpp>
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
#include "core/host_protocol.hpp"
#include "core/screen.hpp"
#include "core/session_status.hpp"
#include "core/shell_marks.hpp"
#include "core/terminal_size.hpp"
#include "host/frame_link.hpp"
#include "host/host_launch.hpp"

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
  // The session's `status` message (core/session_status.hpp), at most kStatusInterval
  // apart; observers that show no status strip ignore it.
  virtual void on_status(const OutputChunk& message) { (void)message; }
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
  // `connection` is a host that has just answered (host/host_launch.hpp): its state and
  // screen become this session's.
  Session(asio::io_context& io, core::SessionId id, std::string program,
          host::HostConnection connection);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // `on_finished` runs once the session is finished (see above); the owner then calls
  // notify_exit() so the windows hear where to go next.
  void start(std::function<void(core::SessionId, const core::ExitStatus&)> on_finished);
  void notify_exit(std::optional<core::SessionId> next);

  core::SessionId id() const { return id_; }
  asio::any_io_executor executor() { return activity_timer_.get_executor(); }
  // The program's pid: the leader of its process session.
  pid_t pid() const { return pid_; }
  pid_t host_pid() const { return host_pid_; }
  // What the host keeps for a daemon started later (name, place, the store's run).
  const core::host::SessionMeta& meta() const { return meta_; }
  void update_meta(const core::host::SessionMeta& meta);
  // The host went away without saying the session finished: it crashed or was killed.
  bool host_lost() const { return host_lost_; }
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
  // kBell: the program rang the terminal bell, not in answer to a key
  // (core/notification_policy.hpp, bell_calls_for_person).
  enum class ActivityEvent { kChanged, kChime, kBell };
  void set_activity_listener(std::function<void(core::SessionId, ActivityEvent)> listener) {
    on_activity_ = std::move(listener);
  }
  core::Activity activity() const { return activity_.activity(); }
  void mark_activity(core::Activity activity);  // wharf notify
  void seen();                                  // a person looked at it

  const ShellState& shell_state() const { return shell_; }
  // What the program reports about itself (the status strip): OSC 7 and 133 from its
  // output, and its agent's status line (`wharf status-line`, report_status()).
  const core::ProgramStatus& status() const { return status_.status(); }
  // The current `status` message, built once per change.
  OutputChunk status_message() const;
  void report_status(core::AgentReport report);
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

  // Asks the host to end the session; idempotent.
  void end();
  // The daemon has recorded how the session ended: the host may exit.
  void recorded();
  // The daemon is going away and keeps the session: the host runs on without it.
  void release();

 private:
  void on_frame(core::host::Frame& frame);
  void on_link_closed(const std::string& why);
  void on_output(std::string_view bytes);
  void follow_shell_marks(std::string_view chunk);
  // The status changed: observers hear it now, or when the throttle allows.
  void status_changed();
  void send_status();
  void activity_changed(bool changed);
  void arm_activity_timer();
  void finish(const core::ExitStatus& status);
  template <class Fn>
  void for_each_observer(Fn&& fn);

  core::SessionId id_;
  std::string program_;
  pid_t pid_;
  pid_t host_pid_;
  core::host::SessionMeta meta_;
  std::unique_ptr<core::Screen> screen_;
  std::shared_ptr<host::FrameLink> link_;
  std::string leftover_;  // frames read with the host's first answer
  core::TerminalSize size_;
  // The last snapshot and the screen state it shows (bytes fed, state number, size).
  mutable OutputChunk snapshot_;
  mutable std::uint64_t snapshot_fed_ = 0;
  mutable std::uint64_t snapshot_seq_ = 0;
  std::vector<std::weak_ptr<SessionObserver>> observers_;
  std::optional<core::ExitStatus> leader_exit_;
  bool ending_ = false;
  bool finished_ = false;
  bool released_ = false;
  bool host_lost_ = false;
  std::function<void(core::SessionId, const core::ExitStatus&)> on_finished_;
  std::uint64_t bytes_out_ = 0;
  std::uint64_t bytes_in_ = 0;
  // Input sent to the host that has not reached the program's PTY yet (`written`).
  std::size_t input_in_flight_ = 0;
  std::chrono::steady_clock::time_point last_activity_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_output_ = last_activity_;
  core::ShellMarkScanner marks_;
  std::vector<core::ShellMark> found_marks_;  // reused storage
  ShellState shell_;
  core::StatusTracker status_;
  mutable OutputChunk status_message_;  // null: changed since it was built
  bool command_in_flight_ = false;
  core::ActivityTracker activity_;
  std::optional<std::chrono::steady_clock::time_point> last_input_;
  asio::steady_timer activity_timer_;
  bool activity_timer_armed_ = false;
  core::StatusThrottle status_throttle_{core::kStatusInterval};
  asio::steady_timer status_timer_;
  bool status_timer_armed_ = false;
  std::function<void(core::SessionId, ActivityEvent)> on_activity_;
};

}  // namespace wharf::app
