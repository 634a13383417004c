#include "cli/daemon_takeover.hpp"

#include <linux/close_range.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "app/key_file.hpp"
#include "core/access_key.hpp"

namespace wharf::cli {
namespace fs = std::filesystem;

core::Result<std::string> take_key(const fs::path& key_file, bool sessions_kept) {
  if (const char* pinned = std::getenv("WHARF_KEY")) {
    std::string key(pinned);
    unsetenv("WHARF_KEY");
    if (!core::is_well_formed_key(key))
      return core::Error{"WHARF_KEY must be 32 lowercase hex characters"};
    return key;
  }
  if (sessions_kept) {
    std::ifstream in(key_file);
    std::string kept;
    if (in >> kept && core::is_well_formed_key(kept)) return kept;
  }
  return app::mint_key();
}

core::Error restart_in_place(std::uint16_t port, const std::string& key) {
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  for (std::string arg; std::getline(cmdline, arg, '\0');) args.push_back(arg);
  std::error_code ec;
  std::string exe = fs::read_symlink("/proc/self/exe", ec).string();
  // A binary replaced by a new build reads "PATH (deleted)": the new one is at PATH.
  constexpr std::string_view kDeleted = " (deleted)";
  if (exe.ends_with(kDeleted)) exe.resize(exe.size() - kDeleted.size());
  if (ec || exe.empty() || args.empty())
    return core::Error{"cannot restart: /proc/self is unreadable"};
  setenv("WHARF_KEY", key.c_str(), 1);
  setenv("WHARF_RESTART_PORT", std::to_string(port).c_str(), 1);
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  spdlog::info("restarting as {}", exe);
  std::fflush(stdout);
  close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
  execv(exe.c_str(), argv.data());
  return core::Error{"cannot restart as " + exe + ": " + std::strerror(errno)};
}

FoundHosts find_hosts(const fs::path& dir) {
  FoundHosts found;
  for (const auto& [id, socket] : host::host_sockets(dir)) {
    auto connected = host::connect_host(socket);
    if (connected) {
      found.live.push_back(std::move(connected.value()));
      continue;
    }
    if (connected.error().code == "unreachable") {
      std::error_code ignored;
      fs::remove(socket, ignored);  // its host is gone: a leftover of a crash
      continue;
    }
    found.first_free_id = std::max(found.first_free_id, id + 1);
    spdlog::warn("session {} is left running: {}; a wharf of that version can take it over", id,
                 connected.error().message);
  }
  return found;
}

}  // namespace wharf::cli
