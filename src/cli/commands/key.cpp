// `wharf key rotate`: replaces the daemon's key. The old link stops working at once,
// every window opened with it is told and closed, and programs holding it are refused;
// the new link is printed (and `wharf open` prints it from then on). Restarts never
// change the key by themselves while sessions are kept; this is the way to.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

std::function<int()> setup_key(CLI::App& verb) {
  auto state_dir = std::make_shared<std::string>();
  auto action = std::make_shared<std::string>();
  add_state_dir_option(verb, *state_dir);
  verb.add_option("action", *action, "rotate: mint a new key and close every open window")
      ->required()
      ->check(CLI::IsMember({"rotate"}));
  // `action` is captured too: CLI11 writes into it while parsing, after this returns.
  return [state_dir, action] {
    auto answer = call_daemon(*state_dir, {{"verb", "rotate_key"}});
    if (!answer) return report_failure(answer.error());
    std::printf("%s\n", std::string(answer.value().at("url").as_string()).c_str());
    return 0;
  };
}

}  // namespace

const Command kKeyCommand{
    .name = "key",
    .summary =
        "Rotate the access key (`wharf key rotate`): every open window must use the new link",
    .setup = setup_key,
};

}  // namespace wharf::cli
