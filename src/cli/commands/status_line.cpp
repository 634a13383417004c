// `wharf status-line`: the command Claude Code runs as its status line in a session wharf
// started (wharf hands it `--settings` with a statusLine pointing here; docs/agents.md).
// Claude writes JSON about itself on stdin on every prompt render; this hands the fields
// the status strip shows to the daemon, which takes them for the session this runs in
// (the caller's pid, like `wharf notify`), and prints the same fields as one short line
// for Claude to show under its prompt (where it would otherwise show its "? for
// shortcuts" hint), so `wharf attach` and a bare terminal see them too; --quiet prints
// nothing (Claude then shows its "← for agents" hint there).
//
// Hidden from help: nobody types it. It never fails Claude's status line: a refusal goes
// to stderr, the line is printed whatever the daemon says, and the exit
// status is 0 unless stdin was not JSON at all.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"
#include "core/session_status.hpp"

namespace wharf::cli {
namespace {

// The parts of Claude's JSON the strip reads (core::parse_claude_status); the rest (the
// transcript path, the workspace, ...) never leaves this process.
constexpr std::string_view kKeptFields[] = {"model", "effort",         "version",
                                            "cost",  "context_window", "rate_limits"};

std::function<int()> setup_status_line(CLI::App& verb) {
  auto state_dir = std::make_shared<std::string>();
  auto agent = std::make_shared<std::string>("claude");
  auto quiet = std::make_shared<bool>(false);
  add_state_dir_option(verb, *state_dir);
  verb.add_flag("--quiet", *quiet, "Print nothing (by default: the numbers as one line)");
  verb.add_option("--agent", *agent, "Whose status line JSON comes on stdin")
      ->check(CLI::IsMember({"claude"}));
  verb.group("");  // hidden
  return [state_dir, agent, quiet] {
    std::string input;
    char buffer[4096];
    while (input.size() <= core::kMaxStatusPayloadBytes) {
      std::size_t n = std::fread(buffer, 1, sizeof buffer, stdin);
      if (n == 0) break;
      input.append(buffer, n);
    }
    if (input.size() > core::kMaxStatusPayloadBytes)
      return report_failure({"the status line's JSON is over 64 KiB", "bad_argument"});
    boost::system::error_code ec;
    boost::json::value payload = boost::json::parse(input, ec);
    std::optional<core::AgentReport> report;
    if (!ec) report = core::parse_claude_status(payload);
    if (!report)
      return report_failure({"stdin is not a status line's JSON object", "bad_argument"});
    boost::json::object kept;
    for (std::string_view name : kKeptFields)
      if (const boost::json::value* v = payload.get_object().if_contains(name)) kept[name] = *v;
    if (!*quiet) {
      std::printf("%s\n", core::report_line(*report).c_str());
      std::fflush(stdout);
    }
    auto answer = call_daemon(
        *state_dir, {{"verb", "status_report"}, {"agent", *agent}, {"payload", std::move(kept)}});
    if (!answer) std::fprintf(stderr, "wharf: %s\n", answer.error().message.c_str());
    return 0;
  };
}

}  // namespace

const Command kStatusLineCommand{
    .name = "status-line",
    .summary = "(for agents) hand an agent's status line to its session's status strip",
    .setup = setup_status_line,
};

}  // namespace wharf::cli
