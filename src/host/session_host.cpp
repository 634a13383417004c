#include "host/session_host.hpp"

#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <csignal>
#include <cstring>
#include <filesystem>

#include "core/utf8.hpp"
#include "core/version.hpp"
#include "pty/child_reaper.hpp"
#include "pty/process_tree.hpp"

namespace wharf::host {

namespace hp = core::host;

namespace {

std::int64_t age_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               since)
      .count();
}

bool peer_is_us(int fd) {
  ucred cred{};
  socklen_t len = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return false;
  return cred.uid == geteuid();
}

}  // namespace

std::uint64_t first_screen_seq() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(now).count());
}

SessionHost::SessionHost(asio::io_context& io, hp::SpawnRequest request, pty::PtyProcess process,
                         std::optional<pty::SessionCgroup> cgroup, std::string socket_path,
                         asio::local::stream_protocol::acceptor acceptor)
    : io_(io),
      request_(std::move(request)),
      pid_(process.pid()),
      cgroup_(std::move(cgroup)),
      socket_path_(std::move(socket_path)),
      acceptor_(std::move(acceptor)),
      pty_(io, process.release_master()),
      size_(request_.size),
      screen_(request_.size, core::kDefaultScrollbackBytes, first_screen_seq()),
      signals_(io, SIGCHLD, SIGTERM),
      ending_timer_(io) {}

void SessionHost::start(LocalSocket first) {
  watch_signals();
  link(std::move(first), true);
  read_pty();
  accept_next();
  // A program that ended before the signal set existed sent its SIGCHLD to nobody (a
  // failed start can exit within a millisecond): look once, now that we watch.
  asio::post(io_, [this] { reap_children(); });
}

// --- the PTY ---------------------------------------------------------------------------

void SessionHost::read_pty() {
  if (reading_ || !pty_.is_open()) return;
  // A daemon that reads slowly slows the program down rather than growing this host.
  if (link_ && link_->queued() > kHighWater) return;
  reading_ = true;
  pty_.async_read_some(asio::buffer(read_buffer_),
                       [this](boost::system::error_code ec, std::size_t n) {
                         reading_ = false;
                         if (n > 0) on_pty_output(n);
                         if (ec) {
                           // EIO: every process let go of the terminal. Aborted: we closed it.
                           output_closed_ = true;
                           maybe_finish();
                           return;
                         }
                         read_pty();
                       });
}

void SessionHost::on_pty_output(std::size_t n) {
  // Chunks end on character boundaries: the first bytes of a cut character wait for the
  // rest (xterm.js 6 can lose a character split across two writes).
  std::string bytes = std::exchange(utf8_tail_, {});
  bytes.append(read_buffer_.data(), n);
  std::size_t keep = core::utf8_incomplete_tail(bytes);
  if (keep > 0) {
    utf8_tail_.assign(bytes, bytes.size() - keep, keep);
    bytes.resize(bytes.size() - keep);
  }
  bytes_out_ += n;
  if (bytes.empty()) return;
  last_output_ = std::chrono::steady_clock::now();
  screen_.feed(bytes);
  // The screen answers the terminal's queries, once, whether or not a daemon listens.
  std::string replies = screen_.take_replies();
  if (!replies.empty()) queue_pty_input(replies, false);
  if (link_) link_->send(hp::FrameType::kOutput, bytes);
}

void SessionHost::queue_pty_input(std::string_view bytes, bool from_daemon) {
  if (!pty_.is_open()) return;
  input_.push_back(PendingInput{std::string(bytes), from_daemon});
  input_bytes_ += bytes.size();
  write_pty();
}

void SessionHost::write_pty() {
  if (writing_ || input_.empty() || !pty_.is_open()) return;
  writing_ = true;
  asio::async_write(
      pty_, asio::buffer(input_.front().bytes), [this](boost::system::error_code ec, std::size_t) {
        writing_ = false;
        PendingInput done = std::move(input_.front());
        input_bytes_ -= done.bytes.size();
        input_.pop_front();
        if (done.from_daemon && link_)
          link_->send(hp::FrameType::kWritten, hp::written_payload(done.bytes.size()));
        if (ec) {
          input_.clear();
          input_bytes_ = 0;
          return;
        }
        write_pty();
      });
}

