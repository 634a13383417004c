// `wharf notify waiting|finished [--session SESSION]`: lights the session's tab in every
// window at once, for agents' hooks (Claude Code: a Notification hook running
// `wharf notify waiting`, a Stop hook running `wharf notify finished`). Inside a session
// it marks that session. Codex runs `wharf notify finished --from-codex JSON` at the end of
// each turn (docs/agents.md).
#include <cstdlib>
#include <memory>

#include "cli/channel_client.hpp"
#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct NotifyOptions {
  std::string state_dir;
  std::string state;
  std::string session;
  bool from_codex = false;
  std::string codex_event;  // Codex's JSON, added as the last argument; not read
};

std::function<int()> setup_notify(CLI::App& verb) {
  auto o = std::make_shared<NotifyOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("state", o->state, "waiting (you are needed) or finished (done)")
      ->required()
      ->check(CLI::IsMember({"waiting", "finished"}));
  verb.add_option("-t,--session", o->session,
                  "The session, id or name (default: the one this runs in)");
  // Codex's `notify` program (core/catalog.cpp passes `-c notify=[...]`) gets the event
  // as one more argument: taken and ignored, since the turn ending is all wharf needs.
  // Hidden: only wharf's own launch line uses it.
  verb.add_flag("--from-codex", o->from_codex, "Run as Codex's notify program")->group("");
  verb.add_option("codex_event", o->codex_event, "Codex's event (JSON), ignored")->group("");
  verb.footer(R"(Examples:
  wharf notify waiting
  wharf notify finished -t build)");
  return [o] {
    if (!o->codex_event.empty() && !o->from_codex) {
      return report_failure(core::Error("wharf notify takes one state, waiting or finished"));
    }
    // Inside a sandbox there is no control socket: the session channel carries it, and
    // marks the session the sandbox belongs to (--session names no other).
    if (const char* channel = std::getenv("WHARF_CHANNEL"); channel != nullptr && *channel) {
      core::ChannelNotify notify{o->state == "finished" ? core::ChannelNotifyState::finished
                                                        : core::ChannelNotifyState::waiting,
                                 {}};
      if (auto sent = channel_notify(channel, notify); !sent) return report_failure(sent.error());
      return 0;
    }
    boost::json::object args{{"state", o->state}};
    if (!o->session.empty()) {
      auto id = resolve_target(o->state_dir, o->session);
      if (!id) return report_failure(id.error());
      args["session"] = id.value();
    }
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
