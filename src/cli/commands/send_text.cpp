// `wharf send-text ID TEXT [--submit]`: types literal text into a session, as one
// bracketed paste when the program asked for it; escape sequences and control characters
// in TEXT are removed, so the text can never act as keys.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct SendTextOptions {
  std::string state_dir;
  std::int64_t id = 0;
  std::string text;
  bool submit = false;
  bool json = false;
};

std::function<int()> setup_send_text(CLI::App& verb) {
  auto o = std::make_shared<SendTextOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("id", o->id, "Session id (see `wharf ls`)")
      ->required()
      ->check(session_id_check());
  verb.add_option("text", o->text, "The text (quote it)")->required();
  verb.add_flag("--submit", o->submit, "Press Enter after the text");
  verb.add_flag("--json", o->json, "Print what was sent as JSON (bytes, bracketed, removed)");
  return [o] {
    auto answer = call_operation(o->state_dir, "send_text",
                                 {{"session", o->id}, {"text", o->text}, {"submit", o->submit}});
    if (!answer) return report_failure(answer.error());
    if (o->json) std::printf("%s\n", boost::json::serialize(answer.value().at("result")).c_str());
    return 0;
  };
}

}  // namespace

const Command kSendTextCommand{
    .name = "send-text",
    .summary = "Type literal text into a session",
    .setup = setup_send_text,
};

}  // namespace wharf::cli
