// run_command: runs one command line in a shell session that has wharf's shell
// integration, and answers that command's output (without the echo of the line), its
// exit status and how long it took. The shell's OSC 133 marks say where the output
// starts and ends (core/command_capture.hpp); without them wharf says so rather than
// guess from the screen. With no session named, the shared shell is used.
//
// A command that outlives its timeout is left running (or interrupted with C-c when
// asked), and the answer says it timed out. Output is capped; the answer says when.
#include <boost/json.hpp>

#include "core/command_capture.hpp"
#include "core/paste_text.hpp"
#include "ops/arguments.hpp"
#include "ops/decisions.hpp"
#include "ops/session_watch.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

constexpr std::int64_t kDefaultTimeoutMs = 30'000;
constexpr std::int64_t kDefaultOutputBytes = 64 * 1024;
// A shell that was just started gets this long to print its first prompt.
constexpr auto kFirstPromptWait = std::chrono::seconds(15);
// How long a session must have been quiet (no input, no output) before a command is typed.
constexpr auto kSettle = std::chrono::milliseconds(100);
// After C-c, how long the interrupted command gets to give the prompt back.
constexpr auto kInterruptWait = std::chrono::seconds(3);

std::string session_label(const app::Session& session) {
  return "session " + std::to_string(session.id()) + " (" + session.program() + ")";
}

// Clears the flag however the coroutine leaves.
struct InFlight {
  explicit InFlight(std::shared_ptr<app::Session> s) : session(std::move(s)) {
    session->set_command_in_flight(true);
  }
  ~InFlight() { session->set_command_in_flight(false); }
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;
  std::shared_ptr<app::Session> session;
};

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "run_command");
  auto command = a.text("command");
  auto timeout_ms = a.integer("timeout_ms").value_or(kDefaultTimeoutMs);
  bool interrupt = a.flag("interrupt").value_or(false);
  auto max_output = a.integer("max_output_bytes").value_or(kDefaultOutputBytes);
  if (a && command) {
    bool blank = command->find_first_not_of(" \t") == std::string::npos;
    bool controls = false;
    for (char c : *command) {
      auto byte = static_cast<unsigned char>(c);
      controls = controls || byte < 0x20 || byte == 0x7f;
    }
    if (blank || controls)
      a.fail(
          bad_argument("'command' must be one non-empty command line, without newlines or control "
                       "characters (join several commands with ; or &&)"));
  }
  std::shared_ptr<app::Session> session;
  if (a.has("session")) {
    session = a.session(context, core::Access::kDrive);
  } else if (a) {
    auto shared = context.sessions.ensure_shared_shell();
    if (!shared) co_return shared.error();
    session = a.check_access(context, shared.value()->id(), core::Access::kDrive);
  }
  if (!a) co_return a.error();

  if (!session->shell_state().integrated)
    co_return core::Error{
        session_label(*session) +
            " has no shell integration, so wharf cannot tell where a command's output ends or "
            "how it exited; use send_text and wait_for there, or run_command in a bash or zsh "
            "session wharf started",
        "no_shell_integration"};
  if (session->command_in_flight())
    co_return core::Error{session_label(*session) + " is already running a command for run_command",
                          "busy"};

  auto started = Clock::now();
  auto deadline = started + std::chrono::milliseconds(timeout_ms);
  auto watch = SessionWatch::attach(session);
  InFlight in_flight(session);

  // A shell just started may not have printed its first prompt yet.
  auto ready_by = std::min(deadline, started + kFirstPromptWait);
  while (!session->shell_state().at_prompt && !watch->ended() && Clock::now() < ready_by)
    co_await watch->wait_until(ready_by);
  if (watch->ended() || session->ending())
    co_return core::Error{session_label(*session) + " has ended", "no_session"};
  if (!session->shell_state().at_prompt) {
    if (!session->shell_state().marks_seen)
      co_return core::Error{session_label(*session) +
                                " has printed no prompt mark yet (its startup files may have "
                                "replaced wharf's prompt hooks); use send_text and wait_for",
                            "no_shell_integration"};
    co_return core::Error{session_label(*session) +
                              " is running a command; wait for it (wait_for) or interrupt it "
                              "(send_keys C-c)",
                          "busy"};
  }

  // Keys typed a moment ago (a C-c that abandons a line) may still be at work in the shell's
  // line editor; what run_command types must not race them.
  while (!watch->ended() && Clock::now() < ready_by) {
    auto settled = session->last_activity() + kSettle;
    if (Clock::now() >= settled) break;
    co_await watch->wait_until(std::min(settled, ready_by));
  }
  if (!session->shell_state().at_prompt)
    co_return core::Error{session_label(*session) + " started running a command meanwhile", "busy"};

  core::CommandCapture capture(static_cast<std::size_t>(max_output));
  watch->on_chunk = [&capture](const app::OutputChunk& chunk) { capture.feed(*chunk); };
  // C-e C-u first (to the end of the line, then kill it all, in bash and zsh alike):
  // anything a person left half-typed at the prompt would join the command, wherever the
  // cursor was in it.
  std::string typed =
      "\x05\x15" + core::encode_paste(*command, session->screen().modes().bracketed_paste).bytes +
      "\r";
  if (!session->write_input(typed))
    co_return core::Error{session_label(*session) + " is not reading its input; nothing was sent",
                          "input_refused"};
  note_input(context.sessions, context.caller, session->id());
  auto typed_at = Clock::now();

  while (!capture.finished() && !watch->ended() && Clock::now() < deadline)
    co_await watch->wait_until(deadline);
  bool timed_out = !capture.finished() && !watch->ended();
  bool interrupted = false;
  if (timed_out && interrupt) {
    interrupted = session->write_input("\x03");
    auto grace = Clock::now() + kInterruptWait;
    while (interrupted && !capture.finished() && !watch->ended() && Clock::now() < grace)
      co_await watch->wait_until(grace);
  }
  watch->on_chunk = nullptr;

  auto duration =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - typed_at).count();
  json::object answer{
      {"session", session->id()},
      {"command", *command},
      {"output", capture.output().text()},
      {"exit_code", capture.exit_code() ? json::value(*capture.exit_code()) : json::value(nullptr)},
      {"duration_ms", duration},
      {"timed_out", timed_out},
      {"interrupted", interrupted},
      {"truncated", capture.output().truncated()},
      {"output_bytes", capture.output().plain_bytes()},
  };
  if (watch->ended() && !capture.finished()) answer["session_ended"] = true;
  co_return answer;
}

