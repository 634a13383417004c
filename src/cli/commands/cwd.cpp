// `wharf cwd [DIR]`: moves where new sessions start (the `+` button, `wharf new` without
// --cwd) and prints it; with no DIR, only prints it. The daemon checks DIR as a start
// would (it must exist and lie inside the workspace) through the same
// SessionService::set_default_directory that POST /api/cwd and the page take, and keeps
// the choice across restarts. A relative DIR is relative to where the command was typed.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

std::function<int()> setup_cwd(CLI::App& verb) {
  auto state_dir = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>();
  add_state_dir_option(verb, *state_dir);
  verb.add_option("dir", *dir, "Directory inside the workspace where new sessions start");
  verb.footer(R"(Examples:
  wharf cwd                  # where new sessions start now
  wharf cwd .                # start them here
  wharf cwd ~/work/api)");
  return [state_dir, dir] {
    std::string cwd = *dir;
    if (!cwd.empty()) cwd = std::filesystem::absolute(cwd).lexically_normal().string();
    auto answer = call_daemon(*state_dir, {{"verb", "cwd"}, {"cwd", cwd}});
    if (!answer) return report_failure(answer.error());
    const boost::json::object& a = answer.value();
    const boost::json::value* path = a.if_contains("path");
    std::string shown = path != nullptr && path->is_string() ? std::string(path->get_string())
                                                             : std::string(a.at("cwd").as_string());
    std::printf("%s%s\n", dir->empty() ? "" : "new sessions now start in ", shown.c_str());
    return kExitOk;
  };
}

}  // namespace

const Command kCwdCommand{
    .name = "cwd",
    .summary = "Show or move where new sessions start",
    .setup = setup_cwd,
};

}  // namespace wharf::cli
