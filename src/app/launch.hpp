// Turning a request to start a session into exactly what pty/ will run: which shell
// (only shells found on this machine, by name: never a path or a command line) and
// which directory (an existing directory inside the workspace, after resolving `..`
// and symlinks). Anything else starts nothing and says why.
#pragma once

#include <optional>
#include <string>

#include "core/environment.hpp"
#include "core/result.hpp"

namespace wharf::app {

struct ShellChoice {
  std::string name;  // "bash"
  std::string path;  // "/usr/bin/bash"
};

// `name` empty: the account's login shell.
core::Result<ShellChoice> choose_shell(const core::Account& account, const std::string& name);

// `requested` empty: the workspace itself; relative paths are taken from the workspace.
core::Result<std::string> choose_directory(const std::string& workspace,
                                           const std::string& requested);

}  // namespace wharf::app
