#include "app/session_service.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <csignal>
#include <filesystem>

#include "pty/child_reaper.hpp"

namespace wharf::app {

SessionService::SessionService(asio::io_context& io, LaunchDefaults defaults, EndingTimings timings)
    : io_(io),
      defaults_(std::move(defaults)),
      timings_(timings),
      child_signals_(io, SIGCHLD),
      shutdown_timer_(io) {
  if (!pty::become_subreaper())
    spdlog::warn("cannot become a child subreaper; orphaned session processes go to init");
  watch_children();
}

void SessionService::watch_children() {
  child_signals_.async_wait([this](boost::system::error_code ec, int) {
    if (ec) return;
    pty::reap_exited_children([this](pid_t pid, core::ExitStatus status) {
      for (auto& [id, session] : sessions_) {
        if (session->pid() == pid) {
          session->on_leader_exit(status);
          return;
        }
      }
    });
    watch_children();
  });
}

core::Result<std::shared_ptr<Session>> SessionService::current_or_start(core::TerminalSize size) {
  for (auto it = sessions_.rbegin(); it != sessions_.rend(); ++it)
    if (!it->second->ending()) return it->second;

  const core::Account& account = defaults_.account;
  std::string login_name = "-" + std::filesystem::path(account.shell).filename().string();
  pty::SpawnSpec spec{
      .program = account.shell,
      .argv = {login_name},
      .env = defaults_.base_env,
      .cwd = defaults_.workspace,
      .size = core::clamp_size(size.cols, size.rows),
  };
  auto process = pty::PtyProcess::spawn(spec);
  if (!process) return process.error();

  core::SessionId id = next_id_++;
  auto session =
      std::make_shared<Session>(io_, id, std::move(process.value()), spec.size, timings_);
  sessions_.emplace(id, session);
  session->start([this](core::SessionId finished) { on_session_finished(finished); });
  spdlog::info("session {} started: {} (pid {}) in {}", id, account.shell, session->pid(),
               defaults_.workspace);
  return session;
}

std::size_t SessionService::attached_count() const {
  std::size_t n = 0;
  for (const auto& [id, session] : sessions_) n += session->observer_count();
  return n;
}

void SessionService::on_session_finished(core::SessionId id) {
  sessions_.erase(id);
  spdlog::info("session {} finished", id);
  notify_if_all_finished();
}

void SessionService::end_all(std::chrono::milliseconds limit, std::function<void()> done) {
  on_all_finished_ = std::move(done);
  // Ending may finish sessions synchronously and erase them: iterate over a copy.
  auto live = sessions_;
  for (auto& [id, session] : live) session->end();
  shutdown_timer_.expires_after(limit);
  shutdown_timer_.async_wait([this](boost::system::error_code ec) {
    if (ec || !on_all_finished_) return;
    spdlog::warn("{} session(s) did not finish in time", sessions_.size());
    std::exchange(on_all_finished_, nullptr)();
  });
  notify_if_all_finished();
}

void SessionService::notify_if_all_finished() {
  if (!sessions_.empty() || !on_all_finished_) return;
  shutdown_timer_.cancel();
  // Posted so that a caller in the middle of a session callback unwinds first.
  asio::post(io_, std::exchange(on_all_finished_, nullptr));
}

}  // namespace wharf::app
