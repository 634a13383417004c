#include "app/state_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace wharf::app {
namespace fs = std::filesystem;

namespace {

std::optional<fs::path> env_path(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || value[0] != '/') return std::nullopt;  // XDG: relative is invalid
  return fs::path(value);
}

}  // namespace

StatePaths resolve_state_paths(const std::optional<fs::path>& explicit_dir) {
  if (explicit_dir) {
    fs::path dir = fs::absolute(*explicit_dir);
    return {dir, dir};
  }
  fs::path state;
  if (auto xdg = env_path("XDG_STATE_HOME")) {
    state = *xdg / "wharf";
  } else {
    auto home = env_path("HOME");
    state = home.value_or(fs::path("/tmp")) / ".local" / "state" / "wharf";
  }
  fs::path runtime = state;
  if (auto xdg = env_path("XDG_RUNTIME_DIR")) runtime = *xdg / "wharf";
  return {state, runtime};
}

core::Status ensure_private_dir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return core::Error{"cannot create " + dir.string() + ": " + ec.message()};
  struct stat info {};
  if (lstat(dir.c_str(), &info) != 0)
    return core::Error{"cannot inspect " + dir.string() + ": " + std::strerror(errno)};
  if (!S_ISDIR(info.st_mode)) return core::Error{dir.string() + " is not a directory"};
  if (info.st_uid != geteuid())
    return core::Error{dir.string() + " belongs to another user; wharf keeps its key there"};
  if ((info.st_mode & 077) != 0 && chmod(dir.c_str(), 0700) != 0)
    return core::Error{"cannot make " + dir.string() + " private: " + std::strerror(errno)};
  return core::ok_status();
}

}  // namespace wharf::app
