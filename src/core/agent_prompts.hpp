// Agents' own permission dialogs, seen on their screen: Claude Code's "Do you want to
// proceed?" and Codex's "Would you like to run the following command?". Spotted, such a
// dialog becomes a pending decision (app/decision_desk.hpp) like a guard's, so a person
// away from the desk answers it from the phone; the answer is typed into the session as
// the keys the dialog itself takes (docs/agents.md has the table).
//
// Pure: the caller hands in the visible lines. Only the catalog's built-in claude and codex
// are read (a shell printing the same words is not an agent asking), and only when the
// question and the agent's own refusal option are both on screen, so a transcript that
// merely mentions the words does not count. `key` tells one dialog from the next.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wharf::core {

struct AgentPrompt {
  std::string what;          // for the person: "Bash command: git push origin main"
  std::string approve_keys;  // what the dialog takes for "yes, this once"
  std::string deny_keys;     // and for "no"
  std::string key;           // the dialog's text, to tell whether it is still the same one
};

std::optional<AgentPrompt> find_agent_prompt(std::string_view agent,
                                             const std::vector<std::string>& lines);

}  // namespace wharf::core
