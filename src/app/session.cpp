#include "app/session.hpp"

#include <boost/asio/write.hpp>
#include <csignal>

#include "core/utf8.hpp"
#include "pty/process_tree.hpp"

namespace wharf::app {

namespace {

// Microseconds since the epoch: later than any state of a screen an earlier daemon kept
// (see core::Screen's first_seq), so a reader's stale `since` gets a full answer.
std::uint64_t first_screen_seq() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(now).count());
}

}  // namespace

Session::Session(asio::io_context& io, core::SessionId id, std::string program,
                 pty::PtyProcess process, core::TerminalSize size, EndingTimings timings)
    : id_(id),
      program_(std::move(program)),
      pid_(process.pid()),
      screen_(
          std::make_unique<core::Screen>(size, core::kDefaultScrollbackBytes, first_screen_seq())),
      pty_(io, process.release_master()),
      size_(size),
      timings_(timings),
      ending_timer_(io),
      activity_timer_(io) {}

OutputChunk Session::snapshot() const {
  // bytes_fed changes with every output, change_seq with every resize: together they say
  // whether the screen (cursor, modes and title included) is still the one rendered.
  if (!snapshot_ || snapshot_fed_ != screen_->bytes_fed() ||
      snapshot_seq_ != screen_->change_seq()) {
    snapshot_ = std::make_shared<const std::string>(screen_->snapshot(kSnapshotScrollbackLines));
    snapshot_fed_ = screen_->bytes_fed();
    snapshot_seq_ = screen_->change_seq();
  }
  return snapshot_;
}

void Session::start(std::function<void(core::SessionId, const core::ExitStatus&)> on_finished) {
  on_finished_ = std::move(on_finished);
  read_more();
}

template <class Fn>
void Session::for_each_observer(Fn&& fn) {
  // Observers may detach (or attach) from inside a callback: walk a snapshot.
  auto snapshot = observers_;
  std::erase_if(observers_, [](const auto& weak) { return weak.expired(); });
  for (const auto& weak : snapshot)
    if (auto observer = weak.lock()) fn(*observer);
}

void Session::attach(const std::shared_ptr<SessionObserver>& observer) {
  observers_.push_back(observer);
}

void Session::detach(const SessionObserver* observer) {
  std::erase_if(observers_, [observer](const auto& weak) {
    auto locked = weak.lock();
    return !locked || locked.get() == observer;
  });
}

void Session::read_more() {
  pty_.async_read_some(asio::buffer(read_buffer_),
                       [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                         if (n > 0) self->on_output(n);
                         if (ec) {
                           // EIO: every process let go of the terminal. Aborted: we closed it.
                           self->output_closed_ = true;
                           self->maybe_finish();
                           return;
                         }
                         self->read_more();
                       });
}

void Session::on_output(std::size_t n) {
  // Windows first (they only queue), then the screen model; its replies to terminal
  // queries go straight back to the program, once, whoever is watching.
  // A read may end inside a UTF-8 character; its first bytes wait for the rest, so that
  // every chunk windows receive ends on a character boundary (xterm.js 6 can lose a
  // character split across two writes).
  std::string bytes = std::exchange(utf8_tail_, {});
  bytes.append(read_buffer_.data(), n);
  std::size_t keep = core::utf8_incomplete_tail(bytes);
  if (keep > 0) {
    utf8_tail_.assign(bytes, bytes.size() - keep, keep);
    bytes.resize(bytes.size() - keep);
  }
  bytes_out_ += n;
  if (bytes.empty()) return;
  auto chunk = std::make_shared<const std::string>(std::move(bytes));
  last_activity_ = std::chrono::steady_clock::now();
  last_output_ = last_activity_;
  if (shell_.integrated) follow_shell_marks(*chunk);
  activity_changed(activity_.on_output(last_output_));
  for_each_observer([&](SessionObserver& o) { o.on_output(chunk); });
  screen_->feed(*chunk);
  std::string replies = screen_->take_replies();
  if (!replies.empty()) queue_input(replies);
}

void Session::follow_shell_marks(std::string_view chunk) {
  found_marks_.clear();
  marks_.feed(chunk, found_marks_);
  for (const core::ShellMark& mark : found_marks_) {
    shell_.marks_seen = true;
    switch (mark.kind) {
      case core::MarkKind::kPromptStart:
      case core::MarkKind::kCommandStart:
        shell_.at_prompt = true;
        break;
      case core::MarkKind::kOutputStart:
        shell_.at_prompt = false;
        ++shell_.commands;
        break;
      case core::MarkKind::kCommandEnd:
        if (mark.exit_code) shell_.last_exit = mark.exit_code;
        break;
    }
  }
}

void Session::mark_activity(core::Activity activity) {
  activity_changed(activity_.mark(activity, std::chrono::steady_clock::now()));
}

void Session::seen() {
  activity_changed(activity_.seen());
}

void Session::activity_changed(bool changed) {
  if (changed && on_activity_) on_activity_(id_, ActivityEvent::kChanged);
  arm_activity_timer();
}

