// answer_decision: approves or denies a pending decision (a guarded command a sandboxed
// session wants to run), with an optional note the session is told. The same path as the
// page's decision card (answer_decision_as), so every door refuses the same things and
// the audit names who answered ("cli", "rest", "device:NAME", "mcp:NAME").
#include <boost/json.hpp>

#include "app/device_service.hpp"
#include "ops/arguments.hpp"
#include "ops/decisions.hpp"

namespace wharf::ops {
namespace json = boost::json;

std::string device_name(app::SessionService& sessions, std::int64_t device) {
  if (device == 0 || sessions.devices() == nullptr) return {};
  for (const core::DeviceRecord& record : sessions.devices()->list())
    if (record.id == device) return record.name;
  return {};
}

core::Result<core::DecisionOutcome> answer_decision_as(app::SessionService& sessions,
                                                       const core::Caller& caller, std::uint64_t id,
                                                       bool approve, std::string note) {
  if (caller.kind == core::Caller::Kind::kSession)
    return core::Error{
        "a program inside a session may not answer decisions: only a person "
        "(the page, your own CLI, REST or MCP with the key) may",
        "not_permitted"};
  std::string by = core::answerer_label(caller, device_name(sessions, caller.device));
  return sessions.decisions().answer(id, approve, std::move(by), std::move(note));
}

json::object outcome_json(const core::DecisionOutcome& outcome) {
  return json::object{{"id", outcome.id},
                      {"session", outcome.session},
                      {"outcome", core::decision_state_name(outcome.state)},
                      {"by", outcome.by},
                      {"note", outcome.note},
                      {"at_ms", outcome.at_ms}};
}

void note_input(app::SessionService& sessions, const core::Caller& caller,
                core::SessionId session) {
  sessions.input_audit().input(
      session, core::input_client(caller, device_name(sessions, caller.device)), app::now_ms());
}

namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "answer_decision");
  auto id = a.integer("id");
  auto approve = a.flag("approve");
  auto note = a.text("note");
  if (!a) co_return a.error();
  auto answered = answer_decision_as(context.sessions, context.caller,
                                     static_cast<std::uint64_t>(id.value_or(0)),
                                     approve.value_or(false), note.value_or(""));
  if (!answered) co_return answered.error();
  co_return outcome_json(answered.value());
}

std::string render(const json::object& answer) {
  std::string line = "decision " + std::to_string(answer.at("id").to_number<std::int64_t>()) + " " +
                     std::string(answer.at("outcome").get_string());
  if (!answer.at("note").get_string().empty())
    line += " (note: " + std::string(answer.at("note").get_string()) + ")";
  return line + "\n";
}

}  // namespace

const Operation kAnswerDecision{
    .name = "answer_decision",
    .title = "Answer a pending decision",
    .description =
        "Approves or denies a pending decision: a guarded command (git push, gh pr merge, gh "
        "pr create) a sandboxed session wants to run. An approved command runs once, in the "
        "session; a denied one fails there with the note. list_decisions shows what waits. "
        "Programs inside a wharf session may not answer.",
    .input_schema = R"({"type":"object","properties":{
      "id":{"type":"integer","minimum":1,"description":"The decision's id (list_decisions)."},
      "approve":{"type":"boolean","description":"true runs the command once; false refuses it."},
      "note":{"type":"string","maxLength":1000,"description":"Optional words for the session (shown with a denial)."}},
      "required":["id","approve"],"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "id":{"type":"integer"},
      "session":{"type":"integer"},
      "outcome":{"type":"string","enum":["approved","denied"]},
      "by":{"type":"string","description":"Who answered: cli, rest, key, device:NAME, mcp:NAME."},
      "note":{"type":"string"},
      "at_ms":{"type":"integer"}},
      "required":["id","session","outcome","by","note","at_ms"]})",
    .destructive = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
