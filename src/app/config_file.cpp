#include "app/config_file.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace wharf::app {
namespace fs = std::filesystem;

fs::path default_config_path() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && xdg[0] == '/')
    return fs::path(xdg) / "wharf" / "config.toml";
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr ? home : "/") / ".config" / "wharf" / "config.toml";
}

core::Result<core::Config> load_config(const std::optional<fs::path>& explicit_path) {
  fs::path path = explicit_path.value_or(default_config_path());
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    if (explicit_path) return core::Error{"the config file " + path.string() + " does not exist"};
    return core::Config{.source = path.string()};
  }
  if (!fs::is_regular_file(path, ec))
    return core::Error{"the config file " + path.string() + " is not a regular file"};
  if (fs::file_size(path, ec) > core::kMaxConfigBytes)
    return core::Error{"the config file " + path.string() + " is larger than 1 MiB"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return core::Error{"cannot read the config file " + path.string()};
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return core::parse_config(text, path.string());
}

}  // namespace wharf::app
