// The daemon's live sessions and the one place that learns of child exits.
//
// All state lives on the event-loop thread; nothing here locks. SIGCHLD is watched from
// construction on (before any fork) and every exit is reaped at once; exits of session
// leaders are handed to their session, orphans re-parented to the daemon are simply
// collected. In protocol 1 a window attaches to the current session or starts the
// default program when there is none.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/session.hpp"
#include "core/environment.hpp"
#include "core/result.hpp"

namespace wharf::app {

struct LaunchDefaults {
  core::Account account;
  std::vector<std::string> base_env;
  std::string workspace;  // directory new sessions start in
};

class SessionService {
 public:
  SessionService(asio::io_context& io, LaunchDefaults defaults, EndingTimings timings = {});
  SessionService(const SessionService&) = delete;
  SessionService& operator=(const SessionService&) = delete;

  core::Result<std::shared_ptr<Session>> current_or_start(core::TerminalSize size);
  std::size_t live_count() const { return sessions_.size(); }
  std::size_t attached_count() const;

  // Ends every session; `done` runs once all have finished, or when `limit` passes.
  void end_all(std::chrono::milliseconds limit, std::function<void()> done);

 private:
  void watch_children();
  void on_session_finished(core::SessionId id);
  void notify_if_all_finished();

  asio::io_context& io_;
  LaunchDefaults defaults_;
  EndingTimings timings_;
  asio::signal_set child_signals_;
  asio::steady_timer shutdown_timer_;
  std::map<core::SessionId, std::shared_ptr<Session>> sessions_;
  core::SessionId next_id_ = 1;
  std::function<void()> on_all_finished_;
};

}  // namespace wharf::app
