#include "app/launch.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace wharf::app {
namespace fs = std::filesystem;

namespace {

constexpr std::array<std::string_view, 6> kKnownShells{"bash", "zsh", "fish", "sh", "dash", "ksh"};

bool executable(const fs::path& path) {
  return access(path.c_str(), X_OK) == 0;
}

}  // namespace

core::Result<ShellChoice> choose_shell(const core::Account& account, const std::string& name) {
  if (name.empty()) return ShellChoice{fs::path(account.shell).filename().string(), account.shell};
  if (std::find(kKnownShells.begin(), kKnownShells.end(), name) == kKnownShells.end()) {
    return core::Error{
        "unknown shell '" + name.substr(0, 32) + "': choose one of bash, zsh, fish, sh, dash, ksh",
        "bad_field"};
  }
  // /etc/shells lists the login shells the administrator allows; prefer its entries.
  std::ifstream shells("/etc/shells");
  for (std::string line; std::getline(shells, line);) {
    if (line.empty() || line[0] != '/') continue;
    if (fs::path(line).filename() == name && executable(line)) return ShellChoice{name, line};
  }
  for (const char* dir : {"/usr/bin", "/bin", "/usr/local/bin"}) {
    fs::path candidate = fs::path(dir) / name;
    if (executable(candidate)) return ShellChoice{name, candidate.string()};
  }
  return core::Error{"the shell '" + name + "' is not installed on this machine", "bad_field"};
}

core::Result<std::string> choose_directory(const std::string& workspace,
                                           const std::string& requested) {
  std::error_code ec;
  fs::path root = fs::canonical(workspace, ec);
  if (ec) return core::Error{"the workspace " + workspace + " is gone", "bad_field"};
  if (requested.empty()) return root.string();
  fs::path wanted = fs::path(requested).is_absolute() ? fs::path(requested) : root / requested;
  fs::path resolved = fs::canonical(wanted, ec);
  if (ec || !fs::is_directory(resolved)) {
    return core::Error{"'" + requested.substr(0, 256) + "' is not an existing directory",
                       "bad_field"};
  }
  auto rel = resolved.lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") {
    return core::Error{
        "'" + requested.substr(0, 256) + "' is outside the workspace (" + root.string() + ")",
        "bad_field"};
  }
  return resolved.string();
}

}  // namespace wharf::app
