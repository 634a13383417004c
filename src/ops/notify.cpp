// notify: a program tells the person it needs them (`waiting`) or is done (`finished`):
// the session's tab lights up at once, without waiting for its output to go quiet. Made
// for agents' hooks (Claude Code's Notification and Stop hooks run `wharf notify ...`
// inside the session), so with no session named it marks the caller's own.
#include <boost/json.hpp>

#include "ops/arguments.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "notify");
  auto state = a.text("state");
  core::Activity activity =
      state == "waiting" ? core::Activity::kWaiting : core::Activity::kFinished;
  std::shared_ptr<app::Session> session;
  if (a.has("session")) {
    session = a.session(context, core::Access::kDrive);
  } else if (a && context.caller.kind == core::Caller::Kind::kSession) {
    // Its own session: a program may always say how it is doing.
    session = context.sessions.find(context.caller.session);
  } else if (a) {
    a.fail(
        bad_argument("name the session ('session'); only a program inside a session may "
                     "leave it out"));
  }
  if (!a) co_return a.error();
  if (!session) co_return core::Error{"the caller's session has ended", "no_session"};
  if (auto marked = context.sessions.mark_activity(session->id(), activity); !marked)
    co_return marked.error();
  co_return json::object{{"session", session->id()}, {"state", *state}};
}

std::string render(const json::object& answer) {
  return "session " + std::to_string(answer.at("session").to_number<std::int64_t>()) + " marked " +
         std::string(answer.at("state").get_string()) + "\n";
}

}  // namespace

const Operation kNotify{
    .name = "notify",
    .title = "Tell the person",
    .description =
        "Lights a session's tab for the person watching: state 'waiting' when you need their "
        "input or approval, 'finished' when you are done. Without a session, marks the "
        "session you run in.",
    .input_schema = R"({"type":"object","properties":{
      "state":{"type":"string","enum":["waiting","finished"]},
      "session":{"type":"integer","minimum":1,"description":"Default: the caller's own session."}},
      "required":["state"],"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "session":{"type":"integer"},
      "state":{"type":"string","enum":["waiting","finished"]}},
      "required":["session","state"]})",
    .idempotent = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
