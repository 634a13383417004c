#include "app/decision_desk.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/json.hpp>

#include "app/session_service.hpp"
#include "core/shell_quote.hpp"
#include "store/metadata_store.hpp"

namespace wharf::app {
namespace json = boost::json;
namespace {

// A notification passes third-party servers and a phone's lock screen: the command line
// is cut short there (the card and `wharf decisions` show all of it).
constexpr std::size_t kNotifiedCommandBytes = 160;

// The longest the timer sleeps while anything waits (see the header).
constexpr std::chrono::milliseconds kMaxTimerSleep{1000};

std::string approve_text(const core::DecisionRequest& request) {
  std::string line = request.argv.empty() ? request.what : core::shell_command_line(request.argv);
  if (line.size() > kNotifiedCommandBytes) {
    line.resize(kNotifiedCommandBytes);
    // Never end inside a UTF-8 sequence.
    while (!line.empty() && (static_cast<unsigned char>(line.back()) & 0xC0) == 0x80)
      line.pop_back();
    if (!line.empty() && static_cast<unsigned char>(line.back()) >= 0xC0) line.pop_back();
    line += "…";
  }
  return "Approve? " + line;
}

}  // namespace

DecisionDesk::DecisionDesk(asio::io_context& io, std::chrono::seconds expiry,
                           store::MetadataStore* store, std::int64_t run_id, Describe describe,
                           std::function<void()> on_changed, Clock clock)
    : book_(expiry),
      store_(store),
      run_id_(run_id),
      describe_(std::move(describe)),
      on_changed_(std::move(on_changed)),
      clock_(std::move(clock)),
      timer_(io) {}

DecisionDesk::~DecisionDesk() {
  *alive_ = false;
  timer_.cancel();
}

std::int64_t DecisionDesk::now() const {
  return clock_ ? clock_() : now_ms();
}

std::uint64_t DecisionDesk::open(core::DecisionRequest request,
                                 std::function<void(const core::DecisionOutcome&)> on_outcome) {
  std::int64_t at = now();
  auto opened = book_.open(std::move(request), at);
  if (!opened) {
    spdlog::warn("decision refused: {}", opened.error().message);
    return 0;
  }
  const core::Decision& decision = opened.value();
  waiting_[decision.id] = std::move(on_outcome);
  std::optional<DecisionSessionView> view =
      describe_ ? describe_(decision.request.session) : std::nullopt;
  if (store_ != nullptr) {
    auto recorded = store_->decision_opened(
        run_id_, store::DecisionRecord{.session_id = decision.request.session,
                                       .decision_id = decision.id,
                                       .session_run_id = view ? view->run_id : 0,
                                       .opened_at_ms = decision.opened_at_ms,
                                       .what = decision.request.what,
                                       .argv = decision.request.argv,
                                       .cwd = decision.request.cwd,
                                       .source = decision.request.source});
    if (!recorded) spdlog::warn("store: {}", recorded.error().message);
  }
  // The log names the decision and its session, not the command (it may carry a URL).
  spdlog::info("decision {} opened for session {} ({})", decision.id, decision.request.session,
               decision.request.what);
  if (notifier_ != nullptr && view) {
    notifier_->on_event(NotifyEvent{.session = decision.request.session,
                                    .kind = core::NotifyKind::kWaiting,
                                    .source = NotifySource::kSaid,
                                    .session_name = view->name,
                                    .program = view->program,
                                    .looked_at = view->looked_at,
                                    .screen_lines = {},
                                    .said = approve_text(decision.request)});
  }
  arm_timer();
  if (on_changed_) on_changed_();
  return decision.id;
}

void DecisionDesk::finish(const core::DecisionOutcome& outcome) {
  if (store_ != nullptr) {
    auto recorded =
        store_->decision_answered(run_id_, outcome.id, core::decision_state_name(outcome.state),
                                  outcome.by, outcome.at_ms, outcome.note);
    if (!recorded) spdlog::warn("store: {}", recorded.error().message);
  }
  spdlog::info("decision {} of session {}: {}{}", outcome.id, outcome.session,
               core::decision_state_name(outcome.state),
               outcome.by.empty() ? std::string() : " by " + outcome.by);
  auto it = waiting_.find(outcome.id);
  if (it == waiting_.end()) return;
  auto callback = std::move(it->second);
  waiting_.erase(it);
  if (callback) callback(outcome);
}

void DecisionDesk::withdraw(std::uint64_t id) {
  auto withdrawn = book_.withdraw(id, now());
  if (!withdrawn) return;
  finish(*withdrawn);
  arm_timer();
  if (on_changed_) on_changed_();
}

void DecisionDesk::withdraw_session(core::SessionId session) {
  bool any = false;
  for (const core::Decision& decision : book_.list(session)) {
    auto withdrawn = book_.withdraw(decision.id, now());
    if (!withdrawn) continue;
    any = true;
    finish(*withdrawn);
  }
  if (!any) return;
  arm_timer();
  if (on_changed_) on_changed_();
}

core::Result<core::DecisionOutcome> DecisionDesk::answer(std::uint64_t id, bool approve,
                                                         std::string by, std::string note) {
  const core::Decision* before = book_.find(id);
  bool was_pending = before != nullptr;
  core::SessionId session = was_pending ? before->request.session : 0;
  auto answered = book_.answer(id, approve, std::move(by), std::move(note), now());
  if (!answered) {
    // A late answer closed a decision past its deadline: it expired, and is told so.
    if (was_pending && book_.find(id) == nullptr) {
      finish(core::DecisionOutcome{.id = id,
                                   .session = session,
                                   .state = core::DecisionState::kExpired,
                                   .by = "",
                                   .note = "",
                                   .at_ms = now()});
      arm_timer();
      if (on_changed_) on_changed_();
    }
    return answered.error();
  }
  core::DecisionOutcome outcome = answered.value();
  finish(outcome);
  arm_timer();
  if (on_changed_) on_changed_();
  return outcome;
}

std::vector<core::Decision> DecisionDesk::pending(std::optional<core::SessionId> session) const {
  return book_.list(session);
}

json::object DecisionDesk::pending_json(const core::Decision& decision) const {
  json::array argv;
  for (const std::string& word : decision.request.argv) argv.emplace_back(word);
  std::optional<DecisionSessionView> view =
      describe_ ? describe_(decision.request.session) : std::nullopt;
  return json::object{{"id", decision.id},
                      {"session", decision.request.session},
                      {"session_name", view ? view->name : std::string()},
                      {"what", decision.request.what},
                      {"argv", std::move(argv)},
                      {"cwd", decision.request.cwd},
                      {"source", decision.request.source},
                      {"opened_at_ms", decision.opened_at_ms},
                      {"expires_at_ms", decision.expires_at_ms}};
}

std::string DecisionDesk::decisions_message() const {
  json::array list;
  for (const core::Decision& decision : book_.list()) list.emplace_back(pending_json(decision));
  return json::serialize(json::object{{"type", "decisions"}, {"decisions", std::move(list)}});
}

void DecisionDesk::arm_timer() {
  timer_.cancel();
  std::optional<std::int64_t> deadline = book_.next_deadline();
  if (!deadline) return;
  auto wait = std::chrono::milliseconds(std::max<std::int64_t>(0, *deadline - now()));
  timer_.expires_after(std::min(wait, kMaxTimerSleep));
  timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
    if (ec || !*alive) return;
    on_timer();
  });
}

void DecisionDesk::on_timer() {
  std::vector<core::DecisionOutcome> expired = book_.expire(now());
  for (const core::DecisionOutcome& outcome : expired) finish(outcome);
  arm_timer();
  if (!expired.empty() && on_changed_) on_changed_();
}

}  // namespace wharf::app
