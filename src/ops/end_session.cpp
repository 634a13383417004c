// end_session: ends a session (its program and everything it started get SIGHUP, then
// SIGTERM, then SIGKILL) and answers at once; windows showing it move to a neighbour.
#include <boost/json.hpp>

#include "ops/arguments.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "end_session");
  auto session = a.session(context, core::Access::kEnd);
  if (!a) co_return a.error();
  core::SessionId id = session->id();
  if (auto ended = context.sessions.end(id); !ended) co_return ended.error();
  co_return json::object{{"session", id}, {"ending", true}};
}

std::string render(const json::object& answer) {
  return "ending session " + std::to_string(answer.at("session").to_number<std::int64_t>()) + "\n";
}

}  // namespace

const Operation kEndSession{
    .name = "end_session",
    .title = "End a session",
    .description =
        "Ends a session: its program and every process it started are stopped. Whatever was "
        "running there is lost.",
    .input_schema = R"({"type":"object","properties":{
      "session":{"type":"integer","minimum":1,"description":"The session's id."}},
      "required":["session"],"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "session":{"type":"integer"},
      "ending":{"type":"boolean","description":"Always true: the session is being ended."}},
      "required":["session","ending"]})",
    .destructive = true,
    .idempotent = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
