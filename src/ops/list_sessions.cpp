// list_sessions: every live session the caller may read, in tab order, with what a
// program needs to pick one (id, name, what it runs, where, who started it, whether
// run_command can be used in it).
#include <boost/json.hpp>
#include <cstdlib>

#include "ops/arguments.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "list_sessions");
  if (!a) co_return a.error();
  json::array rows;
  const char* home_env = std::getenv("HOME");
  std::string_view home = home_env != nullptr ? home_env : "";
  for (const core::SessionEntry* e : context.sessions.registry().entries()) {
    if (!core::may_access(context.caller, e->id, e->creator, e->shared_shell, core::Access::kRead))
      continue;
    auto session = context.sessions.find(e->id);
    const app::ShellState* shell = session ? &session->shell_state() : nullptr;
    rows.push_back(json::object{
        {"id", e->id},
        {"name", e->name()},
        {"entry", e->program},
        {"kind", e->kind},
        {"status", e->status == core::SessionStatus::kEnding ? "ending" : "running"},
        {"pid", session ? session->pid() : 0},
        {"cwd", e->cwd},
        {"created", e->created_ms},
        {"exit_code", nullptr},
        {"driver", e->driver ? json::value(*e->driver) : json::value(nullptr)},
        {"windows", e->windows.size()},
        {"creator", e->creator},
        {"shared_shell", e->shared_shell},
        {"shell_integration", shell != nullptr && shell->integrated},
        {"reported", session ? core::status_json(session->status(), home) : json::object{}},
        {"capabilities", core::capabilities_object(e->capabilities)},
    });
  }
  co_return json::object{{"sessions", std::move(rows)}};
}

std::string render(const json::object& answer) {
  std::string text;
  for (const json::value& row : answer.at("sessions").get_array()) {
    const json::object& s = row.get_object();
    text += std::to_string(s.at("id").to_number<std::int64_t>()) + "\t" +
            std::string(s.at("name").get_string()) + "\t" +
            std::string(s.at("status").get_string()) + "\t" +
            std::string(s.at("cwd").get_string()) + "\n";
  }
  return text.empty() ? "no sessions\n" : text;
}

}  // namespace

const Operation kListSessions{
    .name = "list_sessions",
    .title = "List sessions",
    .description =
        "Lists the live terminal sessions you may use: id, name, what runs in it (entry and "
        "kind), its directory, who started it, and whether run_command works in it "
        "(shell_integration).",
    .input_schema = R"({"type":"object","properties":{},"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "sessions":{"type":"array","items":{"type":"object","properties":{
        "id":{"type":"integer"},
        "name":{"type":"string"},
        "entry":{"type":"string","description":"The catalog entry it runs, e.g. bash, claude."},
        "kind":{"type":"string","enum":["shell","agent","action"]},
        "status":{"type":"string","enum":["running","ending"]},
        "pid":{"type":"integer"},
        "cwd":{"type":"string"},
        "created":{"type":"integer","description":"Start time, ms since the epoch."},
        "exit_code":{"type":"null"},
        "driver":{"type":["integer","null"],"description":"The browser window typing into it."},
        "windows":{"type":"integer","description":"Browser windows showing it."},
        "creator":{"type":"string","description":"Who started it: key, or session:ID."},
        "shared_shell":{"type":"boolean"},
        "shell_integration":{"type":"boolean","description":"run_command works here."},
        "capabilities":{"type":"object","description":"What it may do: sandboxed (false: your full access), and in a sandbox its writable and readable paths, network (none, allow, host) and allow (host:port lines reachable through wharf's egress proxy)."},
        "reported":{"type":"object","description":"What the program reports about itself (the page's status strip): cwd and cwd_short (OSC 7), command {running, exit_code, duration_ms} (OSC 133), agent {model, context_percent, cost_usd, ...} (its status line). Empty when it reports nothing."}},
        "required":["id","name","entry","kind","status","cwd","shared_shell","shell_integration","capabilities"]}}},
      "required":["sessions"]})",
    .read_only = true,
    .idempotent = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
