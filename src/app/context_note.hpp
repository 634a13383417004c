// The context note: a few sentences telling an agent that it runs inside wharf, reached
// through a browser (docs/agents.md). Claude Code takes it as a file, Codex as text, so
// the note is kept as both. The operator may give their own file (WHARF_CONTEXT_FILE,
// else the config's [sessions] context_file); otherwise wharf writes its own into the
// state directory, owner-only.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "core/result.hpp"

namespace wharf::app {

struct ContextNote {
  std::string path;  // absolute
  std::string text;  // at most kMaxContextNoteBytes of it: the text travels in argv
};

inline constexpr std::size_t kMaxContextNoteBytes = 16 * 1024;

// `chosen`: the operator's file, if any; `what` names where it came from, for the
// message when it is not a file. wharf's own note tells the agent about the web pane,
// naming `wharf_binary` (when known) as the command to publish with.
core::Result<ContextNote> prepare_context_note(const std::optional<std::string>& chosen,
                                               const std::string& what,
                                               const std::filesystem::path& state_dir,
                                               const std::string& wharf_binary = {});

// Claude Code's extra settings for a session wharf starts (`claude --settings FILE`,
// merged over the user's own, whose files wharf never touches): a statusLine that runs
// `<wharf_binary> status-line`, which hands Claude's numbers to the session's status
// strip (cli/commands/status_line.cpp), and the Notification and Stop hooks that run
// `wharf notify` (app/agent_hooks.hpp). Written owner-only into the state directory;
// the answer is its path.
core::Result<std::string> prepare_agent_settings(const std::filesystem::path& state_dir,
                                                 const std::string& wharf_binary);

}  // namespace wharf::app