void SessionHost::resize(core::TerminalSize requested) {
  core::TerminalSize clamped = core::clamp_size(requested.cols, requested.rows);
  if (clamped == size_ || !pty_.is_open()) return;
  if (pty::PtyProcess::resize(pty_.native_handle(), clamped)) {
    size_ = clamped;
    screen_.resize(clamped);
  }
}

// --- daemons ---------------------------------------------------------------------------

void SessionHost::accept_next() {
  acceptor_.async_accept([this](boost::system::error_code ec, LocalSocket socket) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (!ec) {
      // Only the daemon's own user may reach a session; anyone else is hung up on.
      if (peer_is_us(socket.native_handle())) {
        link(std::move(socket), false);
      } else {
        boost::system::error_code ignored;
        socket.close(ignored);
      }
    }
    accept_next();
  });
}

void SessionHost::link(LocalSocket socket, bool greeted) {
  auto link = std::make_shared<FrameLink>(std::move(socket), FrameLink::Callbacks{});
  std::weak_ptr<FrameLink> weak = link;
  link->set_callbacks(FrameLink::Callbacks{
      .on_frame =
          [this, weak](hp::Frame& frame) {
            if (auto self = weak.lock()) on_frame(self, frame);
          },
      .on_closed =
          [this, weak](const std::string&) {
            auto self = weak.lock();
            if (self && self == link_) {
              link_.reset();
              read_pty();  // nothing is queued for a daemon any more
            }
          },
      .on_drained = [this] { read_pty(); },
  });
  link->start();
  if (greeted) greet(link);
}

void SessionHost::greet(const std::shared_ptr<FrameLink>& link) {
  if (link_ && link_ != link) link_->close("replaced by a newer daemon");
  link_ = link;
  link_->send(hp::FrameType::kState, hp::to_json(state()));
  // The whole scrollback: a daemon started later shows everything this host kept.
  link_->send(hp::FrameType::kSnapshot, screen_.snapshot());
  if (finished_) link_->send(hp::FrameType::kFinished, hp::to_json(*leader_exit_));
}

hp::HostState SessionHost::state() const {
  hp::HostState s;
  s.version = std::string(core::kVersion);
  s.pid = pid_;
  s.host_pid = getpid();
  s.size = size_;
  s.bytes_out = bytes_out_;
  s.bytes_in = bytes_in_;
  s.ending = ending_;
  s.output_age_ms = age_ms(last_output_);
  s.input_age_ms = age_ms(last_input_);
  if (finished_) s.finished = leader_exit_;
  s.meta = request_.meta;
  return s;
}

void SessionHost::on_frame(const std::shared_ptr<FrameLink>& from, hp::Frame& frame) {
  bool current = from == link_;
  switch (frame.type) {
    case hp::FrameType::kHello: {
      auto hello = hp::parse_hello(frame.payload);
      if (!hello || hello.value().protocol != hp::kProtocolVersion) {
        // Another version of wharf: say which this host speaks and stay as we are, for
        // a daemon that speaks it.
        hp::HostState mine;
        mine.version = std::string(core::kVersion);
        from->send(hp::FrameType::kState, hp::to_json(mine));
        from->close_after_flush();
        return;
      }
      greet(from);
      return;
    }
    case hp::FrameType::kInput:
      if (!current || ending_ || finished_) return;
      // The daemon bounds what it queues; this bounds what the program has not read yet.
      if (input_bytes_ + frame.payload.size() > kMaxPtyInputBytes) return;
      bytes_in_ += frame.payload.size();
      last_input_ = std::chrono::steady_clock::now();
      queue_pty_input(frame.payload, true);
      return;
    case hp::FrameType::kResize:
      if (!current) return;
      if (auto size = hp::parse_size(frame.payload)) resize(size.value());
      return;
    case hp::FrameType::kEnd:
      if (current) end();
      return;
    case hp::FrameType::kMeta:
      if (!current) return;
      if (auto meta = hp::parse_meta(frame.payload); meta && meta.value().id == request_.meta.id)
        request_.meta = meta.value();
      return;
    case hp::FrameType::kRecorded:
      if (current && finished_) quit();
      return;
    case hp::FrameType::kRelease:
      if (current) from->close("released");
      return;
    default:
      from->close(std::string("unexpected frame: ") + std::string(hp::frame_type_name(frame.type)));
      return;
  }
}

