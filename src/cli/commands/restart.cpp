// `wharf restart`: the daemon starts again on the wharf binary now on disk (after an
// upgrade, a rebuild), on the same port with the same key, and takes its sessions back
// from their hosts: programs run on, open pages reconnect. Waits until the new daemon
// answers and says how many sessions it kept.
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

constexpr auto kBackWithin = std::chrono::seconds(20);

std::function<int()> setup_restart(CLI::App& verb) {
  auto state_dir = std::make_shared<std::string>();
  add_state_dir_option(verb, *state_dir);
  return [state_dir] {
    auto asked = call_daemon(*state_dir, {{"verb", "restart"}});
    if (!asked) return report_failure(asked.error());
    auto deadline = std::chrono::steady_clock::now() + kBackWithin;
    // The old daemon answers until it has let go; the new one is the first to answer
    // after the socket went away and came back.
    bool went_away = false;
    while (std::chrono::steady_clock::now() < deadline) {
      auto listed = call_operation(*state_dir, "list_sessions", {});
      if (!listed) {
        went_away = true;
      } else if (went_away) {
        const boost::json::object& result = listed.value().at("result").as_object();
        std::size_t kept = 0;
        if (const auto* list = result.if_contains("sessions"); list && list->is_array())
          kept = list->as_array().size();
        std::printf("wharf restarted; %zu session(s) running\n", kept);
        return 0;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return report_failure(core::Error{"wharf did not come back within 20 s: see its log"});
  };
}

}  // namespace

const Command kRestartCommand{
    .name = "restart",
    .summary = "Restart the daemon on the binary now on disk, keeping every session",
    .setup = setup_restart,
};

}  // namespace wharf::cli
