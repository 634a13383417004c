// Deciding what a new session runs, before anything is registered or forked: the
// catalog entry a request names (else the defaults'), its directory inside the workspace,
// the environment layers and their rules, whether an agent resumes its conversation, and
// then, once the session has an id, the exact program, argv, environment and size to
// spawn. A refusal at any step leaves nothing behind: no session, no process, no record.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/catalog.hpp"
#include "core/env_spec.hpp"
#include "core/environment.hpp"
#include "core/launch_request.hpp"
#include "core/result.hpp"
#include "core/session_registry.hpp"
#include "core/terminal_size.hpp"
#include "pty/pty_process.hpp"

namespace wharf::app {

// Tells whether an agent has a conversation to resume in a directory: (the catalog
// entry's resume_probe, the account's home, the directory).
using ConversationProbe = std::function<bool(std::string_view probe, const std::string& home,
                                             const std::string& directory)>;

struct LaunchDefaults {
  core::Account account;
  std::vector<std::string> base_env;
  std::string workspace;  // the root every session's directory must be inside
  core::Catalog catalog;
  core::EnvList machine_env;  // the config's [env]
  // Dangerous names a request may set anyway (`[sessions] allow_env`).
  std::vector<std::string> allowed_env;
  std::string default_entry;      // what new sessions run ("claude", "shell:zsh"); empty:
                                  // the account's login shell
  std::string default_directory;  // where they start; empty: the workspace
  std::string context_file;       // the note for agents that take one; empty: none
  std::string context_text;       // its text, for agents that take the text itself
  std::string agent_settings;     // wharf's settings file for agents that take one
                                  // (app/context_note.hpp); empty: none
  std::string wharf_binary;       // this wharf, for the agents' notify hooks
                                  // (app/agent_hooks.hpp); empty: no hooks
  std::string opencode_plugin;    // wharf's opencode plugin file; empty: none
  std::string state_dir;          // given to sessions as WHARF_STATE_DIR; empty: not set
  std::string shell_integration;  // where the shell integration files are; empty: off
  bool shared_shell = false;      // keep a shell for programs that name no session
  ConversationProbe has_conversation;
};

// A request names a catalog entry, never a program: there is no command field.
struct StartRequest {
  std::string kind;    // "shell", "agent", "action"; empty: looked up by name
  std::string entry;   // the entry's name; empty (with kind empty): the default entry,
                       // (with kind "shell"): the login shell
  std::string cwd;     // inside the workspace; empty: the default directory
  core::EnvList env;   // the session's own layer
  std::string prompt;  // the first message, for agents that take one
  std::string name;    // the tab's name; empty: the default name
  core::TerminalSize size;
  std::string owner = "key";    // who starts it: core/ownership.hpp's creator_label
  bool shared_shell = false;    // the shell programs use when they name no session
  std::optional<bool> sandbox;  // this session in a sandbox or not; unset: the entry's word
};

// What a client's launch request (the WebSocket `new`, the new_session operation) asks
// to start: one translation, so a field added to the request reaches every door.
StartRequest start_request(const core::LaunchRequest& launch, core::TerminalSize size,
                           std::string owner = "key");

// The catalog entry a request names; with none named, the default entry, else the
// account's login shell (as the catalog knows it: the shell's name, else bash, else sh).
core::Result<const core::CatalogEntry*> choose_entry(const LaunchDefaults& defaults,
                                                     const StartRequest& request);

// What a start decided before registering: the entry, directory, repo layer and argv.
struct LaunchDecision {
  const core::CatalogEntry* entry = nullptr;
  std::string cwd;
  core::EnvList repo_env;
  core::LaunchPlan plan;
};
// Only the first session of an agent in the daemon's life may resume (`agents_started`
// holds the agents that had one), and only when there is something to resume: resuming
// nothing must never kill a session.
core::Result<LaunchDecision> decide_launch(const LaunchDefaults& defaults,
                                           const StartRequest& request,
                                           const std::set<std::string>& agents_started);

struct SpawnPlan {
  pty::SpawnSpec spec;
  bool shell_integration = false;      // prompt and command marks (run_command relies on them)
  std::vector<std::string> env_names;  // the names the session was given, never a value
};
// The process to spawn for session `id`: the layered environment (machine, repo, the
// request's own, then what wharf sets) and shell integration where it applies.
SpawnPlan plan_spawn(const LaunchDefaults& defaults, const StartRequest& request,
                     LaunchDecision& decision, core::SessionId id);

}  // namespace wharf::app
