#include "core/decision_book.hpp"

#include <algorithm>
#include <utility>

namespace wharf::core {

std::string_view decision_state_name(DecisionState state) {
  switch (state) {
    case DecisionState::kPending:
      return "pending";
    case DecisionState::kApproved:
      return "approved";
    case DecisionState::kDenied:
      return "denied";
    case DecisionState::kExpired:
      return "expired";
    case DecisionState::kWithdrawn:
      return "withdrawn";
  }
  return "pending";
}

DecisionBook::DecisionBook(std::chrono::seconds expiry)
    : expiry_(std::clamp(expiry, kMinDecisionExpiry, kMaxDecisionExpiry)) {}

Result<Decision> DecisionBook::open(DecisionRequest request, std::int64_t now_ms) {
  if (pending_.size() >= kMaxPendingDecisions)
    return Error{"too many decisions are waiting (" + std::to_string(kMaxPendingDecisions) +
                     "); answer some first",
                 "too_many_decisions"};
  Decision decision{.id = next_id_++,
                    .request = std::move(request),
                    .opened_at_ms = now_ms,
                    .expires_at_ms = now_ms + std::chrono::milliseconds(expiry_).count()};
  pending_.emplace(decision.id, decision);
  return decision;
}

DecisionOutcome DecisionBook::close(std::map<std::uint64_t, Decision>::iterator it,
                                    DecisionState state, std::string by, std::string note,
                                    std::int64_t now_ms) {
  DecisionOutcome outcome{.id = it->first,
                          .session = it->second.request.session,
                          .state = state,
                          .by = std::move(by),
                          .note = std::move(note),
                          .at_ms = now_ms};
  pending_.erase(it);
  closed_[outcome.id] = state;
  // Ids only grow, so the smallest remembered id is the oldest.
  while (closed_.size() > kRememberedClosedDecisions) closed_.erase(closed_.begin());
  return outcome;
}

Result<DecisionOutcome> DecisionBook::answer(std::uint64_t id, bool approve, std::string by,
                                             std::string note, std::int64_t now_ms) {
  if (note.size() > kMaxDecisionNoteBytes)
    return Error{"the note is " + std::to_string(note.size()) + " bytes; at most " +
                     std::to_string(kMaxDecisionNoteBytes) + " are kept",
                 "bad_argument"};
  auto it = pending_.find(id);
  if (it == pending_.end()) {
    auto closed = closed_.find(id);
    if (closed != closed_.end())
      return Error{"decision " + std::to_string(id) + " was already answered (" +
                       std::string(decision_state_name(closed->second)) + ")",
                   "already_answered"};
    return Error{"no decision " + std::to_string(id) + " is waiting", "no_decision"};
  }
  if (now_ms >= it->second.expires_at_ms) {
    close(it, DecisionState::kExpired, "", "", now_ms);
    return Error{"decision " + std::to_string(id) + " expired before the answer came",
                 "already_answered"};
  }
  return close(it, approve ? DecisionState::kApproved : DecisionState::kDenied, std::move(by),
               std::move(note), now_ms);
}

std::optional<DecisionOutcome> DecisionBook::withdraw(std::uint64_t id, std::int64_t now_ms) {
  auto it = pending_.find(id);
  if (it == pending_.end()) return std::nullopt;
  return close(it, DecisionState::kWithdrawn, "", "", now_ms);
}

std::vector<DecisionOutcome> DecisionBook::expire(std::int64_t now_ms) {
  std::vector<DecisionOutcome> expired;
  for (auto it = pending_.begin(); it != pending_.end();) {
    auto next = std::next(it);
    if (it->second.expires_at_ms <= now_ms)
      expired.push_back(close(it, DecisionState::kExpired, "", "", now_ms));
    it = next;
  }
  return expired;
}

std::vector<Decision> DecisionBook::list(std::optional<SessionId> session) const {
  std::vector<Decision> out;
  for (const auto& entry : pending_) {
    if (session && entry.second.request.session != *session) continue;
    out.push_back(entry.second);
  }
  return out;
}

const Decision* DecisionBook::find(std::uint64_t id) const {
  auto it = pending_.find(id);
  return it == pending_.end() ? nullptr : &it->second;
}

std::optional<std::int64_t> DecisionBook::next_deadline() const {
  std::optional<std::int64_t> earliest;
  for (const auto& entry : pending_)
    if (!earliest || entry.second.expires_at_ms < *earliest) earliest = entry.second.expires_at_ms;
  return earliest;
}

}  // namespace wharf::core
