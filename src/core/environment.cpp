#include "core/environment.hpp"

#include <algorithm>
#include <map>

namespace wharf::core {
namespace {

bool inherited_name(std::string_view name) {
  return name == "PATH" || name == "LANG" || name == "LANGUAGE" || name == "TMPDIR" ||
         name.starts_with("LC_");
}

}  // namespace

std::vector<std::string> base_environment(const Account& account,
                                          std::span<const std::string> daemon_environ) {
  std::map<std::string, std::string, std::less<>> env;
  for (const std::string& entry : daemon_environ) {
    auto eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    std::string_view name(entry.data(), eq);
    if (inherited_name(name)) env[std::string(name)] = entry.substr(eq + 1);
  }
  if (!env.contains("PATH") || env["PATH"].empty()) env["PATH"] = kDefaultPath;
  if (!env.contains("LANG")) env["LANG"] = "C.UTF-8";
  env["HOME"] = account.home;
  env["USER"] = account.user;
  env["LOGNAME"] = account.user;
  env["SHELL"] = account.shell;
  env["TERM"] = "xterm-256color";
  env["COLORTERM"] = "truecolor";

  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

}  // namespace wharf::core
