// A session's environment variables as people write them (`--env KEY=VALUE`, the `env`
// object of a request, `.wharf/env` lines, the config's [env] table), checked before
// anything starts, and layered on top of the minimal base (docs/config.md):
//
//   base  <  machine (config)  <  repo (.wharf/env)  <  session (the request)  <  wharf's own
//
// Invariants: a name is an identifier ([A-Za-z_][A-Za-z0-9_]*); a value is literal (no
// `$VAR` expansion) and never contains NUL; no layer names a variable twice; no layer may
// set a variable wharf sets itself (kNamesWharfSets); the repo layer, which comes from the
// workspace and so from whoever wrote the repository, may not set a dangerous name
// (kDangerousNames: the loader's, the shells' startup hooks, PATH...) either, and the
// session layer only those the operator allows (check_request_env_names). Error messages quote
// names (shortened) but never values: a value may be a secret.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace wharf::core {

struct EnvVar {
  std::string name;
  std::string value;
  bool operator==(const EnvVar&) const = default;
};
using EnvList = std::vector<EnvVar>;

enum class EnvLayer { kMachine, kRepo, kSession };

// Every variable wharf itself puts into a session's environment. A layer setting one of
// these is refused rather than silently overridden; a unit test fails if wharf starts
// setting a WHARF_* name missing from this list.
inline constexpr std::array<std::string_view, 6> kNamesWharfSets{
    "WHARF_SESSION_ID",
    "WHARF_SESSION_NAME",
    "WHARF_STATE_DIR",
    // Shell integration (core/shell_integration.hpp): set only for bash and zsh sessions.
    "WHARF_SHELL_LOGIN",
    "WHARF_USER_ZDOTDIR",
    // Never set in a session, but the daemon takes its key from it: a session asking
    // for it is asking for something else than it thinks.
    "WHARF_KEY",
};

// The dynamic loader's variables: a repository must not choose code that every program
// in the session loads.
inline constexpr std::array<std::string_view, 3> kLoaderNames{"LD_PRELOAD", "LD_LIBRARY_PATH",
                                                              "LD_AUDIT"};

// Variables that make a program run code nobody typed: a shell's startup hooks, the
// interpreters' startup files and options, git's ssh command, the loader (every LD_*
// name, see is_dangerous_env_name) and PATH, which picks the program each command name
// runs. A request (REST, WebSocket, MCP, the CLI) and a workspace's .wharf/env may not
// set them: a caller chooses a catalog entry, never the code it runs. The operator's own
// [env] may, and `[sessions] allow_env` lets requests set named ones.
inline constexpr std::array<std::string_view, 27> kDangerousNames{
    "BASH_ENV",          "ENV",         "PROMPT_COMMAND",  "PS4",        "SHELLOPTS",
    "BASHOPTS",          "IFS",         "CDPATH",          "ZDOTDIR",    "GLOBIGNORE",
    "GCONV_PATH",        "HOSTALIASES", "PYTHONSTARTUP",   "PYTHONPATH", "PYTHONHOME",
    "NODE_OPTIONS",      "NODE_PATH",   "PERL5OPT",        "PERL5LIB",   "PERLLIB",
    "RUBYOPT",           "RUBYLIB",     "GIT_SSH_COMMAND", "GIT_SSH",    "GIT_EXEC_PATH",
    "GIT_CONFIG_GLOBAL", "PATH",
};

// kLoaderNames, every other LD_* name, and kDangerousNames.
bool is_dangerous_env_name(std::string_view name);

// The request layer's check, made once for every door where a session starts: a name on
// the dangerous list is refused ("bad_env", saying how the operator allows it) unless
// `allowed` (the config's `[sessions] allow_env`) names it.
Status check_request_env_names(std::span<const EnvVar> vars, std::span<const std::string> allowed);

inline constexpr std::size_t kMaxEnvVars = 256;
inline constexpr std::size_t kMaxEnvValueBytes = 32 * 1024;

bool is_env_identifier(std::string_view name);

// "KEY=VALUE" (the value may be empty and may contain '='). Errors carry code "bad_env".
Result<EnvVar> parse_env_assignment(std::string_view spec);

// Checks one layer: names, values, duplicates, the reserved and (repo) loader names.
Status check_env_layer(std::span<const EnvVar> vars, EnvLayer layer);

// Every "KEY=VALUE" of a command line, checked as one session layer.
Result<EnvList> parse_env_specs(std::span<const std::string> specs);

// A `.wharf/env` file: one KEY=VALUE per line, blank lines and lines starting with '#'
// ignored, nothing else (no quotes, no `export`, no expansion). Errors say
// "<source>:<line>: <reason>".
Result<EnvList> parse_env_file(std::string_view text, std::string_view source);

// The final "NAME=value" entries for execve, sorted by name: `base` then each layer in
// order, a later one replacing an earlier value for the same name.
std::vector<std::string> layer_environment(std::span<const std::string> base,
                                           std::span<const EnvList* const> layers);

}  // namespace wharf::core
