// pane_show: a program publishes an HTML page for the person watching its session: the
// page shows beside the terminal (docs/page.md, "The web pane"), replacing the one before.
// Made for agents: with no session named it publishes into the caller's own session, and
// a program inside a session may publish only there or into the sessions it started
// (core/ownership.hpp). The page is kept and served by app::PaneStore; its size cap is
// `[pane] max_bytes` (refused with code too_large, nothing replaced).
#include <boost/json.hpp>

#include "ops/arguments.hpp"
#include "ops/pane_target.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "pane_show");
  auto html = a.text("html");
  auto title = a.text("title");
  auto session = pane_target(a, context);
  if (!a) co_return a.error();
  auto published =
      context.sessions.publish_pane(session->id(), *html, title.value_or(std::string()));
  if (!published) co_return published.error();
  const core::PaneSummary& page = published.value();
  co_return json::object{{"session", session->id()},
                         {"title", page.title},
                         {"bytes", page.bytes},
                         {"published", page.published_ms}};
}

std::string render(const json::object& answer) {
  return "pane of session " + std::to_string(answer.at("session").to_number<std::int64_t>()) +
         " shows a page of " + std::to_string(answer.at("bytes").to_number<std::int64_t>()) +
         " bytes\n";
}

}  // namespace

const Operation kPaneShow{
    .name = "pane_show",
    .title = "Show a page in the web pane",
    .description =
        "Publishes an HTML page in the web pane beside a session's terminal, for the person "
        "watching it (a plan, a table, a question with more structure than a terminal prompt "
        "holds). It replaces the session's previous page. The page runs sandboxed with no "
        "network access: inline everything (styles, scripts, images as data: URLs). A <form "
        "data-feedback> in it sends its fields back: they are written to a JSON file and one "
        "line naming that file is typed into the session. At most 512 KiB by default ([pane] "
        "max_bytes; code too_large). Without a session, publishes into the session you run "
        "in.",
    .input_schema = R"({"type":"object","properties":{
      "html":{"type":"string","description":"The page: a standalone HTML document."},
      "title":{"type":"string","maxLength":1024,"description":"A short title for the pane's header and the feedback line."},
      "session":{"type":"integer","minimum":1,"description":"Default: the caller's own session."}},
      "required":["html"],"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "session":{"type":"integer"},
      "title":{"type":"string","description":"The title as shown (one clean line)."},
      "bytes":{"type":"integer"},
      "published":{"type":"integer","description":"When, in ms since the epoch."}},
      "required":["session","title","bytes","published"]})",
    .idempotent = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
