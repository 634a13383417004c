// Agents' permission dialogs (see agent_prompts.hpp).
#include "core/agent_prompts.hpp"

#include <algorithm>

namespace wharf::core {
namespace {

struct DialogShape {
  std::string_view agent;
  std::vector<std::string_view> questions;  // one of these starts the question line
  std::string_view refusal;                 // the dialog's own "no" option
  std::string_view approve_keys;
  std::string_view deny_keys;
};

// Claude Code 2.x: a framed dialog, the tool's name and its input above the question,
// numbered options below ("1. Yes", ..., "No, and tell Claude what to do differently
// (esc)"); a digit picks an option. Codex 0.17x: "Would you like to run the following
// command?" (or "make the following edits?"), the command after "$ ", options
// "Yes, proceed (y)" ... "No, and tell Codex what to do differently (esc)".
const DialogShape kShapes[] = {
    {"claude",
     {"Do you want to proceed?", "Do you want to make this edit", "Do you want to create",
      "Do you want to allow"},
     "No, and tell Claude what to do differently",
     "1",
     "\x1b"},
    {"codex",
     {"Would you like to run the following command?", "Would you like to make the following edits?",
      "Would you like to grant these permissions?"},
     "No, and tell Codex what to do differently",
     "y",
     "\x1b"},
};

// A line without the dialog's frame and the spaces around it.
std::string bare(std::string_view line) {
  auto frame = [](std::string_view s, std::string_view piece) {
    return s.substr(0, piece.size()) == piece;
  };
  for (;;) {
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    bool trimmed = false;
    for (std::string_view piece : {"│", "┃", "╭", "╰", "❯", ">", "›"}) {
      if (frame(line, piece)) {
        line.remove_prefix(piece.size());
        trimmed = true;
      }
      if (line.size() >= piece.size() && line.substr(line.size() - piece.size()) == piece) {
        line.remove_suffix(piece.size());
        trimmed = true;
      }
    }
    if (!trimmed) break;
  }
  return std::string(line);
}

// A frame's top or bottom edge, or a separator line.
bool rule(const std::string& line) {
  for (std::string_view edge : {"─", "━", "═", "╭", "╰", "┌", "└", "---"})
    if (line.starts_with(edge)) return true;
  return false;
}

}  // namespace

std::optional<AgentPrompt> find_agent_prompt(std::string_view agent,
                                             const std::vector<std::string>& lines) {
  const DialogShape* shape = nullptr;
  for (const DialogShape& s : kShapes)
    if (s.agent == agent) shape = &s;
  if (shape == nullptr) return std::nullopt;

  std::vector<std::string> plain;
  plain.reserve(lines.size());
  for (const std::string& line : lines) plain.push_back(bare(line));

  // The last question on screen, with the agent's refusal option below it.
  std::optional<std::size_t> question;
  for (std::size_t i = plain.size(); i-- > 0;) {
    bool asks = std::any_of(shape->questions.begin(), shape->questions.end(),
                            [&](std::string_view q) { return plain[i].starts_with(q); });
    if (!asks) continue;
    bool refusal = false;
    for (std::size_t j = i + 1; j < plain.size() && j <= i + 8; ++j)
      refusal = refusal || plain[j].find(shape->refusal) != std::string::npos;
    if (refusal) question = i;
    break;
  }
  if (!question) return std::nullopt;

  // What it asks about: the lines above the question, up to the frame or a blank run.
  std::vector<std::string> about;
  std::size_t blanks = 0;
  for (std::size_t i = *question; i-- > 0 && about.size() < 8;) {
    const std::string& line = plain[i];
    if (line.empty()) {
      if (++blanks >= 2 && !about.empty()) break;
      continue;
    }
    blanks = 0;
    if (rule(line)) break;
    about.push_back(line.starts_with("$ ") ? line.substr(2) : line);
  }
  std::reverse(about.begin(), about.end());
  // Codex draws the command below its question, after "$ ".
  for (std::size_t j = *question + 1; j < plain.size() && j <= *question + 4; ++j)
    if (plain[j].starts_with("$ ")) about.assign(1, plain[j].substr(2));
  AgentPrompt out;
  out.approve_keys = std::string(shape->approve_keys);
  out.deny_keys = std::string(shape->deny_keys);
  for (const std::string& line : about) out.what += (out.what.empty() ? "" : ": ") + line;
  if (out.what.empty()) out.what = plain[*question];
  if (out.what.size() > 400) out.what = out.what.substr(0, 397) + "...";
  out.key = out.what + "\n" + plain[*question];
  return out;
}

}  // namespace wharf::core
