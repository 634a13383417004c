// `wharf read-screen SESSION [--scrollback N] [--since SEQ] [--json]`: the session's screen as
// text, from the daemon's screen model (what a window attaching now would see). --since
// takes the `seq` an earlier --json read printed and prints only the rows changed since.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct ReadOptions {
  std::string state_dir;
  std::string target;
  std::int64_t scrollback = 0;
  std::int64_t since = -1;
  bool json = false;
};

std::function<int()> setup_read_screen(CLI::App& verb) {
  auto o = std::make_shared<ReadOptions>();
  add_state_dir_option(verb, o->state_dir);
  add_target(verb, o->target);
  verb.add_option("--scrollback", o->scrollback, "Also print this many lines of scrollback")
      ->check(whole_number(0, 1'000'000));
  verb.add_option("--since", o->since,
                  "Only the rows changed since this seq (printed by an earlier --json read)")
      ->check(whole_number(0, INT64_MAX));
  verb.add_flag("--json", o->json,
                "JSON with lines, cursor, size, title, alternate_screen and seq");
  verb.footer(R"(Examples:
  wharf read-screen 3
  wharf read-screen -t build --scrollback 200
  wharf read-screen 3 --json | jq -r .seq)");
  return [o] {
    auto id = resolve_target(o->state_dir, o->target);
    if (!id) return report_failure(id.error());
    boost::json::object args{{"session", id.value()}};
    if (o->scrollback > 0) args["scrollback"] = o->scrollback;
    if (o->since >= 0) args["since"] = o->since;
    auto answer = call_operation(o->state_dir, "read_screen", std::move(args));
    if (!answer) return report_failure(answer.error());
    boost::json::object& screen = answer.value().at("result").as_object();
    if (o->json) {
      std::printf("%s\n", boost::json::serialize(screen).c_str());
      return 0;
    }
    if (o->since >= 0) {
      std::fputs(std::string(answer.value().at("text").as_string()).c_str(), stdout);
      return 0;
    }
    if (const auto* back = screen.if_contains("scrollback"))
      for (const auto& line : back->as_array())
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
