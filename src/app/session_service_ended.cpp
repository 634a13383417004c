// Ended sessions kept as tabs (EndedSession in session_service.hpp). A program that
// fails at start (not logged in, offline) prints why and exits at once; without this its
// tab went with it and the reason was lost. The record is made in on_session_finished,
// before the session leaves the registry (its name, program and place are read there)
// and before windows hear `exit` (which says `kept` from it). Every window sees the
// records in the `sessions` message; any window may close one (`dismiss`).
#include <spdlog/spdlog.h>

#include <algorithm>

#include "app/session_service.hpp"

namespace wharf::app {

void SessionService::keep_ended(const Session& session, const core::ExitStatus& status,
                                bool crashed) {
  const core::SessionEntry* entry = registry_.find(session.id());
  if (entry == nullptr) return;
  EndedSession kept{.summary = core::EndedSummary{.id = session.id(),
                                                  .name = entry->name(),
                                                  .program = entry->program,
                                                  .kind = entry->kind,
                                                  .cwd = entry->cwd,
                                                  .created_ms = entry->created_ms,
                                                  .ended_ms = now_ms(),
                                                  .status = status,
                                                  .crashed = crashed},
                    // A screen the entry asked not to keep is not shown again either.
                    .screen = session.meta().keep_screen ? final_screen_text(session) : ""};
  while (ended_.size() >= kMaxEnded) {
    ended_timers_.erase(ended_.front().summary.id);
    ended_.erase(ended_.begin());
  }
  core::SessionId id = kept.summary.id;
  ended_.push_back(std::move(kept));
  if (options_.ended_auto_close.count() > 0) {
    auto timer = std::make_shared<asio::steady_timer>(io_, options_.ended_auto_close);
    ended_timers_[id] = timer;
    timer->async_wait([this, id, weak = std::weak_ptr<asio::steady_timer>(timer)](
                          const boost::system::error_code& ec) {
      if (ec || weak.expired()) return;  // cancelled, or the tab was closed already
      if (auto closed = dismiss(id); closed)
        spdlog::info("session {}: its ended tab closed by itself", id);
    });
  }
}

const EndedSession* SessionService::ended(core::SessionId session) const {
  auto it = std::find_if(ended_.begin(), ended_.end(),
                         [&](const EndedSession& e) { return e.summary.id == session; });
  return it == ended_.end() ? nullptr : &*it;
}

core::Status SessionService::dismiss(core::SessionId session) {
  auto it = std::find_if(ended_.begin(), ended_.end(),
                         [&](const EndedSession& e) { return e.summary.id == session; });
  if (it == ended_.end())
    return core::Error{"no ended session " + std::to_string(session) + " is shown", "no_session"};
  ended_.erase(it);
  // Erasing the timer expires the weak pointer its handler holds: a late wake-up is a no-op.
  if (auto timer = ended_timers_.find(session); timer != ended_timers_.end()) {
    timer->second->cancel();
    ended_timers_.erase(timer);
  }
  announce_list();
  return core::ok_status();
}

}  // namespace wharf::app
