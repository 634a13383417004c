// list_decisions: the pending decisions (guarded commands sandboxed sessions wait to run),
// oldest first, of one session or of all. The same objects the page's `decisions` message
// carries (app::DecisionDesk::pending_json). A program inside a session sees only the
// decisions of sessions it may read.
#include <boost/json.hpp>

#include "ops/arguments.hpp"
#include "ops/decisions.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "list_decisions");
  std::optional<core::SessionId> only;
  if (a.has("session")) {
    auto session = a.session(context, core::Access::kRead);
    if (!a) co_return a.error();
    only = session->id();
  }
  if (!a) co_return a.error();
  app::DecisionDesk& desk = context.sessions.decisions();
  json::array list;
  for (const core::Decision& decision : desk.pending(only)) {
    if (context.caller.kind == core::Caller::Kind::kSession) {
      const core::SessionEntry* entry = context.sessions.registry().find(decision.request.session);
      if (entry == nullptr ||
          !core::may_access(context.caller, decision.request.session, entry->creator,
                            entry->shared_shell, core::Access::kRead))
        continue;
    }
    list.emplace_back(desk.pending_json(decision));
  }
  co_return json::object{{"decisions", std::move(list)}, {"expiry_seconds", desk.expiry().count()}};
}

std::string render(const json::object& answer) {
  const json::array& list = answer.at("decisions").get_array();
  if (list.empty()) return "no decisions are waiting\n";
  std::string out;
  for (const json::value& item : list) {
    const json::object& d = item.get_object();
    std::string command;
    for (const json::value& word : d.at("argv").get_array()) {
      if (!command.empty()) command += ' ';
      command += std::string(word.get_string());
    }
    out += std::to_string(d.at("id").to_number<std::int64_t>()) + "  session " +
           std::to_string(d.at("session").to_number<std::int64_t>()) + " (" +
           std::string(d.at("session_name").get_string()) + ")  " + command + "  in " +
           std::string(d.at("cwd").get_string()) + "\n";
  }
  return out;
}

}  // namespace

const Operation kListDecisions{
    .name = "list_decisions",
    .title = "List pending decisions",
    .description =
        "Lists the decisions waiting for a person: guarded commands (git push, gh pr merge, gh "
        "pr create) that sandboxed sessions want to run, with the exact command, where, and "
        "when each expires. Answer one with answer_decision.",
    .input_schema = R"({"type":"object","properties":{
      "session":{"type":"integer","minimum":1,"description":"Only this session's decisions."}},
      "additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "decisions":{"type":"array","items":{"type":"object","properties":{
        "id":{"type":"integer"},
        "session":{"type":"integer"},
        "session_name":{"type":"string"},
        "what":{"type":"string","description":"In short, e.g. git push."},
        "argv":{"type":"array","items":{"type":"string"},"description":"The exact command."},
        "cwd":{"type":"string"},
        "source":{"type":"string","enum":["guard","prompt"]},
        "opened_at_ms":{"type":"integer"},
        "expires_at_ms":{"type":"integer"}},
        "required":["id","session","session_name","what","argv","cwd","source","opened_at_ms","expires_at_ms"]}},
      "expiry_seconds":{"type":"integer","description":"How long a decision waits before it expires."}},
      "required":["decisions","expiry_seconds"]})",
    .read_only = true,
    .idempotent = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
