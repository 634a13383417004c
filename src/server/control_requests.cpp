#include "server/control_requests.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/json.hpp>
#include <filesystem>

#include "core/caller_labels.hpp"
#include "core/session_status.hpp"
#include "ops/operation.hpp"

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
  std::filesystem::path path = std::filesystem::path(sessions.workspace());
  if (!status.default_directory.empty()) path /= status.default_directory;
  return success({{"cwd", status.default_directory.empty() ? "." : status.default_directory},
                  {"path", path.lexically_normal().string()}});
}

// `wharf status-line`: an agent's status line, run by the agent inside its session, hands
// over its numbers (core/session_status.hpp). Only the caller's own session takes them,
// so no request names one; the answer is the line the agent shows.
std::string status_report(const json::object& request, app::SessionService& sessions,
                          core::Caller caller) {
  if (caller.kind != core::Caller::Kind::kSession || caller.session == 0)
    return failure("not_permitted", "only a program inside a session reports its status");
  if (text_field(request, "agent") != "claude")
    return failure("bad_argument", "'agent' must be 'claude'");
  const json::value* payload = request.if_contains("payload");
  std::optional<core::AgentReport> report =
      payload != nullptr ? core::parse_claude_status(*payload) : std::nullopt;
  if (!report) return failure("bad_argument", "'payload' must be the status line's JSON object");
  auto session = sessions.find(caller.session);
  if (!session) return failure("no_session", "the caller's session has ended");
  std::string line = core::report_line(*report);
  session->report_status(std::move(*report));
  return success({{"session", caller.session}, {"line", std::move(line)}});
}

}  // namespace

boost::asio::awaitable<std::string> handle_control_request(std::string_view line,
                                                           app::SessionService& sessions,
                                                           core::Caller caller,
                                                           const DaemonActions& actions) {
  boost::system::error_code ec;
  json::value value = json::parse(line, ec);
  if (ec || !value.is_object()) co_return failure("bad_request", "a request is one JSON object");
  const json::object& request = value.get_object();

  if (const json::value* op = request.if_contains("op")) {
    if (!op->is_string()) co_return failure("bad_request", "'op' must be an operation's name");
    json::object no_args;
    const json::value* args = request.if_contains("args");
    if (args != nullptr && !args->is_object())
      co_return failure("bad_argument", "'args' must be an object");
    const json::object& arguments = args != nullptr ? args->get_object() : no_args;
    // Changes to the caller (if any) stay inside this request. `via` names the door for the
    // audit only (`wharf mcp` says "mcp:NAME"); it never changes what the caller may do.
    if (const json::value* via = request.if_contains("via");
        via != nullptr && via->is_string() && core::valid_via(via->get_string()))
      caller.via = std::string(via->get_string());
    ops::Context context{sessions, caller};
    auto answer = co_await ops::run_operation(op->get_string(), context, arguments);
    if (!answer) co_return failure(answer.error());
    const ops::Operation* operation = ops::find_operation(op->get_string());
    std::string text = ops::answer_text(*operation, answer.value());
    co_return success({{"result", std::move(answer.value())}, {"text", std::move(text)}});
  }

  // Moving the defaults is the local user's (and the browser's) business only.
  std::string verb = text_field(request, "verb");
  if ((verb == "agent" || verb == "cwd") && caller.kind == core::Caller::Kind::kSession)
    co_return failure("not_permitted",
                      "a program inside a session may not change what new sessions start with");
  if (verb == "restart" || verb == "rotate_key") {
    if (caller.kind == core::Caller::Kind::kSession)
      co_return failure("not_permitted",
                        "a program inside a session may not restart wharf or change its key");
  }
  if (verb == "restart") {
    if (!actions.restart) co_return failure("not_available", "this wharf cannot restart itself");
    std::size_t kept = sessions.live_count();
    // After this answer is written: the restart closes this connection.
    boost::asio::post(co_await boost::asio::this_coro::executor, actions.restart);
    co_return success({{"sessions", kept}});
  }
  if (verb == "rotate_key") {
    if (!actions.rotate_key) co_return failure("not_available", "this wharf cannot change its key");
    co_return success({{"url", actions.rotate_key()}});
  }
  if (verb == "status_report") co_return status_report(request, sessions, caller);
  if (verb == "agent") co_return default_agent(request, sessions);
  if (verb == "cwd") co_return default_directory(request, sessions);
  co_return failure("bad_request",
                    "a request names an 'op' (or the verb 'agent', 'cwd', 'restart', "
                    "'rotate_key' or 'status_report')");
}

}  // namespace wharf::server
