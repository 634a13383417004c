// `wharf run [--session SESSION] [--timeout S] [--interrupt] [--json] -- PROGRAM ARG...`: runs one
// command in a shell session with wharf's shell integration (default: the shared shell),
// prints that command's output and exits with its exit status; 124 when it timed out (the
// command keeps running unless --interrupt), like timeout(1).
//
// The words after -- are the command's argv, exactly: each is quoted for the shell
// (core/shell_quote.hpp), so `wharf run -- sh -c 'exit 7'` exits 7 and `echo 'a    b'`
// keeps its spaces. A line for the shell to read, pipes and all, goes in `-c LINE`.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"
#include "core/shell_quote.hpp"

namespace wharf::cli {
namespace {

constexpr int kTimedOutExit = 124;

struct RunOptions {
  std::string state_dir;
  std::string session;
  double timeout = 30;
  bool interrupt = false;
  bool json = false;
  std::int64_t max_output = 0;
  std::vector<std::string> command;
  std::string line;
};

std::function<int()> setup_run(CLI::App& verb) {
  auto o = std::make_shared<RunOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("-t,--session", o->session,
                  "Shell session, id or name (default: the shared shell)");
  verb.add_option("--timeout", o->timeout, "Seconds to wait for the command (default 30)")
      ->check(decimal_number(0.001, 3600.0));
  verb.add_flag("--interrupt", o->interrupt, "On timeout, press C-c in the session");
  verb.add_option("--max-output", o->max_output, "Bytes of output kept (default 65536)")
      ->check(whole_number(1024, 1 << 20));
  verb.add_flag("--json", o->json,
                "Print output, exit_code, duration_ms, timed_out and truncated as JSON");
  auto* line = verb.add_option("-c,--line", o->line,
                               "A command line for the shell to read as it is (pipes, ;, $VAR)");
  verb.add_option("command", o->command,
                  "The program and its arguments (after --), each passed exactly as given")
      ->excludes(line);
  verb.footer(R"(Examples:
  wharf run -- make test
  wharf run -t build --timeout 600 -- cargo build --release
  wharf run -c 'grep -c TODO src/*.cpp | sort -t: -k2 -n'
  wharf run --json -- ls -la | jq .exit_code)");
  return [o] {
    if (o->command.empty() && o->line.empty()) {
      std::fprintf(stderr,
                   "wharf run: name the command after -- (wharf run -- make test) or give a "
                   "shell line with -c (wharf run -c 'make test | tail')\n");
      return 2;
    }
    // The words as typed when all of them came after --: CLI11 strips a word like
    // "[%s]" down to "%s".
    std::vector<std::string> words = o->command;
    if (auto raw = words_after_dashes(); raw.size() == words.size()) words = std::move(raw);
    std::string command = o->command.empty() ? o->line : core::shell_command_line(words);
    boost::json::object args{{"command", command},
                             {"timeout_ms", static_cast<std::int64_t>(o->timeout * 1000)},
                             {"interrupt", o->interrupt}};
    if (!o->session.empty()) {
      auto id = resolve_target(o->state_dir, o->session);
      if (!id) return report_failure(id.error());
      args["session"] = id.value();
    }
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
