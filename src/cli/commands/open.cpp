// `wharf open`: prints the current address (with its key) of the running daemon, read
// from the owner-only URL file the daemon writes once it listens. The daemon must answer
// on its control socket too: a URL file a dead daemon left says nothing useful.
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "app/state_paths.hpp"
#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

std::function<int()> setup_open(CLI::App& verb) {
  auto state_dir = std::make_shared<std::string>();
  add_state_dir_option(verb, *state_dir);
  return [state_dir] {
    auto paths = app::resolve_state_paths(
        state_dir->empty() ? std::nullopt : std::optional<std::filesystem::path>(*state_dir));
    std::ifstream in(paths.url_file());
    std::string url;
    if (!in || !std::getline(in, url) || url.empty()) {
      std::fprintf(stderr, "wharf: no running daemon found (no %s); start one with `wharf serve`\n",
                   paths.url_file().c_str());
      return 1;
    }
    if (auto answered = call_daemon(*state_dir, {{"verb", "cwd"}}); !answered) {
      std::fprintf(stderr,
                   "wharf: the daemon that served %s is not answering (%s); start one with "
                   "`wharf serve`\n",
                   url.substr(0, url.find("?k=")).c_str(), answered.error().message.c_str());
      return 1;
    }
    std::printf("%s\n", url.c_str());
    return 0;
  };
}

}  // namespace

const Command kOpenCommand{
    .name = "open",
    .summary = "Print the address (with its key) of the running daemon",
    .setup = setup_open,
};

}  // namespace wharf::cli
