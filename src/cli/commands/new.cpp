// `wharf new [--shell NAME] [--cwd DIR] [--name NAME]`: starts a session and prints its id.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct NewOptions {
  std::string state_dir, shell, cwd, name;
};

std::function<int()> setup_new(CLI::App& verb) {
  auto o = std::make_shared<NewOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("--shell", o->shell, "Shell to run (bash, zsh, fish, sh...; default: yours)");
  verb.add_option("--cwd", o->cwd, "Directory inside the workspace (default: the workspace)");
  verb.add_option("--name", o->name, "Tab name (default: shell and id, like `bash 3`)");
  return [o] {
    std::string cwd = o->cwd;
    // A relative directory means relative to where the command was typed.
    if (!cwd.empty()) cwd = std::filesystem::absolute(cwd).lexically_normal().string();
    auto answer = call_daemon(
        o->state_dir, {{"verb", "new"}, {"shell", o->shell}, {"cwd", cwd}, {"name", o->name}});
    if (!answer) return report_failure(answer.error());
    std::printf("%s\n", boost::json::serialize(answer.value().at("id")).c_str());
    return 0;
  };
}

}  // namespace

const Command kNewCommand{
    .name = "new",
    .summary = "Start a session and print its id",
    .setup = setup_new,
};

}  // namespace wharf::cli
