// move_session: moves a session's tab to another place in the tab order (1 is the
// first), the others keeping their order: what dragging a tab does on the page. The
// order it computes goes through SessionService::reorder, the path the page's `reorder`
// message takes, so every window's tab bar follows at once.
#include <algorithm>
#include <boost/json.hpp>
#include <vector>

#include "ops/arguments.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "move_session");
  auto position = a.integer("position");
  // The order is everyone's tab bar: a program may move only the sessions it started.
  auto session = a.session(context, core::Access::kEnd);
  if (!a) co_return a.error();
  core::SessionId id = session->id();
  std::vector<core::SessionId> order;
  for (const core::SessionEntry* e : context.sessions.registry().entries())
    if (e->id != id) order.push_back(e->id);
  auto last = static_cast<std::int64_t>(order.size()) + 1;
  if (*position > last)
    co_return bad_argument("'position' must be from 1 to " + std::to_string(last) +
                           " (the number of live sessions)");
  order.insert(order.begin() + (*position - 1), id);
  if (auto moved = context.sessions.reorder(order); !moved) co_return moved.error();
  co_return json::object{{"session", id}, {"position", *position}};
}

std::string render(const json::object& answer) {
  return "session " + std::to_string(answer.at("session").to_number<std::int64_t>()) +
         " is now tab " + std::to_string(answer.at("position").to_number<std::int64_t>()) + "\n";
}

}  // namespace

const Operation kMoveSession{
    .name = "move_session",
    .title = "Move a session's tab",
    .description =
        "Moves a session to another place in the tab order that every window shows (1 is "
        "the first tab); the other sessions keep their order.",
    .input_schema = R"({"type":"object","properties":{
      "session":{"type":"integer","minimum":1,"description":"The session's id."},
      "position":{"type":"integer","minimum":1,"maximum":10000,"description":"Its new place, 1 for the first tab."}},
      "required":["session","position"],"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "session":{"type":"integer"},
      "position":{"type":"integer"}},
      "required":["session","position"]})",
    .idempotent = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
