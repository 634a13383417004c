#include "app/session.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "core/notification_policy.hpp"
#include "core/utf8.hpp"
#include "host/session_host.hpp"

namespace wharf::app {

Session::Session(asio::io_context& io, core::SessionId id, std::string program,
                 host::HostConnection connection)
    : id_(id),
      program_(std::move(program)),
      pid_(connection.state.pid),
      host_pid_(connection.state.host_pid),
      meta_(connection.state.meta),
      screen_(std::make_unique<core::Screen>(connection.state.size, core::kDefaultScrollbackBytes,
                                             host::first_screen_seq())),
      leftover_(std::move(connection.leftover)),
      size_(connection.state.size),
      ending_(connection.state.ending),
      bytes_out_(connection.state.bytes_out),
      bytes_in_(connection.state.bytes_in),
      activity_timer_(io),
      status_timer_(io) {
  // The host's screen, recreated; whatever it would answer was answered by the host.
  if (!connection.snapshot.empty()) {
    screen_->feed(connection.snapshot);
    (void)screen_->take_replies();
  }
  auto now = std::chrono::steady_clock::now();
  last_output_ = now - std::chrono::milliseconds(connection.state.output_age_ms);
  last_activity_ =
      std::max(last_output_, now - std::chrono::milliseconds(connection.state.input_age_ms));
  host::LocalSocket socket(io);
  boost::system::error_code ec;
  socket.assign(asio::local::stream_protocol(), connection.fd, ec);
  if (ec) ::close(connection.fd);
  link_ = std::make_shared<host::FrameLink>(std::move(socket), host::FrameLink::Callbacks{});
}

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
  std::weak_ptr<Session> weak = weak_from_this();
  link_->set_callbacks(host::FrameLink::Callbacks{
      .on_frame =
          [weak](core::host::Frame& frame) {
            if (auto self = weak.lock()) self->on_frame(frame);
          },
      .on_closed =
          [weak](const std::string& why) {
            if (auto self = weak.lock()) self->on_link_closed(why);
          },
      .on_drained = nullptr,
  });
  link_->start(std::exchange(leftover_, {}));
}

void Session::on_frame(core::host::Frame& frame) {
  switch (frame.type) {
    case core::host::FrameType::kOutput:
      on_output(frame.payload);
      return;
    case core::host::FrameType::kWritten:
      if (auto n = core::host::parse_written(frame.payload))
        input_in_flight_ -= std::min<std::size_t>(input_in_flight_, *n);
      return;
    case core::host::FrameType::kFinished: {
      auto status = core::host::parse_exit(frame.payload);
      finish(status ? status.value() : core::ExitStatus{});
      return;
    }
    default:
      return;  // nothing else is meant for a daemon once the link is up
  }
}

void Session::on_link_closed(const std::string& why) {
  if (finished_ || released_) return;
  // The host is gone and never said the session finished: it crashed or was killed. Its
  // PTY closed with it, so the program has had its hang-up.
  (void)why;
  host_lost_ = true;
  finish(core::ExitStatus{});
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

void Session::on_output(std::string_view bytes) {
  // Windows first (they only queue), then the copy of the screen. The host cut every
  // chunk on a character boundary (xterm.js 6 can lose a character split across writes).
  bytes_out_ += bytes.size();
  if (bytes.empty()) return;
  auto chunk = std::make_shared<const std::string>(bytes);
  last_activity_ = std::chrono::steady_clock::now();
  last_output_ = last_activity_;
  // Any program may report its directory and commands (fish, a shell over ssh), so every
  // session's output is scanned; only the sessions wharf integrated count as shells.
  follow_shell_marks(*chunk);
  activity_changed(activity_.on_output(last_output_));
  for_each_observer([&](SessionObserver& o) { o.on_output(chunk); });
  std::uint64_t bells = screen_->bells();
  screen_->feed(*chunk);
  (void)screen_->take_replies();  // the host's screen has answered them
  if (screen_->bells() != bells && on_activity_ &&
      core::bell_calls_for_person(last_output_, last_input_))
    on_activity_(id_, ActivityEvent::kBell);
}

void Session::follow_shell_marks(std::string_view chunk) {
  found_marks_.clear();
  marks_.feed(chunk, found_marks_);
  bool changed = false;
  for (const core::ShellMark& mark : found_marks_) {
    changed = status_.on_mark(mark, last_output_) || changed;
    if (!shell_.integrated || mark.kind == core::MarkKind::kWorkingDirectory) continue;
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
      case core::MarkKind::kWorkingDirectory:
        break;
    }
  }
  if (changed) status_changed();
}

