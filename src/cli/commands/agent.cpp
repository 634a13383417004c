// `wharf agent [NAME]`: moves what `+ New session` and `wharf new` start by default (an
// agent, or any entry of the catalog: `shell:zsh`, `action:dev`), and prints it. Sessions
// already running keep what they started with. With no NAME, only prints the default.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

std::function<int()> setup_agent(CLI::App& verb) {
  auto state_dir = std::make_shared<std::string>();
  auto name = std::make_shared<std::string>();
  add_state_dir_option(verb, *state_dir);
  verb.add_option("name", *name, "Agent (or shell:NAME, action:NAME) new sessions start");
  return [state_dir, name] {
    auto answer = call_daemon(*state_dir, {{"verb", "agent"}, {"name", *name}});
    if (!answer) return report_failure(answer.error());
    const boost::json::object& a = answer.value();
    std::printf("%s%s (%s)\n", name->empty() ? "" : "new sessions now start ",
                std::string(a.at("default").as_string()).c_str(),
                std::string(a.at("kind").as_string()).c_str());
    return 0;
  };
}

}  // namespace

const Command kAgentCommand{
    .name = "agent",
    .summary = "Show or move what new sessions start",
    .setup = setup_agent,
};

}  // namespace wharf::cli
