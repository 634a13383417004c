// `wharf reorder SESSION POSITION`: moves a session's tab to POSITION (1 is the first),
// the others keeping their order, as dragging the tab on the page does; every window's
// tab bar follows. The move_session operation ends in the page's path
// (SessionService::reorder).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct ReorderOptions {
  std::string state_dir, target;
  std::vector<std::string> words;  // [SESSION] POSITION: the session only without -t
};

std::function<int()> setup_reorder(CLI::App& verb) {
  auto o = std::make_shared<ReorderOptions>();
  add_state_dir_option(verb, o->state_dir);
  add_target(verb, o->target, /*positional=*/false);
  verb.add_option("words", o->words,
                  "SESSION POSITION (or -t SESSION POSITION), 1 for the first tab");
  verb.footer(R"(Examples:
  wharf reorder 5 1          # session 5 becomes the first tab
  wharf reorder -t build 3)");
  return [o] {
    std::vector<std::string> words = o->words;
    take_target_word(o->target, words);
    if (o->target.empty())
      return usage_error("reorder needs a session (an id or a name from `wharf ls`)");
    if (words.size() != 1)
      return usage_error("reorder needs one position after the session (1 for the first tab)");
    // Checked as every numeric option is: "a whole number from 1 to 10000".
    std::string text = words.front();
    if (std::string wrong = whole_number(1, 10000)(text); !wrong.empty())
      return usage_error("position: " + wrong);
    std::int64_t position = std::stoll(text);
    auto id = resolve_target(o->state_dir, o->target);
    if (!id) return report_failure(id.error());
    auto answer = call_operation(o->state_dir, "move_session",
                                 {{"session", id.value()}, {"position", position}});
    if (!answer) return report_failure(answer.error());
    return kExitOk;
  };
}

}  // namespace

const Command kReorderCommand{
    .name = "reorder",
    .summary = "Move a session's tab to another place",
    .setup = setup_reorder,
};

}  // namespace wharf::cli