// One timer per session, armed for the tracker's next deadline. Output moves the
// deadline later many times a second; rather than re-arming for each read, a timer that
// fires early just arms itself again for the deadline as it is then.
void Session::arm_activity_timer() {
  if (activity_timer_armed_ || finished_) return;
  auto deadline = activity_.next_deadline();
  if (!deadline) return;
  activity_timer_armed_ = true;
  activity_timer_.expires_at(*deadline);
  activity_timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (!self) return;
    self->activity_timer_armed_ = false;
    if (ec || self->finished_) return;
    auto now = std::chrono::steady_clock::now();
    bool changed = self->activity_.tick(now);
    if (changed && self->on_activity_) self->on_activity_(self->id_, ActivityEvent::kChanged);
    if (self->activity_.chime_due(now) && self->on_activity_)
      self->on_activity_(self->id_, ActivityEvent::kChime);
    self->arm_activity_timer();
  });
}

bool Session::write_input(std::string_view bytes) {
  if (ending_ || finished_ || !pty_.is_open()) return false;
  if (input_bytes_ + bytes.size() > kMaxPendingInputBytes) return false;
  bytes_in_ += bytes.size();
  last_activity_ = std::chrono::steady_clock::now();
  activity_.on_input(last_activity_);
  queue_input(bytes);
  return true;
}

void Session::queue_input(std::string_view bytes) {
  if (!pty_.is_open()) return;
  input_.emplace_back(bytes);
  input_bytes_ += bytes.size();
  write_more();
}

void Session::write_more() {
  if (writing_ || input_.empty() || !pty_.is_open()) return;
  writing_ = true;
  asio::async_write(pty_, asio::buffer(input_.front()),
                    [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                      self->writing_ = false;
                      self->input_bytes_ -= self->input_.front().size();
                      self->input_.pop_front();
                      if (ec) {
                        // The terminal is gone; nothing queued can arrive any more.
                        self->input_.clear();
                        self->input_bytes_ = 0;
                        return;
                      }
                      self->write_more();
                    });
}

core::TerminalSize Session::resize(core::TerminalSize requested) {
  core::TerminalSize clamped = core::clamp_size(requested.cols, requested.rows);
  if (clamped == size_ || !pty_.is_open()) return size_;
  if (pty::PtyProcess::resize(pty_.native_handle(), clamped)) {
    size_ = clamped;
    screen_->resize(clamped);
    for_each_observer([&](SessionObserver& o) { o.on_resize(size_); });
  }
  return size_;
}

void Session::end() {
  if (ending_ || finished_) return;
  // Ending can finish the session at once, and its owner then lets go of it: stay
  // alive until this call returns.
  auto self = shared_from_this();
  ending_ = true;
  phase_ = Phase::kHangup;
  phase_deadline_ = std::chrono::steady_clock::now() + timings_.hangup_grace;
  pty::signal_session(pid_, SIGHUP);
  ending_tick();
}

void Session::on_leader_exit(const core::ExitStatus& status) {
  auto self = shared_from_this();  // see end()
  leader_exit_ = status;
  // Jobs the program left behind belong to the session and end with it.
  end();
  maybe_finish();
}

void Session::ending_tick() {
  auto now = std::chrono::steady_clock::now();
  std::size_t alive = pty::session_members(pid_).size();
  if (alive == 0) {
    // Give the reader a couple of ticks to collect the last output before closing.
    if (!output_closed_ && ++quiet_ticks_ < 3) {
      // fall through to rescheduling
    } else {
      close_pty();
      survivors_gone_ = true;
      maybe_finish();
      return;
    }
  } else {
    quiet_ticks_ = 0;
    if (phase_ == Phase::kHangup && now >= phase_deadline_) {
      phase_ = Phase::kTerminate;
      phase_deadline_ = now + timings_.terminate_grace;
      pty::signal_session(pid_, SIGTERM);
    } else if (phase_ == Phase::kTerminate && now >= phase_deadline_) {
      phase_ = Phase::kKill;
      pty::signal_session(pid_, SIGKILL);
    } else if (phase_ == Phase::kKill) {
      pty::signal_session(pid_, SIGKILL);  // anything forked since the last round
    }
  }
  ending_timer_.expires_after(timings_.poll);
  ending_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->ending_tick();
  });
}

void Session::close_pty() {
  if (!pty_.is_open()) return;
  boost::system::error_code ignored;
  pty_.close(ignored);
  output_closed_ = true;
}

void Session::maybe_finish() {
  if (finished_ || !leader_exit_ || !output_closed_ || !survivors_gone_) return;
  finished_ = true;
  close_pty();
  ending_timer_.cancel();
  activity_timer_.cancel();
  if (on_finished_) on_finished_(id_, *leader_exit_);
}

void Session::notify_exit(std::optional<core::SessionId> next) {
  for_each_observer([&](SessionObserver& o) { o.on_exit(id_, *leader_exit_, next); });
  observers_.clear();
}

}  // namespace wharf::app
