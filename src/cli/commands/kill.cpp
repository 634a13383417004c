// `wharf kill SESSION...`: ends sessions (hang-up, terminate, then kill after a grace
// period). Each SESSION is an id or a name; several may be given, positionally or as
// repeated `-t SESSION`. Each is ended on its own: one that fails does not stop the rest,
// and the exit status is 1 if any failed.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct KillOptions {
  std::string state_dir;
  std::vector<std::string> targets;
};

std::function<int()> setup_kill(CLI::App& verb) {
  auto o = std::make_shared<KillOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("-t,--target", o->targets, "A session to end (repeatable)")
      ->allow_extra_args(false);
  verb.add_option("session", o->targets, "Sessions to end: ids or names, as `wharf ls` prints");
  verb.footer(R"(Examples:
  wharf kill 3
  wharf kill 3 4 7
  wharf kill -t "codex 4")");
  return [o] {
    if (o->targets.empty())
      return usage_error("kill needs at least one session (an id or a name from `wharf ls`)");
    int status = kExitOk;
    for (const std::string& target : o->targets) {
      auto id = resolve_target(o->state_dir, target);
      if (!id) {
        status = std::max(status, report_failure(id.error()));
        continue;
      }
      auto answer = call_operation(o->state_dir, "end_session", {{"session", id.value()}});
      if (!answer) status = std::max(status, report_failure(answer.error()));
    }
    return status;
  };
}

}  // namespace

const Command kKillCommand{
    .name = "kill",
    .summary = "End sessions",
    .setup = setup_kill,
};

}  // namespace wharf::cli
