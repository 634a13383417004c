// What the decision operations (list_decisions, answer_decision) share with the other
// doors that reach pending decisions or type into sessions: the page's `decide` message
// answers through answer_decision_as() so every door checks the same things and names its
// answerer the same way (core/caller_labels.hpp), and every operation that types into a
// session attributes its input through note_input().
//
// Who may answer: the person, through the key (the page, REST, MCP over HTTP), a paired
// device, or their own CLI (and `wharf mcp` under it). Never a program inside a session:
// an agent that could approve its own guarded `git push` would make the guard pointless.
#pragma once

#include <boost/json/object.hpp>
#include <string>

#include "app/session_service.hpp"
#include "core/caller_labels.hpp"
#include "core/decision_book.hpp"
#include "core/ownership.hpp"

namespace wharf::ops {

// The name of paired device `device` ("" for 0 or one not (any longer) paired).
std::string device_name(app::SessionService& sessions, std::int64_t device);

// Answers decision `id` for `caller`; refuses a program inside a session
// ("not_permitted"), otherwise the desk's errors ("no_decision", "already_answered",
// "bad_argument").
core::Result<core::DecisionOutcome> answer_decision_as(app::SessionService& sessions,
                                                       const core::Caller& caller, std::uint64_t id,
                                                       bool approve, std::string note);

// The answer's JSON, as answer_decision returns it.
boost::json::object outcome_json(const core::DecisionOutcome& outcome);

// Records (at most once a minute per client) that `caller` typed into `session`.
void note_input(app::SessionService& sessions, const core::Caller& caller, core::SessionId session);

}  // namespace wharf::ops
