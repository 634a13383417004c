// pane_clear: takes a session's web pane page away (the pane shows nothing again). The
// same session rule as pane_show: the caller's own session by default, else one it may
// drive (core/ownership.hpp).
#include <boost/json.hpp>

#include "ops/arguments.hpp"
#include "ops/pane_target.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "pane_clear");
  auto session = pane_target(a, context);
  if (!a) co_return a.error();
  if (auto cleared = context.sessions.clear_pane(session->id()); !cleared)
    co_return cleared.error();
  co_return json::object{{"session", session->id()}, {"cleared", true}};
}

std::string render(const json::object& answer) {
  return "pane of session " + std::to_string(answer.at("session").to_number<std::int64_t>()) +
         " cleared\n";
}

}  // namespace

const Operation kPaneClear{
    .name = "pane_clear",
    .title = "Clear the web pane",
    .description =
        "Removes the page a session shows in its web pane. Without a session, clears the "
        "pane of the session you run in.",
    .input_schema = R"({"type":"object","properties":{
      "session":{"type":"integer","minimum":1,"description":"Default: the caller's own session."}},
      "additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "session":{"type":"integer"},
      "cleared":{"type":"boolean"}},
      "required":["session","cleared"]})",
    .idempotent = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
