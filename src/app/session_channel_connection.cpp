#include "app/session_channel_connection.hpp"

#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <exception>
#include <filesystem>

#include "core/guard_rules.hpp"
#include "pty/guarded_run.hpp"

namespace wharf::app {
namespace asio = boost::asio;

namespace {

constexpr std::size_t kReadChunk = 4096;
// Room for more fds than a guard sends, so that too many are seen (and closed), not cut.
constexpr std::size_t kMaxFdsPerMessage = 16;
constexpr std::string_view kDefaultPath = "/usr/local/bin:/usr/bin:/bin";

std::string path_of(const std::vector<std::string>& env) {
  for (const std::string& entry : env)
    if (entry.rfind("PATH=", 0) == 0) return entry.substr(5);
  return std::string(kDefaultPath);
}

}  // namespace

SessionChannelConnection::SessionChannelConnection(asio::local::stream_protocol::socket socket,
                                                   std::shared_ptr<SessionChannelState> state)
    : socket_(std::move(socket)),
      state_(std::move(state)),
      timer_(state_->executor),
      status_(state_->executor) {}

SessionChannelConnection::~SessionChannelConnection() {
  close_fds();
}

void SessionChannelConnection::start() {
  timer_.expires_after(state_->limits.read_timeout);
  timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->phase_ != Phase::reading) return;
    self->fail("no complete request arrived in time");
  });
  wait_readable();
}

void SessionChannelConnection::wait_readable() {
  socket_.async_wait(asio::socket_base::wait_read,
                     [self = shared_from_this()](boost::system::error_code ec) {
                       if (ec || self->phase_ != Phase::reading) return;
                       self->on_readable();
                     });
}

// recvmsg on the native handle: Asio's reads cannot receive SCM_RIGHTS.
void SessionChannelConnection::on_readable() {
  for (;;) {
    std::array<char, kReadChunk> data{};
    alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int) * kMaxFdsPerMessage)> control{};
    iovec iov{data.data(), data.size()};
    msghdr message{};
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    message.msg_control = control.data();
    message.msg_controllen = control.size();
    ssize_t n = recvmsg(socket_.native_handle(), &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return wait_readable();
    if (message.msg_flags & MSG_CTRUNC) fds_truncated_ = true;
    for (cmsghdr* c = CMSG_FIRSTHDR(&message); n >= 0 && c != nullptr;
         c = CMSG_NXTHDR(&message, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      const auto* fds = reinterpret_cast<const int*>(CMSG_DATA(c));
      for (std::size_t i = 0; i < count; ++i) fds_.push_back(fds[i]);
    }
    if (n <= 0) return end();  // the client left (or broke) before a whole request
    buffer_.append(data.data(), static_cast<std::size_t>(n));
    std::size_t newline = buffer_.find('\n');
    if (newline != std::string::npos && newline < core::kMaxChannelLineBytes) {
      timer_.cancel();
      handle_line(buffer_.substr(0, newline + 1));
      return;
    }
    if (buffer_.size() >= core::kMaxChannelLineBytes)
      return fail("request line longer than 64 KiB");
  }
}

void SessionChannelConnection::handle_line(const std::string& line) {
  auto parsed = core::parse_channel_request(line);
  if (!parsed) return fail(parsed.error().message);
  if (auto* notify = std::get_if<core::ChannelNotify>(&parsed.value())) {
    close_fds();  // a notify has no use for fds; any sent are dropped
    try {
      if (state_->hooks.notify) state_->hooks.notify(*notify);
    } catch (const std::exception& e) {
      return fail(std::string("notify failed: ") + e.what());
    }
    return send(core::ChannelOk{}, true);
  }
  handle_guard(std::move(std::get<core::ChannelGuard>(parsed.value())));
}

