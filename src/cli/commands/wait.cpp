// `wharf wait ID (--for REGEX | --idle MS) [--timeout S] [--json]`: waits until the
// session's screen shows REGEX, or until it has printed nothing for MS milliseconds.
// Exits 0 when that happened, 124 on timeout, 1 when the session ended first.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

constexpr int kTimedOutExit = 124;

struct WaitOptions {
  std::string state_dir;
  std::int64_t id = 0;
  std::string pattern;
  std::int64_t idle_ms = 0;
  double timeout = 30;
  bool json = false;
};

std::function<int()> setup_wait(CLI::App& verb) {
  auto o = std::make_shared<WaitOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("id", o->id, "Session id (see `wharf ls`)")
      ->required()
      ->check(session_id_check());
  auto* pattern = verb.add_option("--for", o->pattern, "Regular expression to wait for on screen");
  auto* idle = verb.add_option("--idle", o->idle_ms, "Wait until the session is quiet this many ms")
                   ->check(CLI::Range(10, 3'600'000));
  pattern->excludes(idle);
  verb.add_option("--timeout", o->timeout, "Seconds before giving up (default 30)")
      ->check(CLI::Range(0.001, 3600.0));
  verb.add_flag("--json", o->json, "Print the answer as JSON");
  return [o] {
    boost::json::object args{{"session", o->id},
                             {"timeout_ms", static_cast<std::int64_t>(o->timeout * 1000)}};
    if (!o->pattern.empty()) args["pattern"] = o->pattern;
    if (o->idle_ms > 0) args["idle_ms"] = o->idle_ms;
    auto answer = call_operation(o->state_dir, "wait_for", std::move(args));
    if (!answer) return report_failure(answer.error());
    const boost::json::object& result = answer.value().at("result").as_object();
    if (o->json)
      std::printf("%s\n", boost::json::serialize(result).c_str());
    else
      std::fputs(std::string(answer.value().at("text").as_string()).c_str(), stdout);
    if (result.at("timed_out").as_bool()) return kTimedOutExit;
    return result.at("session_ended").as_bool() ? 1 : 0;
  };
}

}  // namespace

const Command kWaitCommand{
    .name = "wait",
    .summary = "Wait for text on a session's screen, or for it to go quiet",
    .setup = setup_wait,
};

}  // namespace wharf::cli