// --- ending ----------------------------------------------------------------------------

void SessionHost::watch_signals() {
  signals_.async_wait([this](boost::system::error_code ec, int signal) {
    if (ec) return;
    if (signal == SIGTERM) {
      end();  // `kill HOST_PID` ends the session the way `wharf kill` does
    } else {
      reap_children();
    }
    watch_signals();
  });
}

void SessionHost::reap_children() {
  pty::reap_exited_children([this](pid_t pid, core::ExitStatus status) {
    if (pid == pid_) on_leader_exit(status);
  });
}

void SessionHost::end() {
  if (ending_ || finished_) return;
  ending_ = true;
  phase_ = Phase::kHangup;
  phase_deadline_ =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(request_.ending.hangup_ms);
  signal_members(SIGHUP);
  ending_tick();
}

void SessionHost::on_leader_exit(const core::ExitStatus& status) {
  leader_exit_ = status;
  // Jobs the program left behind belong to the session and end with it.
  end();
  maybe_finish();
}

void SessionHost::ending_tick() {
  auto now = std::chrono::steady_clock::now();
  std::size_t alive = pty::session_members(pid_).size() + (cgroup_ ? cgroup_->members().size() : 0);
  if (alive == 0) {
    // A couple of ticks for the reader to collect the last output before closing.
    if (output_closed_ || ++quiet_ticks_ >= 3) {
      close_pty();
      survivors_gone_ = true;
      maybe_finish();
      return;
    }
  } else {
    quiet_ticks_ = 0;
    if (phase_ == Phase::kHangup && now >= phase_deadline_) {
      phase_ = Phase::kTerminate;
      phase_deadline_ = now + std::chrono::milliseconds(request_.ending.terminate_ms);
      signal_members(SIGTERM);
    } else if (phase_ == Phase::kTerminate && now >= phase_deadline_) {
      phase_ = Phase::kKill;
      signal_members(SIGKILL);
    } else if (phase_ == Phase::kKill) {
      signal_members(SIGKILL);  // anything forked since the last round
    }
  }
  ending_timer_.expires_after(std::chrono::milliseconds(request_.ending.poll_ms));
  ending_timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) ending_tick();
  });
}

std::size_t SessionHost::signal_members(int signal) {
  std::size_t n = pty::signal_session(pid_, signal);
  if (cgroup_) {
    if (signal == SIGKILL && cgroup_->kill_all()) return n + 1;
    n += cgroup_->signal_all(signal);
  }
  return n;
}

void SessionHost::close_pty() {
  if (!pty_.is_open()) return;
  boost::system::error_code ignored;
  pty_.close(ignored);
  output_closed_ = true;
}

void SessionHost::maybe_finish() {
  if (finished_ || !leader_exit_ || !output_closed_ || !survivors_gone_) return;
  finished_ = true;
  close_pty();
  ending_timer_.cancel();
  if (link_) link_->send(hp::FrameType::kFinished, hp::to_json(*leader_exit_));
}

void SessionHost::quit() {
  std::error_code ignored;
  std::filesystem::remove(socket_path_, ignored);
  if (cgroup_) {
    // Its last members may still wait to be reaped before the directory can go.
    pty::reap_exited_children([](pid_t, core::ExitStatus) {});
    cgroup_->remove();
  }
  boost::system::error_code ec;
  acceptor_.close(ec);
  signals_.cancel(ec);
  if (link_) {
    // The daemon hears the link close once "recorded" has been answered.
    link_->close_after_flush();
  }
  io_.stop();
}

}  // namespace wharf::host
