// `wharf service install|uninstall`: wharf as a systemd user service, so that it starts
// with the user's session manager and comes back after a crash. install writes the unit
// (packaging/wharf.service, naming this binary) to ~/.config/systemd/user/ and runs
// `systemctl --user daemon-reload` and `enable --now`; uninstall undoes both. Where no
// systemd user manager answers, the unit is still written and wharf says what to run.
// --dry-run prints the unit and the commands and changes nothing.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/system_service.hpp"

extern char** environ;

namespace wharf::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUnitName = "wharf.service";

struct ServiceOptions {
  std::string action;
  bool dry_run = false;
};

std::string home_dir() {
  const char* home = std::getenv("HOME");
  return home != nullptr ? home : "";
}

// Where systemd looks for a user's own units.
fs::path unit_path() {
  const char* config = std::getenv("XDG_CONFIG_HOME");
  fs::path base =
      config != nullptr && *config == '/' ? fs::path(config) : fs::path(home_dir()) / ".config";
  return base / "systemd" / "user" / kUnitName;
}

std::string shown(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& word : argv) line += (line.empty() ? "" : " ") + word;
  return line;
}

// Runs a program found on PATH with this terminal's output; its exit status, or -1 when
// it could not start (not installed).
int run_program(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& word : argv) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ) != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Runs each command in turn, or prints them under --dry-run. False when systemd's user
// manager is not there to run them (the first one fails).
bool run_systemctl(const std::vector<std::vector<std::string>>& commands, bool dry_run) {
  for (const auto& command : commands) {
    if (dry_run) {
      std::printf("would run: %s\n", shown(command).c_str());
      continue;
    }
    std::printf("running: %s\n", shown(command).c_str());
    std::fflush(stdout);
    if (int status = run_program(command); status != 0) {
      std::fprintf(stderr, "wharf: `%s` %s\n", shown(command).c_str(),
                   status < 0 ? "could not run (is systemd installed?)"
                              : ("failed with status " + std::to_string(status)).c_str());
      return false;
    }
  }
  return true;
}

int install(const ServiceOptions& options) {
  std::error_code ec;
  fs::path binary = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::fprintf(stderr, "wharf: cannot tell where this wharf binary is: %s\n",
                 ec.message().c_str());
    return 1;
  }
  fs::path path = unit_path();
  std::string unit = service_unit_text(binary.string(), home_dir());
  if (options.dry_run) {
    std::printf("would write %s:\n%s\n", path.c_str(), unit.c_str());
  } else {
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::trunc);
    out << unit;
    out.close();
    if (ec || !out) {
      std::fprintf(stderr, "wharf: cannot write %s%s%s\n", path.c_str(), ec ? ": " : "",
                   ec ? ec.message().c_str() : "");
      return 1;
    }
    std::printf("wrote %s (runs %s)\n", path.c_str(), binary.c_str());
  }
  bool started = run_systemctl({{"systemctl", "--user", "daemon-reload"},
                                {"systemctl", "--user", "enable", "--now", kUnitName}},
                               options.dry_run);
  if (options.dry_run) return 0;
  if (!started) {
    std::printf(
        "No systemd user manager answered, so wharf is not started as a service. Where "
        "systemd runs, log in as this user and run `systemctl --user daemon-reload && "
        "systemctl --user enable --now wharf`; elsewhere run `wharf serve` yourself.\n");
    return 0;
  }
  std::printf(
      "wharf runs as a user service: `wharf open` prints its address, `journalctl --user -u "
      "wharf` shows its log. To keep it running while you are logged out: `loginctl "
      "enable-linger`.\n");
  return 0;
}

int uninstall(const ServiceOptions& options) {
  fs::path path = unit_path();
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    std::printf("%s does not exist: the service is not installed\n", path.c_str());
    return 0;
  }
  // Stopping the unit stops the daemon as SIGTERM does (and its sessions with it, unless
  // it keeps them).
  bool stopped =
      run_systemctl({{"systemctl", "--user", "disable", "--now", kUnitName}}, options.dry_run);
  if (options.dry_run) {
    std::printf("would remove %s\n", path.c_str());
    std::printf("would run: systemctl --user daemon-reload\n");
    return 0;
  }
  if (!fs::remove(path, ec) || ec) {
    std::fprintf(stderr, "wharf: cannot remove %s: %s\n", path.c_str(), ec.message().c_str());
    return 1;
  }
  std::printf("removed %s\n", path.c_str());
  if (stopped) run_systemctl({{"systemctl", "--user", "daemon-reload"}}, false);
  return 0;
}

std::function<int()> setup_service(CLI::App& verb) {
  auto options = std::make_shared<ServiceOptions>();
  verb.add_option("action", options->action,
                  "install: write the systemd user unit and start it; uninstall: stop and "
                  "remove it")
      ->required()
      ->check(CLI::IsMember({"install", "uninstall"}));
  verb.add_flag("--dry-run", options->dry_run, "Print what would be done and change nothing");
  // `options` is captured: CLI11 writes into it while parsing, after this returns.
  return
      [options] { return options->action == "install" ? install(*options) : uninstall(*options); };
}

}  // namespace

const Command kServiceCommand{
    .name = "service",
    .summary = "Install or remove wharf as a systemd user service (`wharf service install`)",
    .setup = setup_service,
};

}  // namespace wharf::cli
