#include "server/control_requests.hpp"

#include <boost/json.hpp>
#include <functional>

#include "core/launch_request.hpp"

namespace wharf::server {
namespace json = boost::json;

namespace {

std::string failure(std::string_view code, std::string_view message) {
  return json::serialize(json::object{{"ok", false}, {"code", code}, {"error", message}});
}

std::string failure(const core::Error& error) {
  return failure(error.code.empty() ? "bad_request" : error.code, error.message);
}

std::string success(json::object fields) {
  fields["ok"] = true;
  return json::serialize(fields);
}

std::string text_field(const json::object& request, std::string_view name) {
  const json::value* v = request.if_contains(name);
  return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string{};
}

std::optional<core::SessionId> id_field(const json::object& request) {
  const json::value* v = request.if_contains("id");
  if (v == nullptr || !v->is_int64() || v->get_int64() <= 0) return std::nullopt;
  return static_cast<core::SessionId>(v->get_int64());
}

std::string list_sessions(const json::object&, app::SessionService& sessions) {
  json::array rows;
  for (const core::SessionEntry* e : sessions.registry().entries()) {
    auto session = sessions.find(e->id);
    rows.push_back(json::object{
        {"id", e->id},
        {"name", e->name()},
        {"program", e->program},
        {"entry", e->program},
        {"kind", e->kind},
        {"status", e->status == core::SessionStatus::kEnding ? "ending" : "running"},
        {"pid", session ? session->pid() : 0},
        {"cwd", e->cwd},
        {"created", e->created_ms},
        {"exit_code", nullptr},
        {"driver", e->driver ? json::value(*e->driver) : json::value(nullptr)},
        {"windows", e->windows.size()},
    });
  }
  return success({{"sessions", std::move(rows)}});
}

std::string new_session(const json::object& request, app::SessionService& sessions) {
  auto launch = core::parse_launch_request(request);
  if (!launch) return failure(launch.error());
  core::LaunchRequest& l = launch.value();
  app::StartRequest start{.kind = l.kind,
                          .entry = l.entry,
                          .cwd = l.cwd,
                          .env = std::move(l.env),
                          .prompt = l.prompt,
                          .name = l.name,
                          .size = {80, 24},
                          .owner = "cli"};
  const json::value* cols = request.if_contains("cols");
  const json::value* rows = request.if_contains("rows");
  if (cols && rows && cols->is_int64() && rows->is_int64())
    start.size = core::clamp_size(cols->get_int64(), rows->get_int64());
  auto started = sessions.start(start);
  if (!started) return failure(started.error());
  return success({{"id", started.value()->id()}, {"name", started.value()->program()}});
}

// Moves what new sessions start with; with no name, only reports it.
std::string default_agent(const json::object& request, app::SessionService& sessions) {
  std::string name = text_field(request, "name");
  if (!name.empty()) {
    if (auto chosen = sessions.set_default_entry(name); !chosen) return failure(chosen.error());
  }
  app::LaunchStatus status = sessions.launch_status();
  return success({{"default", status.default_entry}, {"kind", status.default_kind}});
}

std::string default_directory(const json::object& request, app::SessionService& sessions) {
  std::string cwd = text_field(request, "cwd");
  if (!cwd.empty()) {
    if (auto moved = sessions.set_default_directory(cwd); !moved) return failure(moved.error());
  }
  app::LaunchStatus status = sessions.launch_status();
  return success({{"cwd", status.default_directory.empty() ? "." : status.default_directory}});
}

std::string kill_session(const json::object& request, app::SessionService& sessions) {
  auto id = id_field(request);
  if (!id) return failure("bad_request", "kill needs a session id");
  if (auto ended = sessions.end(*id); !ended) return failure(ended.error());
  return success({});
}

std::string read_screen(const json::object& request, app::SessionService& sessions) {
  auto id = id_field(request);
  if (!id) return failure("bad_request", "read-screen needs a session id");
  auto session = sessions.find(*id);
  if (!session) return failure("no_session", "no live session " + std::to_string(*id));
  std::size_t scrollback = 0;
  if (const json::value* v = request.if_contains("scrollback"); v && v->is_int64())
    scrollback = static_cast<std::size_t>(std::max<std::int64_t>(0, v->get_int64()));
  core::ScreenText text = session->text(scrollback);
  json::array lines(text.lines.begin(), text.lines.end());
  json::array back(text.scrollback.begin(), text.scrollback.end());
  return success({{"id", *id},
                  {"lines", std::move(lines)},
                  {"scrollback", std::move(back)},
                  {"cursor", json::object{{"row", text.cursor.row},
                                          {"col", text.cursor.col},
                                          {"visible", text.cursor.visible}}},
                  {"cols", text.size.cols},
                  {"rows", text.size.rows},
                  {"title", text.title},
                  {"alternate_screen", text.alternate_screen}});
}

struct Verb {
  std::string_view name;
  std::string (*handle)(const json::object&, app::SessionService&);
};

constexpr Verb kVerbs[] = {
    {"ls", list_sessions},      {"new", new_session},   {"agent", default_agent},
    {"cwd", default_directory}, {"kill", kill_session}, {"read-screen", read_screen},
};

}  // namespace

std::string handle_control_request(std::string_view line, app::SessionService& sessions) {
  boost::system::error_code ec;
  json::value value = json::parse(line, ec);
  if (ec || !value.is_object()) return failure("bad_request", "a request is one JSON object");
  const json::object& request = value.get_object();
  std::string verb = text_field(request, "verb");
  for (const Verb& v : kVerbs)
    if (v.name == verb) return v.handle(request, sessions);
  return failure("bad_request", "unknown verb '" + verb.substr(0, 32) + "'");
}

}  // namespace wharf::server
