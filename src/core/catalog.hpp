// The catalog: everything a session may run (docs/config.md). A request
// names an entry (a kind and a name); it can never name a program or arguments. Entries
// come only from wharf's built-ins and the operator's config, never from the workspace:
//
// - shells found on the machine, started as login shells;
// - the agents wharf knows (claude, codex, opencode, gemini, cline), offered when their
//   program is on PATH, each knowing how it takes a first message, how it resumes its
//   most recent conversation, and how it takes a context note (Claude Code as a file,
//   Codex as a setting);
// - agents and actions the operator defined as argv arrays (or one reviewed shell string);
//   an action runs as a session only when marked interactive.
//
// Pure: finding programs is a function handed in, so tests build any machine they like.
// plan_launch() turns an entry plus the request's options into the exact argv.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.hpp"
#include "core/result.hpp"

namespace wharf::core {

enum class EntryKind { kShell, kAgent, kAction };

std::string_view kind_name(EntryKind kind);
std::optional<EntryKind> parse_kind(std::string_view text);

struct CatalogEntry {
  EntryKind kind = EntryKind::kShell;
  std::string name;
  std::string program;            // absolute path; empty: not installed here
  std::string argv0;              // the name the program sees ("-bash" for a login shell)
  std::vector<std::string> args;  // fixed arguments after argv0
  PromptStyle prompt = PromptStyle::kNone;
  std::string prompt_flag;               // for PromptStyle::kFlag
  std::vector<std::string> resume_args;  // added to resume the most recent conversation
  std::string resume_probe;              // how to tell there is one: "claude", "codex", ...
                                         // empty with resume_args: the operator's word
  std::string context_flag;              // takes the path of a context note
  bool resume_drops_prompt = false;      // resuming would swallow a first message, so a
                                         // session started with one starts fresh
  std::string context_setting;           // a config setting (`-c NAME=TEXT`) that takes
                                         // the note's text, for agents with no file flag
  std::string settings_flag;             // takes wharf's extra settings file (Claude's
                                         // --settings: its status line)
  // How the agent tells wharf it waits or finished, beyond what its settings file says
  // (docs/agents.md): "codex" (`-c notify=[...]`, its turn-complete program), "opencode"
  // (a plugin, given in OPENCODE_CONFIG_CONTENT); empty: nothing more.
  std::string notify_hook;
  bool interactive = true;  // actions: may run as a session
  bool enabled = true;      // turned off in the config
  bool keep_screen = true;  // its last screen is kept when a session ends
  bool builtin = true;
  // What the operator declared about its sandbox ([agents.NAME] etc.); resolved into the
  // session's capabilities by sandbox/resolve.hpp.
  SandboxDeclaration sandbox;

  bool installed() const { return !program.empty(); }
};

// Finds a program by name on the sessions' PATH (or checks an absolute path); nullopt
// when there is none.
using ProgramFinder = std::function<std::optional<std::string>(std::string_view name)>;

inline constexpr std::string_view kShellNames[] = {"bash", "zsh", "fish", "sh", "dash", "ksh"};
inline constexpr std::string_view kAgentNames[] = {"claude", "codex", "opencode", "gemini",
                                                   "cline"};

class Catalog {
 public:
  // `find_shell` finds login shells (by name, as /etc/shells lists them); `find_program`
  // finds everything else.
  static Result<Catalog> build(const Config& config, const ProgramFinder& find_program,
                               const ProgramFinder& find_shell);

  const std::vector<CatalogEntry>& entries() const { return entries_; }

  // What a request asks for: `kind` may be empty (then agents, shells and actions are
  // searched in that order); a reference "kind:name" is also taken as `name`. Refusals
  // say exactly why, with code "unknown_entry", "not_installed" or "bad_entry" (turned
  // off, not interactive, a bad kind).
  Result<const CatalogEntry*> choose(std::string_view kind, std::string_view name) const;

 private:
  std::vector<CatalogEntry> entries_;
};

struct LaunchOptions {
  std::string prompt;           // empty: none
  bool resume = false;          // the caller decided this session resumes
  std::string context_file;     // empty: no note
  std::string context_text;     // the note's text, for agents that take it as a setting
  std::string settings_file;    // wharf's extra settings, for agents with a settings_flag
  std::string wharf_binary;     // this wharf, for the agents' notify hooks; empty: no hooks
  std::string opencode_plugin;  // wharf's opencode plugin file; empty: none
};

struct LaunchPlan {
  std::string program;
  std::vector<std::string> argv;
  // Variables the launch itself needs (opencode's plugin); a name any of the session's
  // own layers sets is left to them.
  EnvList env;
  bool resumed = false;
  bool context = false;
};

inline constexpr std::size_t kMaxPromptBytes = 64 * 1024;

// The exact argv for an installed entry. Refused (code "bad_field"): a prompt for an entry
// that takes none, a prompt with NUL or longer than kMaxPromptBytes.
Result<LaunchPlan> plan_launch(const CatalogEntry& entry, const LaunchOptions& options);

}  // namespace wharf::core
