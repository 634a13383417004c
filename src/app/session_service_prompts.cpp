// The agents' own permission dialogs as decisions (core/agent_prompts.hpp): once a second,
// while a built-in claude or codex session lives, its screen is read; a dialog that
// appears opens a decision with source "prompt" (the page's card, `wharf decisions`, REST,
// MCP, a notification), and the answer is typed into the session as the dialog's own keys.
// A dialog answered at the terminal (gone from the screen, or replaced by another) withdraws
// its decision, so nothing is ever typed into a screen that no longer asks.
#include <spdlog/spdlog.h>

#include "app/session_service.hpp"
#include "core/agent_prompts.hpp"

namespace wharf::app {
namespace {

constexpr auto kPromptCheck = std::chrono::seconds(1);

}  // namespace

bool SessionService::reads_prompts(const Session& session) const {
  auto chosen = defaults_.catalog.choose("agent", session.program());
  return chosen && chosen.value()->builtin &&
         (session.program() == "claude" || session.program() == "codex");
}

void SessionService::watch_prompts() {
  if (prompt_watch_running_) return;
  prompt_watch_running_ = true;
  prompt_timer_.expires_after(kPromptCheck);
  prompt_timer_.async_wait([this](boost::system::error_code ec) {
    if (ec) return;  // the service is going away
    prompt_watch_running_ = false;
    bool any = false;
    for (auto& [id, session] : sessions_) {
      if (!reads_prompts(*session) || session->ending()) continue;
      any = true;
      check_prompt(id, *session);
    }
    if (any) watch_prompts();
  });
}

void SessionService::check_prompt(core::SessionId id, Session& session) {
  auto found = core::find_agent_prompt(session.program(), session.text(0).lines);
  auto open = prompt_decisions_.find(id);
  if (open != prompt_decisions_.end()) {
    if (found && found->key == open->second.key) return;  // still asking
    std::uint64_t decision = open->second.decision;
    prompt_decisions_.erase(open);
    decisions_.withdraw(decision);  // answered at the terminal
  }
  if (!found) return;
  const core::SessionEntry* entry = registry_.find(id);
  std::uint64_t decision = decisions_.open(
      core::DecisionRequest{.session = id,
                            .what = found->what,
                            .cwd = entry != nullptr ? entry->cwd : std::string(),
                            .source = "prompt"},
      [this, id](const core::DecisionOutcome& outcome) { answer_prompt(id, outcome); });
  if (decision == 0) return;  // the desk is full; the person still sees the dialog itself
  prompt_decisions_[id] = PromptDecision{.decision = decision,
                                         .key = found->key,
                                         .approve_keys = found->approve_keys,
                                         .deny_keys = found->deny_keys};
}

void SessionService::answer_prompt(core::SessionId id, const core::DecisionOutcome& outcome) {
  auto open = prompt_decisions_.find(id);
  if (open == prompt_decisions_.end() || open->second.decision != outcome.id) return;
  PromptDecision prompt = open->second;
  prompt_decisions_.erase(open);
  bool approved = outcome.state == core::DecisionState::kApproved;
  if (!approved && outcome.state != core::DecisionState::kDenied) return;  // expired
  auto session = find(id);
  if (!session) return;
  // Typed only while the very dialog that was asked about is still on screen.
  auto still = core::find_agent_prompt(session->program(), session->text(0).lines);
  if (!still || still->key != prompt.key) return;
  if (!session->write_input(approved ? prompt.approve_keys : prompt.deny_keys))
    spdlog::warn("session {}: the answer to its dialog could not be typed", id);
}

}  // namespace wharf::app
