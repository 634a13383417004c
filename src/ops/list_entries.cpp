// list_entries: the catalog (core/catalog.hpp), what new_session can start here: the
// login shells found on this machine, the agents wharf knows (with whether their program
// is installed) and the actions the operator defined, plus what a session with no entry
// named starts. A program asks this before new_session instead of guessing names.
#include <boost/json.hpp>

#include "ops/arguments.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "list_entries");
  if (!a) co_return a.error();
  json::array entries;
  for (const core::CatalogEntry& e : context.sessions.catalog().entries()) {
    // What could never start is left out; an agent not installed is listed, so the
    // caller learns why asking for it fails.
    if (!e.interactive || !e.enabled) continue;
    if (!e.installed() && e.kind != core::EntryKind::kAgent) continue;
    json::object row{{"kind", core::kind_name(e.kind)},
                     {"entry", e.name},
                     {"installed", e.installed()},
                     {"takes_prompt", e.prompt != core::PromptStyle::kNone},
                     {"builtin", e.builtin}};
    // What a session of it would be allowed to do, before anyone starts one.
    auto capabilities = context.sessions.capabilities_for(e);
    if (capabilities)
      row["capabilities"] = core::capabilities_object(capabilities.value());
    else
      row["capabilities_error"] = capabilities.error().message;
    entries.push_back(std::move(row));
  }
  app::LaunchStatus launch = context.sessions.launch_status();
  co_return json::object{{"entries", std::move(entries)},
                         {"default_kind", launch.default_kind},
                         {"default_entry", launch.default_entry}};
}

std::string render(const json::object& answer) {
  std::string text;
  for (const json::value& row : answer.at("entries").get_array()) {
    const json::object& e = row.get_object();
    text += std::string(e.at("kind").get_string()) + "\t" +
            std::string(e.at("entry").get_string()) +
            (e.at("installed").get_bool() ? "" : "\t(not installed)") + "\n";
  }
  return text;
}

}  // namespace

const Operation kListEntries{
    .name = "list_entries",
    .title = "List what can be started",
    .description =
        "Lists the catalog: what new_session can start on this machine, each as kind "
        "(shell, agent or action) and entry (e.g. bash, claude), whether its program is "
        "installed and whether it takes a first message (prompt). Call it before "
        "new_session; default_kind and default_entry are what starts when none is named.",
    .input_schema = R"({"type":"object","properties":{},"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "entries":{"type":"array","items":{"type":"object","properties":{
        "kind":{"type":"string","enum":["shell","agent","action"]},
        "entry":{"type":"string","description":"Pass as new_session's entry, with its kind."},
        "installed":{"type":"boolean"},
        "takes_prompt":{"type":"boolean","description":"new_session's prompt is its first message."},
        "builtin":{"type":"boolean","description":"false: the operator's config defined it."}},
        "capabilities":{"type":"object","description":"What a session of it may do: sandboxed, and in a sandbox its writable and readable paths, network (none, allow, host) and allow list."},
        "capabilities_error":{"type":"string","description":"Why its declared sandbox cannot be honoured (a session of it is refused)."},
        "required":["kind","entry","installed","takes_prompt","builtin"]}},
      "default_kind":{"type":"string"},
      "default_entry":{"type":"string"}},
      "required":["entries","default_kind","default_entry"]})",
    .read_only = true,
    .idempotent = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
