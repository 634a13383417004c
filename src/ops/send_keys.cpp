// send_keys: presses keys in a session, named as tmux names them (Enter, C-c, M-x, Up,
// F5, PageDown, or one character). Every name is checked first: one unknown name and
// nothing at all is sent.
#include <boost/json.hpp>

#include "core/key_names.hpp"
#include "ops/arguments.hpp"
#include "ops/decisions.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "send_keys");
  std::vector<std::string> keys = a.texts("keys");
  auto session = a.session(context, core::Access::kDrive);
  if (!a) co_return a.error();
  const core::InputModes& modes = session->screen().modes();
  auto bytes =
      core::encode_keys(keys, core::KeyModes{.application_cursor = modes.application_cursor,
                                             .application_keypad = modes.application_keypad});
  if (!bytes) co_return bytes.error();
  if (!session->write_input(bytes.value()))
    co_return core::Error{"session " + std::to_string(session->id()) +
                              " is not reading its input (or is ending); nothing was sent",
                          "input_refused"};
  note_input(context.sessions, context.caller, session->id());
  co_return json::object{
      {"session", session->id()}, {"keys", keys.size()}, {"bytes", bytes.value().size()}};
}

std::string render(const json::object& answer) {
  return "sent " + std::to_string(answer.at("keys").to_number<std::int64_t>()) +
         " key(s) to session " + std::to_string(answer.at("session").to_number<std::int64_t>()) +
         "\n";
}

}  // namespace

const Operation kSendKeys{
    .name = "send_keys",
    .title = "Press keys",
    .description =
        "Presses keys in a session, in order. Keys are tmux names: Enter, Tab, BTab, Escape, "
        "Space, BSpace, Up, Down, Left, Right, Home, End, PageUp, PageDown, IC, DC, F1-F12, "
        "with C- (Ctrl), M- (Alt) and S- (Shift) prefixes (C-c interrupts, C-d ends input), "
        "or a single character. To type text, use send_text.",
    .input_schema = R"({"type":"object","properties":{
      "session":{"type":"integer","minimum":1,"description":"The session's id."},
      "keys":{"type":"array","items":{"type":"string","maxLength":32},"minItems":1,"maxItems":64,
              "description":"Key names, e.g. [\"C-c\"] or [\"Down\", \"Enter\"]."}},
      "required":["session","keys"],"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "session":{"type":"integer"},
      "keys":{"type":"integer","description":"Keys pressed."},
      "bytes":{"type":"integer","description":"Bytes written to the program."}},
      "required":["session","keys","bytes"]})",
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