void SessionChannelConnection::handle_guard(core::ChannelGuard guard) {
  if (fds_truncated_ || fds_.size() != 3)
    return fail("a guard request carries exactly three fds (stdin, stdout, stderr); got " +
                std::to_string(fds_.size()) + (fds_truncated_ ? " and more" : ""));
  // The sandbox's opinion of what is guarded is not asked: the rules run again here.
  std::string program(core::program_basename(guard.argv[0]));
  if (program != "git" && program != "gh")
    return fail("only git and gh commands are guarded, not '" + program.substr(0, 64) + "'");
  core::GuardVerdict verdict = core::check_guard(program, guard.argv);
  if (!verdict.guarded) return fail("`" + verdict.what + "` is not guarded: run it in the sandbox");
  std::error_code ec;
  if (!std::filesystem::is_directory(guard.cwd, ec))
    return fail("the directory " + guard.cwd + " does not exist outside the sandbox");
  std::vector<std::string> env;
  std::string host_path;
  try {
    if (state_->hooks.environment) env = state_->hooks.environment();
    if (state_->hooks.host_path) host_path = state_->hooks.host_path();
  } catch (const std::exception& e) {
    return fail(std::string("cannot prepare the command: ") + e.what());
  }
  if (host_path.empty()) host_path = path_of(env);
  auto found = pty::find_on_path(program, host_path);
  if (!found) return fail("the real " + program + " is not on this machine's PATH");
  program_path_ = *found;

  request_.session = state_->session;
  request_.what = verdict.what;
  request_.reason = verdict.reason;
  request_.argv = std::move(verdict.argv);
  request_.client_argv = std::move(guard.argv);
  request_.cwd = std::move(guard.cwd);
  request_.body_from_file = verdict.body_from_file;
  if (!state_->hooks.open_decision) return fail("this daemon cannot ask for decisions");

  // The outcome may come from anywhere, even before open_decision returns: it is posted
  // onto this connection's executor and handled there, once.
  DecisionCallback decided = [weak = weak_from_this(),
                              executor = state_->executor](DecisionOutcome outcome) {
    asio::post(executor, [weak, outcome = std::move(outcome)]() mutable {
      if (auto self = weak.lock()) self->on_decided(std::move(outcome));
    });
  };
  core::Result<DecisionTicket> ticket = core::Error("no decision");
  try {
    ticket = state_->hooks.open_decision(request_, std::move(decided));
  } catch (const std::exception& e) {
    return fail(std::string("cannot open a decision: ") + e.what());
  }
  if (!ticket) return fail(ticket.error().message);
  decision_ = ticket.value().id;
  phase_ = Phase::pending;
  send(core::ChannelPending{decision_, ticket.value().expires_in_s}, false);
  watch_for_leaving();
}

// While the decision is open, the client only waits: readable means it left (or wrote
// something it should not have, which is read and dropped).
void SessionChannelConnection::watch_for_leaving() {
  socket_.async_wait(
      asio::socket_base::wait_read, [self = shared_from_this()](boost::system::error_code ec) {
        if (self->phase_ != Phase::pending) return;
        if (!ec) {
          std::array<char, 512> drop{};
          ssize_t n = recv(self->socket_.native_handle(), drop.data(), drop.size(), MSG_DONTWAIT);
          if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EINTR)))
            return self->watch_for_leaving();
        }
        spdlog::info("session {}: guard `{}` withdrawn: its program stopped waiting",
                     self->state_->session, self->request_.what);
        std::uint64_t id = self->decision_;
        self->end();
        if (self->state_->hooks.withdraw_decision) {
          try {
            self->state_->hooks.withdraw_decision(id);
          } catch (const std::exception& e) {
            spdlog::warn("withdrawing decision {} failed: {}", id, e.what());
          }
        }
      });
}

void SessionChannelConnection::on_decided(DecisionOutcome outcome) {
  if (phase_ != Phase::pending) return;  // withdrawn, or already decided
  switch (outcome.verdict) {
    case DecisionVerdict::approved:
      phase_ = Phase::running;
      send(core::ChannelApproved{outcome.by}, false);
      return run_approved();
    case DecisionVerdict::denied:
      return send(core::ChannelDenied{outcome.by, outcome.note}, true);
    case DecisionVerdict::expired:
      return send(core::ChannelExpired{}, true);
  }
}

