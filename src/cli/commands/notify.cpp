// `wharf notify waiting|finished [--session ID]`: lights the session's tab in every
// window at once, for agents' hooks (Claude Code: a Notification hook running
// `wharf notify waiting`, a Stop hook running `wharf notify finished`). Inside a session
// it marks that session.
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct NotifyOptions {
  std::string state_dir;
  std::string state;
  std::int64_t session = 0;
};

std::function<int()> setup_notify(CLI::App& verb) {
  auto o = std::make_shared<NotifyOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("state", o->state, "waiting (you are needed) or finished (done)")
      ->required()
      ->check(CLI::IsMember({"waiting", "finished"}));
  verb.add_option("--session", o->session, "Session id (default: the one this runs in)")
      ->check(session_id_check());
  return [o] {
    boost::json::object args{{"state", o->state}};
    if (o->session > 0) args["session"] = o->session;
    auto answer = call_operation(o->state_dir, "notify", std::move(args));
    if (!answer) return report_failure(answer.error());
    return 0;
  };
}

}  // namespace

const Command kNotifyCommand{
    .name = "notify",
    .summary = "Light a session's tab: waiting for you, or finished",
    .setup = setup_notify,
};

}  // namespace wharf::cli
