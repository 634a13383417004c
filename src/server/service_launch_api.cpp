#include "server/service_launch_api.hpp"

#include <boost/json.hpp>

#include "app/directory_suggestions.hpp"
#include "app/session_service.hpp"

namespace wharf::server {
namespace json = boost::json;

namespace {

std::string shown_directory(const std::string& relative) {
  return relative.empty() ? "." : relative;
}

}  // namespace

json::array catalog_json(const app::SessionService& sessions) {
  json::array entries;
  for (const core::CatalogEntry& e : sessions.catalog().entries()) {
    if (!e.interactive || !e.enabled) continue;
    if (!e.installed() && e.kind != core::EntryKind::kAgent) continue;
    json::object row{{"kind", core::kind_name(e.kind)},
                     {"name", e.name},
                     {"installed", e.installed()},
                     {"prompt", e.prompt != core::PromptStyle::kNone},
                     {"builtin", e.builtin}};
    // The launcher shows what a session of it may do before anyone starts one.
    auto capabilities = sessions.capabilities_for(e);
    if (capabilities)
      row["capabilities"] = core::capabilities_object(capabilities.value());
    else
      row["capabilities_error"] = capabilities.error().message;
    entries.push_back(std::move(row));
  }
  return entries;
}

// Whether sandboxes can start here, and what each live session may do.
json::object sandbox_json(const app::SessionService& sessions) {
  json::object out = sessions.sandbox_status();
  json::array live;
  for (const core::SessionEntry* e : sessions.registry().entries())
    live.push_back(json::object{{"id", e->id},
                                {"name", e->name()},
                                {"capabilities", core::capabilities_object(e->capabilities)}});
  out["sessions"] = std::move(live);
  return out;
}

json::object ServiceLaunchApi::status() const {
  app::LaunchStatus launch = sessions_.launch_status();
  json::object running;
  for (const auto& [name, count] : launch.running) running[name] = count;
  return json::object{{"default_agent", launch.default_entry},
                      {"default_kind", launch.default_kind},
                      {"default_cwd", shown_directory(launch.default_directory)},
                      {"workspace", sessions_.workspace()},
                      {"running", std::move(running)},
                      {"catalog", catalog_json(sessions_)},
                      {"sandbox", sandbox_json(sessions_)},
                      {"page", page_},
                      {"notifications", notifications_}};
}

json::object page_defaults_json(const core::PageDefaults& page) {
  json::object out;
  if (page.font_size) out["font_size"] = *page.font_size;
  if (page.font_family) out["font_family"] = *page.font_family;
  if (page.theme) out["theme"] = *page.theme;
  if (page.cursor_style) out["cursor_style"] = *page.cursor_style;
  if (page.cursor_blink) out["cursor_blink"] = *page.cursor_blink;
  if (page.chime) out["chime"] = *page.chime;
  if (page.notifications) out["notifications"] = *page.notifications;
  if (page.renderer) out["renderer"] = *page.renderer;
  if (page.search_key) out["search_key"] = *page.search_key;
  if (page.shift_enter_newline) out["shift_enter_newline"] = *page.shift_enter_newline;
  if (page.focus) out["focus"] = *page.focus;
  return out;
}

json::object ServiceLaunchApi::directories() const {
  app::DirectorySuggestions found = app::suggest_directories(sessions_.workspace());
  json::array dirs(found.dirs.begin(), found.dirs.end());
  return json::object{{"workspace", sessions_.workspace()},
                      {"default", shown_directory(sessions_.launch_status().default_directory)},
                      {"dirs", std::move(dirs)},
                      {"truncated", found.truncated}};
}

core::Result<json::object> ServiceLaunchApi::set_default_entry(std::string_view name) {
  auto chosen = sessions_.set_default_entry(name);
  if (!chosen) return chosen.error();
  return json::object{{"default_agent", chosen.value()->name},
                      {"default_kind", core::kind_name(chosen.value()->kind)}};
}

core::Result<json::object> ServiceLaunchApi::set_default_directory(std::string_view cwd) {
  auto moved = sessions_.set_default_directory(std::string(cwd));
  if (!moved) return moved.error();
  return json::object{{"default_cwd", shown_directory(sessions_.launch_status().default_directory)},
                      {"path", moved.value()}};
}

}  // namespace wharf::server
