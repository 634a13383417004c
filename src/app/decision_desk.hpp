// The decision desk: where pending decisions (core/decision_book.hpp) live in the daemon.
// A guard hit opens one; a person answers it from any door (the page's card, `wharf
// decisions`, REST, MCP), or it expires, or its session ends and it is withdrawn. The
// desk owns the book, wakes for deadlines, writes every opening and every answer to the
// audit store, sends one "waiting" notification per opening through the notifier (whose
// rules decide whether it leaves), and tells its listener that the pending list changed.
//
// Invariants:
// - Each opened decision's `on_outcome` runs exactly once (approved, denied, expired or
//   withdrawn), after the book and the store know the outcome, and never from inside
//   open(). The desk tolerates an on_outcome that opens or answers other decisions.
// - A store that refuses a write is logged, never fatal: a decision still works when the
//   audit cannot be written.
// - Expiry needs no caller: a steady timer wakes at the next deadline (and at least once
//   a second while anything waits, so a clock that jumped, a suspended laptop, is
//   noticed at once).
//
// Threading: the daemon's event-loop thread only, like the SessionService that owns it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/object.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/notifier.hpp"
#include "core/decision_book.hpp"
#include "core/result.hpp"

namespace wharf::store {
class MetadataStore;
}

namespace wharf::app {

namespace asio = boost::asio;

// What the desk needs to know of a session, from whoever owns the sessions.
struct DecisionSessionView {
  std::string name;     // as its tab shows it
  std::string program;  // the catalog entry's name
  bool looked_at = false;
  // The run that started it (an adopted session keeps its first run's): its rows in the
  // store are keyed by it.
  std::int64_t run_id = 0;
};

class DecisionDesk {
 public:
  using Describe = std::function<std::optional<DecisionSessionView>(core::SessionId)>;
  using Clock = std::function<std::int64_t()>;  // wall-clock milliseconds

  // `run_id`: this daemon's run, which numbers the decisions in the store. `describe`
  // says what the desk needs of a session (none: it is gone). `clock`: null for the
  // system's wall clock (app::now_ms).
  DecisionDesk(asio::io_context& io, std::chrono::seconds expiry, store::MetadataStore* store,
               std::int64_t run_id, Describe describe, std::function<void()> on_changed,
               Clock clock = nullptr);
  DecisionDesk(const DecisionDesk&) = delete;
  DecisionDesk& operator=(const DecisionDesk&) = delete;
  ~DecisionDesk();

  void set_notifier(Notifier* notifier) { notifier_ = notifier; }
  std::chrono::seconds expiry() const { return book_.expiry(); }

  // Opens a decision; its id, or 0 when the book is full (code "too_many_decisions": the
  // request is refused and on_outcome never runs).
  std::uint64_t open(core::DecisionRequest request,
                     std::function<void(const core::DecisionOutcome&)> on_outcome);
  // The requester went away (its connection closed): the decision is withdrawn.
  void withdraw(std::uint64_t id);
  // Withdraws every pending decision of a session that ended.
  void withdraw_session(core::SessionId session);
  // `by`: who answered (core/caller_labels.hpp). Errors as core::DecisionBook::answer.
  core::Result<core::DecisionOutcome> answer(std::uint64_t id, bool approve, std::string by,
                                             std::string note);
  std::vector<core::Decision> pending(std::optional<core::SessionId> session = {}) const;
  const core::Decision* find(std::uint64_t id) const { return book_.find(id); }

  // One pending decision as every door shows it (docs/protocol.md, "Decisions"):
  // {"id","session","session_name","what","argv","cwd","source","opened_at_ms",
  //  "expires_at_ms"}.
  boost::json::object pending_json(const core::Decision& decision) const;
  // The WebSocket message {"type":"decisions","decisions":[...]} of every pending one.
  std::string decisions_message() const;

 private:
  void finish(const core::DecisionOutcome& outcome);
  void arm_timer();
  void on_timer();
  std::int64_t now() const;

  core::DecisionBook book_;
  store::MetadataStore* store_;
  std::int64_t run_id_;
  Describe describe_;
  std::function<void()> on_changed_;
  Clock clock_;
  Notifier* notifier_ = nullptr;
  asio::steady_timer timer_;
  std::map<std::uint64_t, std::function<void(const core::DecisionOutcome&)>> waiting_;
  // Cleared by the destructor: a timer handler already queued must not touch the desk.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace wharf::app
