// `wharf kill ID`: ends a session (hang-up, terminate, then kill after a grace period).
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

std::function<int()> setup_kill(CLI::App& verb) {
  auto state_dir = std::make_shared<std::string>();
  auto id = std::make_shared<std::int64_t>(0);
  add_state_dir_option(verb, *state_dir);
  verb.add_option("id", *id, "Session id (see `wharf ls`)")->required()->check(session_id_check());
  return [state_dir, id] {
    auto answer = call_operation(*state_dir, "end_session", {{"session", *id}});
    if (!answer) return report_failure(answer.error());
    return 0;
  };
}

}  // namespace

const Command kKillCommand{
    .name = "kill",
    .summary = "End a session",
    .setup = setup_kill,
};

}  // namespace wharf::cli