std::string render(const json::object& answer) {
  std::string text(answer.at("output").get_string());
  if (!text.empty() && text.back() != '\n') text += '\n';
  std::string session = std::to_string(answer.at("session").to_number<std::int64_t>());
  if (answer.at("timed_out").get_bool()) {
    text += answer.at("interrupted").get_bool()
                ? "[wharf: timed out; the command was interrupted with C-c in session " + session +
                      "]\n"
                : "[wharf: timed out; the command is still running in session " + session + "]\n";
  } else if (answer.contains("session_ended")) {
    text += "[wharf: session " + session + " ended before the command finished]\n";
  }
  if (const json::value& code = answer.at("exit_code"); !code.is_null())
    text += "[exit code " + std::to_string(code.to_number<std::int64_t>()) + "]\n";
  return text;
}

}  // namespace

const Operation kRunCommand{
    .name = "run_command",
    .title = "Run a command",
    .description =
        "Runs one shell command line in a bash or zsh session wharf started (default: the "
        "shared shell, which a person can watch live) and answers only that command's "
        "output, its exit_code and duration_ms. A person sees the command run. On timeout "
        "the command keeps running (timed_out=true; interrupt=true sends C-c instead). "
        "Output beyond max_output_bytes keeps its beginning and end (truncated=true). For "
        "interactive programs use send_text, send_keys and wait_for instead.",
    .input_schema = R"({"type":"object","properties":{
      "command":{"type":"string","maxLength":16384,"description":"One command line as the shell reads it (quote arguments yourself), e.g. \"make test 2>&1 | tail -n 50\"; at most 16384 bytes, no newlines."},
      "session":{"type":"integer","minimum":1,"description":"A shell session's id; default: the shared shell."},
      "timeout_ms":{"type":"integer","minimum":1,"maximum":3600000,"description":"Default 30000."},
      "interrupt":{"type":"boolean","description":"On timeout, press C-c rather than leave the command running."},
      "max_output_bytes":{"type":"integer","minimum":1024,"maximum":1048576,"description":"Default 65536."}},
      "required":["command"],"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "session":{"type":"integer"},
      "command":{"type":"string"},
      "output":{"type":"string","description":"The command's output (stdout and stderr as the terminal showed them)."},
      "exit_code":{"type":["integer","null"],"description":"null when it did not finish."},
      "duration_ms":{"type":"integer"},
      "timed_out":{"type":"boolean"},
      "interrupted":{"type":"boolean"},
      "truncated":{"type":"boolean","description":"Output beyond max_output_bytes was cut from the middle."},
      "output_bytes":{"type":"integer"},
      "session_ended":{"type":"boolean"}},
      "required":["session","command","output","exit_code","duration_ms","timed_out","interrupted","truncated","output_bytes"]})",
    .destructive = true,
    .open_world = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
