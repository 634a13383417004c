// What wharf's built-in agents need inside a sandbox so that `sandbox = true` just works
// for them: the hosts their model APIs and sign-in live on (`network = "agent"` means this
// list, reached through the egress proxy), and the directories in HOME where they keep
// their own sign-in, settings and history, which they must be able to write (everything
// else in HOME stays absent). Data, kept in one place and shown by `wharf ls --json` and
// docs/sandbox.md; an operator widens or narrows it per entry in config.toml.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/capabilities.hpp"

namespace wharf::sandbox {

struct AgentNeeds {
  std::vector<core::Endpoint> hosts;
  std::vector<std::string> home_paths;  // relative to HOME; files or directories
};

// Empty for a name wharf has no built-in knowledge of.
AgentNeeds agent_needs(std::string_view agent);

}  // namespace wharf::sandbox