void SessionChannelConnection::run_approved() {
  pty::GuardedCommand command;
  command.program = program_path_;
  command.argv = request_.argv;
  command.cwd = request_.cwd;
  try {
    if (state_->hooks.environment) command.env = state_->hooks.environment();
    command.env = core::guarded_environment(std::move(command.env));
  } catch (const std::exception& e) {
    close_fds();
    return fail(std::string("cannot prepare the command: ") + e.what());
  }
  command.stdio = {fds_[0], fds_[1], fds_[2]};
  auto run = pty::spawn_guarded(command);
  close_fds();  // the command has its own copies now; the daemon keeps none
  if (!run) return fail("cannot run the approved command: " + run.error().message);
  spdlog::info("session {}: approved guard `{}` started (decision {})", state_->session,
               request_.what, decision_);
  boost::system::error_code ec;
  status_.assign(run.value().status_fd, ec);
  if (ec) {
    ::close(run.value().status_fd);
    return finish_run(std::nullopt);
  }
  read_status();
}

void SessionChannelConnection::read_status() {
  status_.async_read_some(asio::buffer(status_chunk_),
                          [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                            self->status_bytes_.append(self->status_chunk_.data(), n);
                            if (!ec && self->status_bytes_.size() <= self->status_chunk_.size())
                              return self->read_status();
                            if (ec == asio::error::operation_aborted) return;  // closing down
                            self->finish_run(pty::decode_guarded_status(self->status_bytes_));
                          });
}

void SessionChannelConnection::finish_run(std::optional<core::ExitStatus> status) {
  boost::system::error_code ignored;
  status_.close(ignored);
  if (!status) return fail("the approved command's runner was killed; its end is unknown");
  if (state_->hooks.ran) {
    try {
      state_->hooks.ran(request_, decision_, *status);
    } catch (const std::exception& e) {
      spdlog::warn("recording guard {} failed: {}", decision_, e.what());
    }
  }
  send(core::ChannelExited{status->code, status->signal}, true);
}

void SessionChannelConnection::send(const core::ChannelReply& reply, bool last) {
  if (phase_ == Phase::done) return;
  outbox_.push_back(core::serialize_channel_reply(reply));
  if (last) {
    close_after_write_ = true;
    if (phase_ != Phase::running || !status_.is_open()) phase_ = Phase::done;
  }
  if (!writing_) write_next();
}

void SessionChannelConnection::write_next() {
  if (outbox_.empty()) {
    writing_ = false;
    if (close_after_write_) end();
    return;
  }
  writing_ = true;
  asio::async_write(socket_, asio::buffer(outbox_.front()),
                    [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                      self->outbox_.pop_front();
                      // A client gone mid-write: the rest has no reader. A running
                      // command still finishes and is reported to the hooks.
                      if (ec) self->outbox_.clear();
                      self->write_next();
                    });
}

void SessionChannelConnection::fail(const std::string& message) {
  spdlog::info("session {}: channel request refused: {}", state_->session, message);
  close_fds();
  if (phase_ == Phase::running) phase_ = Phase::reading;  // so send() ends the connection
  send(core::ChannelFailure{message}, true);
}

void SessionChannelConnection::close_fds() {
  for (int fd : fds_) ::close(fd);
  fds_.clear();
}

void SessionChannelConnection::close() {
  if (phase_ == Phase::pending && state_->hooks.withdraw_decision) {
    try {
      state_->hooks.withdraw_decision(decision_);
    } catch (const std::exception&) {
    }
  }
  if (phase_ == Phase::running) return;  // reports to its client when the command ends
  end();
}

void SessionChannelConnection::end() {
  phase_ = Phase::done;
  close_fds();
  timer_.cancel();
  boost::system::error_code ignored;
  socket_.shutdown(asio::socket_base::shutdown_both, ignored);
  socket_.close(ignored);
  if (state_->owner != nullptr) state_->owner->forget(this);  // may destroy this
}

}  // namespace wharf::app
