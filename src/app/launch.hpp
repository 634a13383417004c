// What the machine contributes to starting a session: finding the catalog's programs
// (login shells through /etc/shells, everything else on the sessions' PATH), checking a
// requested directory is an existing directory inside the workspace (after resolving
// `..` and symlinks), and reading the workspace's `.wharf/env`. Anything else starts
// nothing and says why.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/env_spec.hpp"
#include "core/result.hpp"

namespace wharf::app {

// A shell by name ("bash"), preferring the paths /etc/shells lists.
std::optional<std::string> find_shell(std::string_view name);

// A program by name on `path_value` (a PATH string), or an absolute path checked to be
// an executable file. Names with a '/' that are not absolute are never found.
std::optional<std::string> find_program(std::string_view name, std::string_view path_value);

// `requested` empty: the workspace itself; relative paths are taken from the workspace.
core::Result<std::string> choose_directory(const std::string& workspace,
                                           const std::string& requested);

// The repo layer: `<workspace>/.wharf/env`, or nothing when there is no such file. A file
// that breaks the rules (core/env_spec.hpp) refuses every start until it is fixed.
inline constexpr std::size_t kMaxRepoEnvBytes = 64 * 1024;
core::Result<core::EnvList> read_repo_env(const std::filesystem::path& workspace);

}  // namespace wharf::app