OutputChunk Session::status_message() const {
  if (!status_message_) {
    const char* home = std::getenv("HOME");
    status_message_ = std::make_shared<const std::string>(
        core::status_message(id_, status_.status(), home != nullptr ? home : ""));
  }
  return status_message_;
}

void Session::report_status(core::AgentReport report) {
  if (status_.on_report(std::move(report))) status_changed();
}

void Session::status_changed() {
  status_message_.reset();
  if (status_timer_armed_ || finished_) return;  // the timer sends the status as it is then
  auto now = std::chrono::steady_clock::now();
  auto at = status_throttle_.send_at(now);
  if (at <= now) {
    send_status();
    return;
  }
  status_timer_armed_ = true;
  status_timer_.expires_at(at);
  status_timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (!self) return;
    self->status_timer_armed_ = false;
    if (ec || self->finished_) return;
    self->send_status();
  });
}

void Session::send_status() {
  status_throttle_.sent(std::chrono::steady_clock::now());
  OutputChunk message = status_message();
  for_each_observer([&](SessionObserver& o) { o.on_status(message); });
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
  if (ending_ || finished_ || !link_->open()) return false;
  // What the program has not read yet, here and in the host: a program that stops
  // reading its terminal holds at most this much, and a typist is told.
  if (input_in_flight_ + bytes.size() > kMaxPendingInputBytes) return false;
  input_in_flight_ += bytes.size();
  bytes_in_ += bytes.size();
  last_activity_ = std::chrono::steady_clock::now();
  last_input_ = last_activity_;
  activity_.on_input(last_activity_);
  link_->send(core::host::FrameType::kInput, bytes);
  return true;
}

core::TerminalSize Session::resize(core::TerminalSize requested) {
  core::TerminalSize clamped = core::clamp_size(requested.cols, requested.rows);
  if (clamped == size_ || finished_ || !link_->open()) return size_;
  size_ = clamped;
  screen_->resize(clamped);
  link_->send(core::host::FrameType::kResize, core::host::to_json(clamped));
  for_each_observer([&](SessionObserver& o) { o.on_resize(size_); });
  return size_;
}

void Session::update_meta(const core::host::SessionMeta& meta) {
  if (meta == meta_) return;
  meta_ = meta;
  link_->send(core::host::FrameType::kMeta, core::host::to_json(meta_));
}

void Session::end() {
  if (ending_ || finished_) return;
  ending_ = true;
  link_->send(core::host::FrameType::kEnd, {});
}

void Session::recorded() {
  link_->send(core::host::FrameType::kRecorded, {});
  link_->close_after_flush();
}

void Session::release() {
  if (finished_) return;
  released_ = true;
  link_->send(core::host::FrameType::kRelease, {});
  link_->close_after_flush();
}

void Session::finish(const core::ExitStatus& status) {
  if (finished_) return;
  // Finishing lets the owner drop this session: stay alive until this call returns.
  auto self = shared_from_this();
  finished_ = true;
  leader_exit_ = status;
  activity_timer_.cancel();
  status_timer_.cancel();
  if (on_finished_) on_finished_(id_, *leader_exit_);
}

void Session::notify_exit(std::optional<core::SessionId> next) {
  for_each_observer([&](SessionObserver& o) { o.on_exit(id_, *leader_exit_, next); });
  observers_.clear();
}

}  // namespace wharf::app
