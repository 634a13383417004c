// Guard rules: which `git` and `gh` commands publish work (push, merge, PR and issue
// creation, comments, releases, forge API writes) and so must wait for the person's
// approval when a sandboxed session runs them (docs/sandbox.md, "Guards").
//
// Pure and used on both sides of the session channel: the shim inside the sandbox asks it
// whether to stop, and the daemon asks it again on what the shim sent, so the daemon never
// trusts the sandbox's view of what is guarded and always runs the argv built here. For a
// guarded gh command that publishes a text body (PR, issue, comment, review, release
// notes), the argv to run has a disclosure marker appended to that body, so readers of
// the forge know an agent wrote it. Reading options follows git's and gh's own parsers
// closely enough that respelling an option (`--body=x`, `-bx`, `-C dir`) changes nothing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wharf::core {

// Appended to every body a guarded gh command publishes.
inline constexpr std::string_view kDisclosureMarker =
    "\n\n---\nWritten by an AI agent in a wharf session.";

struct GuardVerdict {
  bool guarded = false;
  // Why the command is guarded, in words for the person ("publishes commits to a remote").
  std::string reason;
  // The command as the decision (or a refusal) shows it: argv joined by spaces, shell-quoted
  // where needed, at most about 400 bytes.
  std::string what;
  // The argv to run if approved: argv[0] is the bare program name; for a gh command that
  // publishes a body, that body carries kDisclosureMarker. Equal to the input otherwise.
  std::vector<std::string> argv;
  // The body comes from a file (--body-file / -F / --notes-file): it is published as is,
  // without the marker, and the decision says so.
  bool body_from_file = false;
};

// `program` is "git" or "gh" (anything else is never guarded); `argv` is the full argument
// vector, argv[0] included (its value is ignored: `program` names the program).
GuardVerdict check_guard(std::string_view program, const std::vector<std::string>& argv);

// The environment an approved command runs with: `env` (NAME=value entries) plus git
// configuration, passed the way git reads it from the environment (GIT_CONFIG_COUNT,
// GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n, after any the environment already holds), that
// turns off what the sandboxed program could have planted in the repository to run
// outside the sandbox: hooks (core.hooksPath), the fsmonitor command and ext:: remotes.
// It reaches the gits that gh starts too.
std::vector<std::string> guarded_environment(std::vector<std::string> env);

// The program name a shim was started as: the last path component of argv[0].
std::string_view program_basename(std::string_view argv0);

}  // namespace wharf::core
