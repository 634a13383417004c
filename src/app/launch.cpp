#include "app/launch.hpp"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>

namespace wharf::app {
namespace fs = std::filesystem;

namespace {

bool executable_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::string> find_shell(std::string_view name) {
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  // /etc/shells lists the login shells the administrator allows; prefer its entries.
  std::ifstream shells("/etc/shells");
  for (std::string line; std::getline(shells, line);) {
    if (line.empty() || line[0] != '/') continue;
    if (fs::path(line).filename() == name && executable_file(line)) return line;
  }
  for (const char* dir : {"/usr/bin", "/bin", "/usr/local/bin"}) {
    fs::path candidate = fs::path(dir) / name;
    if (executable_file(candidate)) return candidate.string();
  }
  return std::nullopt;
}

std::optional<std::string> find_program(std::string_view name, std::string_view path_value) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string_view::npos) {
    if (name.front() != '/' || !executable_file(fs::path(name))) return std::nullopt;
    return std::string(name);
  }
  while (true) {
    auto colon = path_value.find(':');
    std::string_view dir = path_value.substr(0, colon);
    // An empty PATH element means the current directory; a session's program is never
    // looked up there.
    if (!dir.empty() && dir.front() == '/') {
      fs::path candidate = fs::path(dir) / name;
      if (executable_file(candidate)) return candidate.string();
    }
    if (colon == std::string_view::npos) return std::nullopt;
    path_value.remove_prefix(colon + 1);
  }
}

core::Result<std::string> choose_directory(const std::string& workspace,
                                           const std::string& requested) {
  std::error_code ec;
  fs::path root = fs::canonical(workspace, ec);
  if (ec) return core::Error{"the workspace " + workspace + " is gone", "bad_directory"};
  if (requested.empty()) return root.string();
  if (requested.find('\0') != std::string::npos || requested.size() > 4096)
    return core::Error{"that is not a directory name", "bad_directory"};
  fs::path wanted = fs::path(requested).is_absolute() ? fs::path(requested) : root / requested;
  fs::path resolved = fs::canonical(wanted, ec);
  if (ec || !fs::is_directory(resolved, ec)) {
    return core::Error{"'" + requested.substr(0, 256) + "' is not an existing directory",
                       "bad_directory"};
  }
  auto rel = resolved.lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") {
    return core::Error{
        "'" + requested.substr(0, 256) + "' is outside the workspace (" + root.string() + ")",
        "bad_directory"};
  }
  return resolved.string();
}

core::Result<core::EnvList> read_repo_env(const fs::path& workspace) {
  fs::path file = workspace / ".wharf" / "env";
  std::error_code ec;
  if (!fs::exists(file, ec)) return core::EnvList{};
  if (!fs::is_regular_file(file, ec))
    return core::Error{file.string() + " is not a regular file", "bad_env"};
  if (fs::file_size(file, ec) > kMaxRepoEnvBytes)
    return core::Error{file.string() + " is larger than 64 KiB", "bad_env"};
  std::ifstream in(file, std::ios::binary);
  if (!in) return core::Error{"cannot read " + file.string(), "bad_env"};
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return core::parse_env_file(text, file.string());
}

}  // namespace wharf::app
