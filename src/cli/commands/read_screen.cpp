// `wharf read-screen ID [--scrollback N] [--json]`: the session's screen as text, from
// the daemon's screen model (what a window attaching now would see).
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct ReadOptions {
  std::string state_dir;
  std::int64_t id = 0;
  std::int64_t scrollback = 0;
  bool json = false;
};

std::function<int()> setup_read_screen(CLI::App& verb) {
  auto o = std::make_shared<ReadOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("id", o->id, "Session id (see `wharf ls`)")
      ->required()
      ->check(CLI::PositiveNumber);
  verb.add_option("--scrollback", o->scrollback, "Also print this many lines of scrollback")
      ->check(CLI::NonNegativeNumber);
  verb.add_flag("--json", o->json, "JSON with lines, cursor, size, title and alternate_screen");
  return [o] {
    auto answer = call_daemon(
        o->state_dir, {{"verb", "read-screen"}, {"id", o->id}, {"scrollback", o->scrollback}});
    if (!answer) return report_failure(answer.error());
    boost::json::object& screen = answer.value();
    if (o->json) {
      screen.erase("ok");
      std::printf("%s\n", boost::json::serialize(screen).c_str());
      return 0;
    }
    for (const auto& line : screen.at("scrollback").as_array())
      std::printf("%s\n", std::string(line.as_string()).c_str());
    // Trailing empty rows say nothing; the screen's text ends with its last content.
    const auto& lines = screen.at("lines").as_array();
    std::size_t end = lines.size();
    while (end > 0 && lines[end - 1].as_string().empty()) --end;
    for (std::size_t i = 0; i < end; ++i)
      std::printf("%s\n", std::string(lines[i].as_string()).c_str());
    return 0;
  };
}

}  // namespace

const Command kReadScreenCommand{
    .name = "read-screen",
    .summary = "Print a session's screen as text",
    .setup = setup_read_screen,
};

}  // namespace wharf::cli
