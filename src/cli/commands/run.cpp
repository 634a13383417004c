// `wharf run [--session ID] [--timeout S] [--interrupt] [--json] -- COMMAND...`: runs one
// command line in a shell session with wharf's shell integration (default: the shared
// shell), prints that command's output and exits with its exit status; 124 when it timed
// out (the command keeps running unless --interrupt), like timeout(1).
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

constexpr int kTimedOutExit = 124;

struct RunOptions {
  std::string state_dir;
  std::int64_t session = 0;
  double timeout = 30;
  bool interrupt = false;
  bool json = false;
  std::int64_t max_output = 0;
  std::vector<std::string> command;
};

std::function<int()> setup_run(CLI::App& verb) {
  auto o = std::make_shared<RunOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("--session", o->session, "Shell session id (default: the shared shell)")
      ->check(session_id_check());
  verb.add_option("--timeout", o->timeout, "Seconds to wait for the command (default 30)")
      ->check(CLI::Range(0.001, 3600.0));
  verb.add_flag("--interrupt", o->interrupt, "On timeout, press C-c in the session");
  verb.add_option("--max-output", o->max_output, "Bytes of output kept (default 65536)")
      ->check(CLI::Range(1024, 1 << 20));
  verb.add_flag("--json", o->json,
                "Print output, exit_code, duration_ms, timed_out and truncated as JSON");
  verb.add_option("command", o->command, "The command line (after --)")->required();
  return [o] {
    std::string line;
    for (const std::string& word : o->command) line += (line.empty() ? "" : " ") + word;
    boost::json::object args{{"command", line},
                             {"timeout_ms", static_cast<std::int64_t>(o->timeout * 1000)},
                             {"interrupt", o->interrupt}};
    if (o->session > 0) args["session"] = o->session;
    if (o->max_output > 0) args["max_output_bytes"] = o->max_output;
    auto answer = call_operation(o->state_dir, "run_command", std::move(args));
    if (!answer) return report_failure(answer.error());
    const boost::json::object& result = answer.value().at("result").as_object();
    if (o->json) {
      std::printf("%s\n", boost::json::serialize(result).c_str());
    } else {
      std::string output(result.at("output").as_string());
      std::fwrite(output.data(), 1, output.size(), stdout);
      if (result.at("timed_out").as_bool())
        std::fprintf(
            stderr, "wharf: the command timed out after %g s; %s in session %lld\n", o->timeout,
            result.at("interrupted").as_bool() ? "it was interrupted" : "it is still running",
            static_cast<long long>(result.at("session").to_number<std::int64_t>()));
      else if (result.contains("session_ended"))
        std::fprintf(stderr, "wharf: the session ended before the command finished\n");
    }
    if (result.at("timed_out").as_bool()) return kTimedOutExit;
    const auto& code = result.at("exit_code");
    return code.is_null() ? 1 : static_cast<int>(code.to_number<std::int64_t>());
  };
}

}  // namespace

const Command kRunCommand{
    .name = "run",
    .summary = "Run a command in a shell session; print its output, exit with its status",
    .setup = setup_run,
};

}  // namespace wharf::cli
