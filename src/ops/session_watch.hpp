// Waiting on a session from an operation's coroutine. A SessionWatch is attached to the
// session as an observer (like a window, but it never queues output): each chunk of
// output goes to `on_chunk`, and output or the session's end wakes the coroutine
// sleeping in wait_until(). Output reaches observers before the screen model is fed,
// and a woken coroutine resumes on a later turn of the event loop, so by then the screen
// shows the chunk that woke it.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

#include "app/session.hpp"

namespace wharf::ops {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

class SessionWatch : public app::SessionObserver {
 public:
  // Attaches itself to `session`; detaches when destroyed.
  static std::shared_ptr<SessionWatch> attach(const std::shared_ptr<app::Session>& session);
  explicit SessionWatch(std::shared_ptr<app::Session> session);
  ~SessionWatch() override;

  std::function<void(const app::OutputChunk&)> on_chunk;

  // True when woken (output, or the session ended) before `deadline`.
  asio::awaitable<bool> wait_until(Clock::time_point deadline);
  bool ended() const { return ended_; }

  void on_output(const app::OutputChunk& chunk) override;
  void on_resize(core::TerminalSize) override {}
  void on_exit(core::SessionId, const core::ExitStatus&, std::optional<core::SessionId>) override;

 private:
  void wake();

  std::shared_ptr<app::Session> session_;
  asio::steady_timer timer_;
  bool woken_ = false;
  bool ended_ = false;
};

}  // namespace wharf::ops
