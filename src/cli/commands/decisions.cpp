// `wharf decisions` lists the pending decisions (guarded commands sandboxed sessions
// wait to run); `wharf decisions approve ID [--note TEXT]` and `wharf decisions deny ID
// [--note TEXT]` answer one. The list_decisions and answer_decision operations: the same
// path as the page's decision card, REST and MCP. The audit records the answer as "cli".
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct DecisionsOptions {
  std::string state_dir, target, note;
  std::vector<std::string> words;
  bool json = false;
};

std::function<int()> setup_decisions(CLI::App& verb) {
  auto o = std::make_shared<DecisionsOptions>();
  add_state_dir_option(verb, o->state_dir);
  add_target(verb, o->target, /*positional=*/false);
  verb.add_option("action", o->words, "Nothing to list, or `approve ID` / `deny ID`")
      ->expected(0, 2);
  verb.add_option("--note", o->note, "Words for the session (a denial shows them there)");
  verb.add_flag("--json", o->json, "Print the list (or the answer) as JSON");
  verb.footer(R"(Examples:
  wharf decisions                      # what waits, oldest first
  wharf decisions -t 3                 # only session 3's
  wharf decisions approve 7
  wharf decisions deny 7 --note "push to a branch, not main")");
  return [o] {
    auto print = [&](const boost::json::object& answer, const char* field) {
      if (o->json) {
        const boost::json::value& result = answer.at("result");
        std::printf("%s\n",
                    boost::json::serialize(field != nullptr ? result.at(field) : result).c_str());
      } else {
        std::printf("%s", std::string(answer.at("text").as_string()).c_str());
      }
    };
    if (o->words.empty()) {
      if (!o->note.empty()) return usage_error("decisions: --note goes with approve or deny");
      boost::json::object args;
      if (!o->target.empty()) {
        auto id = resolve_target(o->state_dir, o->target);
        if (!id) return report_failure(id.error());
        args["session"] = id.value();
      }
      auto answer = call_operation(o->state_dir, "list_decisions", std::move(args));
      if (!answer) return report_failure(answer.error());
      print(answer.value(), "decisions");
      return kExitOk;
    }
    const std::string& action = o->words.front();
    if ((action != "approve" && action != "deny") || o->words.size() != 2)
      return usage_error(
          "decisions: say `wharf decisions`, `wharf decisions approve ID` or `wharf decisions "
          "deny ID`");
    if (!o->target.empty()) return usage_error("decisions: -t only filters the list");
    std::int64_t id = 0;
    try {
      std::size_t used = 0;
      id = std::stoll(o->words[1], &used);
      if (used != o->words[1].size() || id <= 0) throw std::invalid_argument("id");
    } catch (const std::exception&) {
      return usage_error("decisions " + action + ": '" + o->words[1] +
                         "' is not a decision id (see `wharf decisions`)");
    }
    auto answer = call_operation(o->state_dir, "answer_decision",
                                 {{"id", id}, {"approve", action == "approve"}, {"note", o->note}});
    if (!answer) return report_failure(answer.error());
    print(answer.value(), nullptr);
    return kExitOk;
  };
}

}  // namespace

const Command kDecisionsCommand{
    .name = "decisions",
    .summary = "List pending decisions, or answer one (`approve ID` / `deny ID`)",
    .setup = setup_decisions,
};

}  // namespace wharf::cli
