// `wharf rename SESSION NAME`: renames a session (its tab, `wharf ls`, the history); an
// empty NAME ("") restores the default, like clearing the name on the page. The
// rename_session operation takes the page's path (SessionService::rename).
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct RenameOptions {
  std::string state_dir, target;
  std::vector<std::string> words;  // [SESSION] NAME: the session only without -t
};

std::function<int()> setup_rename(CLI::App& verb) {
  auto o = std::make_shared<RenameOptions>();
  add_state_dir_option(verb, o->state_dir);
  add_target(verb, o->target, /*positional=*/false);
  verb.add_option("words", o->words,
                  "SESSION NAME (or -t SESSION NAME); \"\" restores the default");
  verb.footer(R"(Examples:
  wharf rename 3 api-tests
  wharf rename -t "codex 4" review
  wharf rename 3 ""          # back to the default name)");
  return [o] {
    std::vector<std::string> words = o->words;
    take_target_word(o->target, words);
    if (o->target.empty())
      return usage_error("rename needs a session (an id or a name from `wharf ls`)");
    if (words.empty()) return usage_error("rename needs the new name (\"\" restores the default)");
    if (words.size() > 1) return usage_error("rename takes one name: quote a name with spaces");
    auto id = resolve_target(o->state_dir, o->target);
    if (!id) return report_failure(id.error());
    auto answer = call_operation(o->state_dir, "rename_session",
                                 {{"session", id.value()}, {"name", words.front()}});
    if (!answer) return report_failure(answer.error());
    return kExitOk;
  };
}

}  // namespace

const Command kRenameCommand{
    .name = "rename",
    .summary = "Rename a session",
    .setup = setup_rename,
};

}  // namespace wharf::cli
