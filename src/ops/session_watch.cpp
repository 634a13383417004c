#include "ops/session_watch.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace wharf::ops {

std::shared_ptr<SessionWatch> SessionWatch::attach(const std::shared_ptr<app::Session>& session) {
  auto watch = std::make_shared<SessionWatch>(session);
  session->attach(watch);
  return watch;
}

SessionWatch::SessionWatch(std::shared_ptr<app::Session> session)
    : session_(std::move(session)), timer_(session_->executor()) {}

SessionWatch::~SessionWatch() {
  session_->detach(this);
}

void SessionWatch::on_output(const app::OutputChunk& chunk) {
  if (on_chunk) on_chunk(chunk);
  wake();
}

void SessionWatch::on_exit(core::SessionId, const core::ExitStatus&,
                           std::optional<core::SessionId>) {
  ended_ = true;
  wake();
}

void SessionWatch::wake() {
  woken_ = true;
  timer_.cancel();
}

asio::awaitable<bool> SessionWatch::wait_until(Clock::time_point deadline) {
  if (!woken_ && !ended_ && Clock::now() < deadline) {
    timer_.expires_at(deadline);
    co_await timer_.async_wait(asio::as_tuple(asio::use_awaitable));
  }
  bool woke = woken_ || ended_;
  woken_ = false;
  co_return woke;
}

}  // namespace wharf::ops
