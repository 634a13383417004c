// rename_session: gives a session the name its tab, `wharf ls` and the history show; an
// empty name restores the default ("claude 3"). The same SessionService::rename the
// page's double-click rename uses, so every door checks the name the same way (at most
// 64 bytes, no control characters, surrounding blanks trimmed).
#include <boost/json.hpp>

#include "ops/arguments.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "rename_session");
  auto name = a.text("name");
  // Renaming is the owner's: a program may rename the sessions it started, not others.
  auto session = a.session(context, core::Access::kEnd);
  if (!a) co_return a.error();
  core::SessionId id = session->id();
  if (auto renamed = context.sessions.rename(id, name.value_or("")); !renamed) {
    core::Error error = renamed.error();
    if (error.code == "bad_field") error.code = "bad_argument";
    co_return error;
  }
  const core::SessionEntry* entry = context.sessions.registry().find(id);
  co_return json::object{{"session", id}, {"name", entry != nullptr ? entry->name() : ""}};
}

std::string render(const json::object& answer) {
  return "session " + std::to_string(answer.at("session").to_number<std::int64_t>()) +
         " is now named " + std::string(answer.at("name").get_string()) + "\n";
}

}  // namespace

const Operation kRenameSession{
    .name = "rename_session",
    .title = "Rename a session",
    .description =
        "Gives a session a new name (shown in its tab and by list_sessions). An empty name "
        "restores the default, the entry's name and the session's id.",
    .input_schema = R"({"type":"object","properties":{
      "session":{"type":"integer","minimum":1,"description":"The session's id."},
      "name":{"type":"string","maxLength":64,"description":"The new name; empty restores the default."}},
      "required":["session","name"],"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "session":{"type":"integer"},
      "name":{"type":"string","description":"The name the session now has."}},
      "required":["session","name"]})",
    .idempotent = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
