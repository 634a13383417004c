// Whether an agent has a conversation to resume in a directory. Resuming must never cost
// a session its life: `claude --continue` exits with an error when the directory has no
// conversation, so wharf only asks an agent to resume after finding one of its
// conversations for that exact directory in the agent's own store under the user's home
// (docs/agents.md describes each store). A probe only reads: a bounded number of
// directory entries, the first line (at most 64 KiB) of at most a few hundred files, or
// one read-only SQLite query. Anything it cannot read or does not recognise means "no
// conversation", so the worst a wrong answer does is start a fresh one.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace wharf::app {

// `probe` is "claude", "codex" or "opencode"; anything else has nothing to resume.
// `directory` is where the session will start; it is resolved (symlinks, `..`) the way the
// agent's own getcwd() will see it. Never throws.
bool has_previous_conversation(std::string_view probe, const std::filesystem::path& home,
                               const std::filesystem::path& directory);

// Claude Code's folder name for a directory's transcripts (~/.claude/projects/<name>):
// every UTF-16 code unit of the path that is not an ASCII letter or digit becomes '-';
// a name longer than 200 characters is cut to 200 and followed by '-' and a base-36
// hash of the path. Exposed for tests, which check it against names the real binary made.
std::string claude_project_dir_name(std::string_view directory);

}  // namespace wharf::app
