// wait_for: waits until a session's screen shows a pattern (an ECMAScript regular
// expression, searched in the visible lines joined by newlines), or until the session
// has printed nothing for idle_ms, or the timeout passes. It answers at once when the
// screen already matches; "idle" counts from the call, so output that was about to come
// is not missed.
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>
#include <regex>

#include "ops/arguments.hpp"
#include "ops/session_watch.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

constexpr std::int64_t kDefaultTimeoutMs = 30'000;
// A busy screen is searched at most this often.
constexpr auto kSearchInterval = std::chrono::milliseconds(50);

std::string visible_text(const app::Session& session) {
  std::string text;
  for (const std::string& line : session.screen().text(0).lines) text += line + "\n";
  return text;
}

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "wait_for");
  auto pattern = a.text("pattern");
  auto idle_ms = a.integer("idle_ms");
  auto timeout_ms = a.integer("timeout_ms").value_or(kDefaultTimeoutMs);
  if (a && pattern.has_value() == idle_ms.has_value())
    a.fail(bad_argument("give exactly one of 'pattern' (a regular expression) and 'idle_ms'"));
  std::optional<std::regex> regex;
  if (a && pattern) {
    try {
      regex.emplace(*pattern, std::regex::ECMAScript | std::regex::multiline);
    } catch (const std::regex_error& e) {
      a.fail(bad_argument("'pattern' is not a valid regular expression: " + std::string(e.what())));
    }
  }
  auto session = a.session(context, core::Access::kRead);
  if (!a) co_return a.error();

  auto started = Clock::now();
  auto deadline = started + std::chrono::milliseconds(timeout_ms);
  auto watch = SessionWatch::attach(session);
  auto waited = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
  };
  json::object answer{{"session", session->id()}};

  if (regex) {
    asio::steady_timer pause(session->executor());
    for (;;) {
      std::string text = visible_text(*session);
      std::smatch match;
      if (std::regex_search(text, match, *regex)) {
        auto row = std::count(text.begin(), text.begin() + match.position(0), '\n');
        answer["matched"] = true;
        answer["match"] = match.str(0);
        answer["row"] = row;
        break;
      }
      if (watch->ended() || session->finished() || Clock::now() >= deadline) {
        answer["matched"] = false;
        break;
      }
      pause.expires_at(std::min(deadline, Clock::now() + kSearchInterval));
      co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
      co_await watch->wait_until(deadline);
    }
  } else {
    auto idle = std::chrono::milliseconds(*idle_ms);
    for (;;) {
      auto quiet_since = std::max(started, session->last_output());
      if (Clock::now() - quiet_since >= idle) {
        answer["idle"] = true;
        break;
      }
      if (watch->ended() || session->finished() || Clock::now() >= deadline) {
        answer["idle"] = false;
        break;
      }
      co_await watch->wait_until(std::min(deadline, quiet_since + idle));
    }
  }
  bool satisfied =
      answer.contains("matched") ? answer.at("matched").get_bool() : answer.at("idle").get_bool();
  answer["timed_out"] = !satisfied && !watch->ended() && !session->finished();
  answer["session_ended"] = watch->ended() || session->finished();
  answer["waited_ms"] = waited();
  co_return answer;
}

std::string render(const json::object& answer) {
  std::string session = std::to_string(answer.at("session").to_number<std::int64_t>());
  if (const json::value* matched = answer.if_contains("matched"); matched && matched->get_bool())
    return "matched on row " + std::to_string(answer.at("row").to_number<std::int64_t>()) + ": " +
           std::string(answer.at("match").get_string()) + "\n";
  if (const json::value* idle = answer.if_contains("idle"); idle && idle->get_bool())
    return "session " + session + " is quiet\n";
  if (answer.at("session_ended").get_bool()) return "session " + session + " ended\n";
  return "timed out after " + std::to_string(answer.at("waited_ms").to_number<std::int64_t>()) +
         " ms\n";
}

}  // namespace

const Operation kWaitFor{
    .name = "wait_for",
    .title = "Wait for a screen",
    .description =
        "Waits until a session's screen shows text matching `pattern` (an ECMAScript regular "
        "expression searched in the visible lines, one per line), or until the session has "
        "printed nothing for idle_ms milliseconds (e.g. an agent or a build has settled); "
        "gives up after timeout_ms (default 30000) with timed_out=true. Give exactly one of "
        "pattern and idle_ms.",
    .input_schema = R"({"type":"object","properties":{
      "session":{"type":"integer","minimum":1,"description":"The session's id."},
      "pattern":{"type":"string","maxLength":1024,"description":"Regular expression to find on screen."},
      "idle_ms":{"type":"integer","minimum":10,"maximum":3600000,"description":"Quiet time to wait for."},
      "timeout_ms":{"type":"integer","minimum":1,"maximum":3600000,"description":"Default 30000."}},
      "required":["session"],"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "session":{"type":"integer"},
      "matched":{"type":"boolean","description":"With pattern: it was found."},
      "match":{"type":"string","description":"The text that matched."},
      "row":{"type":"integer","description":"The screen row where the match starts."},
      "idle":{"type":"boolean","description":"With idle_ms: the session went quiet."},
      "timed_out":{"type":"boolean"},
      "session_ended":{"type":"boolean"},
      "waited_ms":{"type":"integer"}},
      "required":["session","timed_out","session_ended","waited_ms"]})",
    .read_only = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
