// `wharf wait SESSION (--for REGEX | --idle MS) [--timeout S] [--json]`: waits until the
// session's screen shows REGEX, or until it has printed nothing for MS milliseconds.
// Exits 0 when that happened, 124 on timeout, 1 when the session ended first; what went
// wrong (the timeout, the end) is said on stderr, so stdout carries only the answer.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

constexpr int kTimedOutExit = 124;

struct WaitOptions {
  std::string state_dir;
  std::string target;
  std::string pattern;
  std::int64_t idle_ms = 0;
  double timeout = 30;
  bool json = false;
};

std::function<int()> setup_wait(CLI::App& verb) {
  auto o = std::make_shared<WaitOptions>();
  add_state_dir_option(verb, o->state_dir);
  add_target(verb, o->target);
  auto* pattern = verb.add_option("--for", o->pattern, "Regular expression to wait for on screen");
  auto* idle = verb.add_option("--idle", o->idle_ms, "Wait until the session is quiet this many ms")
                   ->check(whole_number(10, 3'600'000));
  pattern->excludes(idle);
  verb.add_option("--timeout", o->timeout, "Seconds before giving up (default 30)")
      ->check(decimal_number(0.001, 3600.0));
  verb.add_flag("--json", o->json, "Print the answer as JSON");
  verb.footer(R"(Examples:
  wharf wait 3 --for '\$ $' --timeout 10
  wharf wait -t build --for 'BUILD (OK|FAILED)' && wharf read-screen -t build
  wharf wait 3 --idle 2000)");
  return [o] {
    if (o->pattern.empty() && o->idle_ms == 0)
      return usage_error("wait needs --for REGEX or --idle MS");
    auto id = resolve_target(o->state_dir, o->target);
    if (!id) return report_failure(id.error());
    boost::json::object args{{"session", id.value()},
                             {"timeout_ms", static_cast<std::int64_t>(o->timeout * 1000)}};
    if (!o->pattern.empty()) args["pattern"] = o->pattern;
    if (o->idle_ms > 0) args["idle_ms"] = o->idle_ms;
    auto answer = call_operation(o->state_dir, "wait_for", std::move(args));
    if (!answer) return report_failure(answer.error());
    const boost::json::object& result = answer.value().at("result").as_object();
    bool timed_out = result.at("timed_out").as_bool();
    bool ended = result.at("session_ended").as_bool();
    std::string text(answer.value().at("text").as_string());
    if (o->json)
      std::printf("%s\n", boost::json::serialize(result).c_str());
    else if (timed_out || ended)
      // A timeout or an ended session is a failure: said on stderr, like every failure.
      std::fprintf(stderr, "wharf: %s", text.c_str());
    else
      std::fputs(text.c_str(), stdout);
    if (timed_out) return kTimedOutExit;
    return ended ? 1 : 0;
  };
}

}  // namespace

const Command kWaitCommand{
    .name = "wait",
    .summary = "Wait for text on a session's screen, or for it to go quiet",
    .setup = setup_wait,
};

}  // namespace wharf::cli
