// What every client sends to start a session (the WebSocket `new` message, the control
// socket's `new` verb, later the REST and MCP calls), read from one JSON object by one
// function so that every door takes exactly the same fields and refuses the same things.
//
// Fields: kind ("shell", "agent", "action"), entry (its name; "agent" and "shell" are
// accepted as spellings of kind + entry), cwd, name (or title), prompt, env (an object of
// string values), sandbox (true or false: this session in a sandbox or not). There is no command,
// argument or program field, and a request carrying one is refused rather than silently ignored, so
// a client learns it cannot work that way.
#pragma once

#include <boost/json/object.hpp>
#include <optional>
#include <string>

#include "core/env_spec.hpp"
#include "core/result.hpp"

namespace wharf::core {

struct LaunchRequest {
  std::string kind;
  std::string entry;
  std::string cwd;
  std::string name;
  std::string prompt;
  EnvList env;
  std::optional<bool> sandbox;  // this session only; unset: the entry's (or the default's)
};

// Errors carry code "bad_field" (or "bad_env" from the env checks).
Result<LaunchRequest> parse_launch_request(const boost::json::object& fields);

}  // namespace wharf::core
