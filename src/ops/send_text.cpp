// send_text: types literal text into a session. Control characters and escape sequences
// in it are removed whole, and when the program asked for bracketed paste the text goes as
// one paste that nothing inside can close early (core/paste_text.hpp): text can never act
// as keys the caller did not name. Enter comes only from `submit` (or send_keys Enter).
//
// A line break is the one part of text a terminal cannot tell from a key: outside a
// bracketed paste it is exactly the CR that Enter sends. So text with line breaks goes in
// only when the program has turned bracketed paste on (a shell at its prompt, most
// agents); otherwise it is refused whole, nothing typed, with a message saying how to send
// it line by line. Every door (CLI, /api/v1, MCP) reaches this one check.
#include <boost/json.hpp>

#include "core/paste_text.hpp"
#include "ops/arguments.hpp"
#include "ops/decisions.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "send_text");
  auto text = a.text("text");
  bool submit = a.flag("submit").value_or(false);
  auto session = a.session(context, core::Access::kDrive);
  if (!a) co_return a.error();
  bool bracketed = session->screen().modes().bracketed_paste;
  core::PastedText pasted = core::encode_paste(*text, bracketed);
  if (!bracketed && pasted.line_breaks > 0)
    co_return core::Error{
        "the text has " + std::to_string(pasted.line_breaks) +
            " line break(s), and the program in session " + std::to_string(session->id()) +
            " has not turned on bracketed paste, so each would act as Enter; nothing was "
            "sent. Send one line at a time (submit=true presses Enter after it), or press "
            "keys with send_keys",
        "needs_bracketed_paste"};
  if (submit) pasted.bytes += '\r';
  if (!session->write_input(pasted.bytes))
    co_return core::Error{"session " + std::to_string(session->id()) +
                              " is not reading its input (or is ending); nothing was sent",
                          "input_refused"};
  note_input(context.sessions, context.caller, session->id());
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
        "Types text into a session as one paste. Text is only ever text: control characters "
        "and escape sequences are removed, and Enter is pressed only when submit=true (after "
        "the text: to send a message to an agent or run a line in a shell). Text with line "
        "breaks is accepted only when the program has turned on bracketed paste (shells at "
        "their prompt and most agents do); otherwise it is refused with code "
        "needs_bracketed_paste and nothing is typed: send one line at a time. For keys such "
        "as Enter, C-c or Up, use send_keys.",
    .input_schema = R"({"type":"object","properties":{
      "session":{"type":"integer","minimum":1,"description":"The session's id."},
      "text":{"type":"string","maxLength":65536,"description":"The text (at most 65536 bytes). Line breaks only where the program has bracketed paste on."},
      "submit":{"type":"boolean","description":"Press Enter after the text."}},
      "required":["session","text"],"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "session":{"type":"integer"},
      "bytes":{"type":"integer","description":"Bytes written to the program."},
      "bracketed":{"type":"boolean","description":"Sent as a bracketed paste."},
      "removed":{"type":"integer","description":"Characters of control codes removed."},
      "submitted":{"type":"boolean"}},
      "required":["session","bytes","bracketed","removed","submitted"]})",
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
