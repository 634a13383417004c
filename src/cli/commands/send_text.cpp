// `wharf send-text SESSION TEXT [--submit]` (or `-t SESSION TEXT`): types literal text into a
// session, as one bracketed paste when the program asked for it; escape sequences and control
// characters in TEXT are removed, so the text can never act as keys: Enter comes only from
// --submit, and text with line breaks is refused by the daemon when the program has not turned on
// bracketed paste (docs/api.md, send_text).
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct SendTextOptions {
  std::string state_dir;
  std::string target;
  // `SESSION TEXT`, or `TEXT` after -t: two single words, never a CLI11 list (which
  // would take a text like "[a,b]" apart).
  std::string first;
  std::string second;
  bool submit = false;
  bool json = false;
};

std::function<int()> setup_send_text(CLI::App& verb) {
  auto o = std::make_shared<SendTextOptions>();
  add_state_dir_option(verb, o->state_dir);
  add_target(verb, o->target, /*positional=*/false);
  verb.add_option("session", o->first, "The session (id or name), unless -t names it")->required();
  CLI::Option* text_given = verb.add_option("text", o->second, "The text (quote it)");
  verb.add_flag("--submit", o->submit, "Press Enter after the text");
  verb.add_flag("--json", o->json, "Print what was sent as JSON (bytes, bracketed, removed)");
  verb.footer(R"(Examples:
  wharf send-text 3 'make test' --submit
  wharf send-text -t build 'git status' --submit
  printf 'line one\nline two' | xargs -0 wharf send-text 3)");
  return [o, text_given] {
    std::string target = o->target.empty() ? o->first : o->target;
    std::string text = o->target.empty() ? o->second : o->first;
    if (!o->target.empty() && text_given->count() > 0)
      return usage_error("send-text takes the text as one argument: quote it");
    if (o->target.empty() && text_given->count() == 0)
      return usage_error("send-text needs the text after the session");
    auto id = resolve_target(o->state_dir, target);
    if (!id) return report_failure(id.error());
    auto answer = call_operation(o->state_dir, "send_text",
                                 {{"session", id.value()}, {"text", text}, {"submit", o->submit}});
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
