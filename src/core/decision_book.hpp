// The pending decisions: things a sandboxed session wants to do that need a person's yes
// or no first (a guarded `git push`, later an agent's own permission prompt). Pure: the
// caller gives every time, so tests drive it with a manual clock.
//
// Invariants:
// - Ids increase and are never reused within a book's life (a daemon's), so an answer
//   naming an old id can never reach a newer decision.
// - A decision is answered at most once: approved, denied, expired or withdrawn, and then
//   it leaves the book. Every later answer naming it is refused ("already answered" only
//   while the book still remembers it as closed; "unknown" otherwise).
// - A decision always expires: its deadline is fixed when it opens (opened_at + the
//   book's expiry), so nothing waits on a person forever.
// - The book holds at most kMaxPendingDecisions; opening another is refused, so a
//   looping program cannot grow the daemon's memory.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace wharf::core {

using SessionId = std::uint64_t;

inline constexpr std::chrono::seconds kDefaultDecisionExpiry{600};
inline constexpr std::chrono::seconds kMinDecisionExpiry{10};
inline constexpr std::chrono::seconds kMaxDecisionExpiry{86400};
inline constexpr std::size_t kMaxDecisionNoteBytes = 1000;
inline constexpr std::size_t kMaxPendingDecisions = 256;
// How many closed ids the book remembers, to say "already answered" rather than
// "unknown" to a second person answering a moment late.
inline constexpr std::size_t kRememberedClosedDecisions = 256;

enum class DecisionState { kPending, kApproved, kDenied, kExpired, kWithdrawn };
std::string_view decision_state_name(DecisionState state);

// What asks: a guard (a shim caught a command) or an agent's own prompt on screen.
struct DecisionRequest {
  SessionId session = 0;
  std::string what;               // short, for a person: "git push"
  std::vector<std::string> argv;  // the exact command
  std::string cwd;                // where it would run
  std::string source = "guard";   // "guard" or "prompt"
};

struct Decision {
  std::uint64_t id = 0;
  DecisionRequest request;
  std::int64_t opened_at_ms = 0;
  std::int64_t expires_at_ms = 0;
};

struct DecisionOutcome {
  std::uint64_t id = 0;
  SessionId session = 0;
  DecisionState state = DecisionState::kPending;
  std::string by;    // who answered: "cli", "key", "device:NAME", "mcp:NAME", "rest"; "" for
                     // an expiry or a withdrawal
  std::string note;  // the person's words, at most kMaxDecisionNoteBytes
  std::int64_t at_ms = 0;
};

class DecisionBook {
 public:
  explicit DecisionBook(std::chrono::seconds expiry = kDefaultDecisionExpiry);

  std::chrono::seconds expiry() const { return expiry_; }

  // Refused (code "too_many_decisions") when kMaxPendingDecisions are open.
  Result<Decision> open(DecisionRequest request, std::int64_t now_ms);
  // Code "no_decision" for an id never opened (or long forgotten), "already_answered"
  // for one that closed, "bad_argument" for a note over kMaxDecisionNoteBytes. A
  // decision past its deadline that expire() has not yet collected is refused as
  // expired (and closed as such): a late yes must not run the command.
  Result<DecisionOutcome> answer(std::uint64_t id, bool approve, std::string by, std::string note,
                                 std::int64_t now_ms);
  // Closes the decision with no answer (its session ended, its requester went away).
  std::optional<DecisionOutcome> withdraw(std::uint64_t id, std::int64_t now_ms);
  // Closes every decision whose deadline is at or before now; in id order.
  std::vector<DecisionOutcome> expire(std::int64_t now_ms);

  // Pending decisions in id order, those of `session` only when given.
  std::vector<Decision> list(std::optional<SessionId> session = std::nullopt) const;
  const Decision* find(std::uint64_t id) const;
  // The earliest deadline of a pending decision; none when nothing is pending.
  std::optional<std::int64_t> next_deadline() const;
  std::size_t size() const { return pending_.size(); }

 private:
  DecisionOutcome close(std::map<std::uint64_t, Decision>::iterator it, DecisionState state,
                        std::string by, std::string note, std::int64_t now_ms);

  std::chrono::seconds expiry_;
  std::uint64_t next_id_ = 1;
  std::map<std::uint64_t, Decision> pending_;
  std::map<std::uint64_t, DecisionState> closed_;  // the newest kRememberedClosedDecisions
};

}  // namespace wharf::core
