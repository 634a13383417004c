// new_session: starts a catalog entry (a shell, an agent or an action the operator
// defined) in a directory inside the workspace, through the same typed launch as every
// other way in (core/launch_request.hpp): there is no command field.
#include <boost/json.hpp>

#include "core/launch_request.hpp"
#include "ops/arguments.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  // parse_launch_request refuses command-like fields by name, with a reason, before the
  // schema would call them merely unknown; the schema checks the rest, size included.
  json::object launch = args;
  launch.erase("cols");
  launch.erase("rows");
  auto request = core::parse_launch_request(launch);
  if (!request) co_return request.error();
  Arguments a(args, "new_session");
  auto cols = a.integer("cols");
  auto rows = a.integer("rows");
  if (!a) co_return a.error();
  app::StartRequest start =
      app::start_request(request.value(), core::clamp_size(cols.value_or(80), rows.value_or(24)),
                         core::creator_label(context.caller));
  auto started = context.sessions.start(start);
  if (!started) co_return started.error();
  const core::SessionEntry* entry = context.sessions.registry().find(started.value()->id());
  co_return json::object{
      {"session", started.value()->id()},
      {"name", entry != nullptr ? entry->name() : std::string()},
      {"entry", started.value()->program()},
      {"pid", started.value()->pid()},
      {"cwd", entry != nullptr ? entry->cwd : std::string()},
      {"capabilities",
       core::capabilities_object(entry != nullptr ? entry->capabilities : core::Capabilities{})}};
}

std::string render(const json::object& answer) {
  return "started session " + std::to_string(answer.at("session").to_number<std::int64_t>()) +
         " (" + std::string(answer.at("name").get_string()) + ") in " +
         std::string(answer.at("cwd").get_string()) + "\n";
}

}  // namespace

const Operation kNewSession{
    .name = "new_session",
    .title = "Start a session",
    .description =
        "Starts a new terminal session running an entry of wharf's catalog (list_entries "
        "lists them): a shell (kind 'shell', entry 'bash' or 'zsh'), an agent (kind "
        "'agent', entry 'claude', 'codex', 'opencode'...) or an action the operator "
        "defined. There is no command "
        "field: to run a command, start a shell and use run_command. Optional: cwd (inside "
        "the workspace), env (an object of NAME: value), prompt (an agent's first message), "
        "name. Answers the new session's id.",
    .input_schema = R"({"type":"object","properties":{
      "kind":{"type":"string","enum":["shell","agent","action"],"description":"What to start; with entry."},
      "entry":{"type":"string","description":"The catalog entry's name, e.g. bash, claude (list_entries lists them)."},
      "agent":{"type":"string","description":"Short for kind agent and this entry."},
      "shell":{"type":"string","description":"Short for kind shell and this entry."},
      "title":{"type":"string","description":"The same as name."},
      "cwd":{"type":"string","description":"Directory inside the workspace (relative or absolute)."},
      "env":{"type":"object","additionalProperties":{"type":"string"},"description":"Environment variables for this session: {\"NAME\": \"value\"}."},
      "prompt":{"type":"string","description":"First message, for agents that take one."},
      "name":{"type":"string","description":"The session's name; default: entry and id."},
      "sandbox":{"type":"boolean","description":"true: run in a sandbox (writes only its workspace, network as its entry declares); false: without one. Default: the entry's setting."},
      "cols":{"type":"integer","minimum":1,"maximum":500},
      "rows":{"type":"integer","minimum":1,"maximum":300}},
      "additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "session":{"type":"integer","description":"The new session's id."},
      "name":{"type":"string"},
      "entry":{"type":"string"},
      "pid":{"type":"integer"},
      "cwd":{"type":"string"},
      "capabilities":{"type":"object","description":"What the session may do: sandboxed, and if so writable and readable paths, network (none, allow, host) and the allow list."}},
      "required":["session","name","entry","pid","cwd","capabilities"]})",
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
