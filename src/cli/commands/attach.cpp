// `wharf attach SESSION [--state-dir DIR]`: this terminal becomes a window on SESSION, as
// a browser tab is one (attach_client.cpp is the window). Refused before anything else
// when stdin is not a terminal: there is nothing to put in raw mode and nobody to type.
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "cli/attach_client.hpp"
#include "cli/attach_connection.hpp"
#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct AttachOptions {
  std::string state_dir;
  std::string target;
};

constexpr const char* kAttachHelp =
    R"(This terminal becomes a window on SESSION (an id or a name), like a browser tab: the session's screen
is drawn here and what you type goes to its program. It never starts a session: an id
that is not running is an error.

The first window on a session drives it (its typing and its size reach the program);
later windows watch: their typing is ignored and a notice says so. While attached:
  Ctrl-] d        detach: leave the session running and exit
  Ctrl-] t        take over driving from the window that drives now
  Ctrl-] r        redraw the whole screen from the daemon's copy
  Ctrl-] Ctrl-]   send a Ctrl-] to the program
While driving, the session's terminal follows this terminal's size.

Leaving (detach, the session ending, the daemon going away) resets what the program
set on this terminal (alternate screen, cursor, mouse, bracketed paste, focus and key
modes), restores its settings and prints why. Exit status: 0 after a detach or when the
session ended, 1 on errors (no daemon, no such session, connection lost, a signal), 2
when stdin is not a terminal.

Examples:
  wharf attach 3
  wharf attach -t build)";

std::function<int()> setup_attach(CLI::App& verb) {
  auto o = std::make_shared<AttachOptions>();
  add_state_dir_option(verb, o->state_dir);
  add_target(verb, o->target);
  verb.footer(kAttachHelp);
  return [o] {
    if (o->target.empty())
      return usage_error("attach needs a session: an id or a name from `wharf ls`");
    if (isatty(STDIN_FILENO) != 1) {
      std::fprintf(stderr,
                   "wharf: attach needs a terminal on stdin; from a script, "
                   "`wharf read-screen %s` reads the session's screen\n",
                   o->target.c_str());
      return 2;
    }
    auto address = read_daemon_address(o->state_dir);
    if (!address) {
      std::fprintf(stderr, "wharf: %s\n", address.error().message.c_str());
      return 1;
    }
    auto id = resolve_target(o->state_dir, o->target);
    if (!id) return report_failure(id.error());
    return run_attach_client(std::move(address.value()), id.value());
  };
}

}  // namespace

const Command kAttachCommand{
    .name = "attach",
    .summary = "Show a session in this terminal and type into it (Ctrl-] d detaches)",
    .setup = setup_attach,
};

}  // namespace wharf::cli
