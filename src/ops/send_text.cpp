// send_text: types literal text into a session. Control characters and escape sequences
// in it are removed, and when the program asked for bracketed paste the text goes as one
// paste that nothing inside can close early (core/paste_text.hpp): text can never act as
// keys the caller did not name. `submit` presses Enter after it.
#include <boost/json.hpp>

#include "core/paste_text.hpp"
#include "ops/arguments.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

constexpr std::size_t kMaxTextBytes = 64 * 1024;

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, {"session", "text", "submit"});
  auto text = a.text("text", kMaxTextBytes, true);
  bool submit = a.flag("submit").value_or(false);
  auto session = a.session(context, core::Access::kDrive);
  if (!a) co_return a.error();
  bool bracketed = session->screen().modes().bracketed_paste;
  core::PastedText pasted = core::encode_paste(*text, bracketed);
  if (submit) pasted.bytes += '\r';
  if (!session->write_input(pasted.bytes))
    co_return core::Error{"session " + std::to_string(session->id()) +
                              " is not reading its input (or is ending); nothing was sent",
                          "input_refused"};
  co_return json::object{{"session", session->id()},
                         {"bytes", pasted.bytes.size()},
                         {"bracketed", bracketed},
                         {"removed", pasted.removed},
                         {"submitted", submit}};
}

std::string render(const json::object& answer) {
  std::string text = "typed " + std::to_string(answer.at("bytes").to_number<std::int64_t>()) +
                     " bytes into session " +
                     std::to_string(answer.at("session").to_number<std::int64_t>());
  if (auto removed = answer.at("removed").to_number<std::int64_t>(); removed > 0)
    text += " (" + std::to_string(removed) + " character(s) of control codes removed)";
  return text + "\n";
}

}  // namespace

const Operation kSendText{
    .name = "send_text",
    .title = "Type text",
    .description =
        "Types text into a session as if pasted: control characters and escape sequences are "
        "removed, so text never acts as keys. Newlines are kept. submit=true presses Enter "
        "afterwards (to send a message to an agent or run a line in a shell). For keys such "
        "as C-c or Up, use send_keys.",
    .input_schema = R"({"type":"object","properties":{
      "session":{"type":"integer","minimum":1,"description":"The session's id."},
      "text":{"type":"string","maxLength":65536},
      "submit":{"type":"boolean","description":"Press Enter after the text."}},
      "required":["session","text"],"additionalProperties":false})",
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
