// `wharf send-keys SESSION KEY...` (or `-t SESSION KEY...`): presses keys in a session,
// named as tmux names them (Enter, C-c, M-x, Up, F5, PageDown, or one character). The
// names are checked here before anything is sent: one unknown name and nothing is, and
// text where a key name belongs ('echo hi') is pointed to send-text.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"
#include "core/key_names.hpp"

namespace wharf::cli {
namespace {

struct SendKeysOptions {
  std::string state_dir;
  std::string target;
  std::vector<std::string> words;  // [SESSION] KEY...
};

std::function<int()> setup_send_keys(CLI::App& verb) {
  auto o = std::make_shared<SendKeysOptions>();
  add_state_dir_option(verb, o->state_dir);
  add_target(verb, o->target, /*positional=*/false);
  verb.add_option("keys", o->words,
                  "SESSION (unless -t) then key names: Enter Tab Escape Up C-c M-x F5 "
                  "PageDown, or one character")
      ->required();
  verb.footer(R"(Examples:
  wharf send-keys 3 C-c
  wharf send-keys -t build Up Enter
  wharf send-text 3 'echo hi' --submit    (text goes with send-text))");
  return [o] {
    std::vector<std::string> keys = o->words;
    std::string target = o->target;
    if (target.empty()) {
      target = keys.front();
      keys.erase(keys.begin());
    }
    if (keys.empty()) return usage_error("send-keys needs key names after the session");
    for (const std::string& key : keys) {
      if (core::encode_keys(std::span(&key, 1), {})) continue;
      if (key.find(' ') != std::string::npos || key.size() > 12)
        return usage_error("'" + key.substr(0, 40) +
                           "' is not a key name; to type text, use `wharf send-text " + target +
                           " '...'`");
      return usage_error("'" + key.substr(0, 40) +
                         "' is not a key name (Enter, Tab, Escape, Up, C-c, M-x, F5, PageDown, "
                         "or one character)");
    }
    auto id = resolve_target(o->state_dir, target);
    if (!id) return report_failure(id.error());
    boost::json::array names(keys.begin(), keys.end());
    auto answer = call_operation(o->state_dir, "send_keys",
                                 {{"session", id.value()}, {"keys", std::move(names)}});
    if (!answer) return report_failure(answer.error());
    return 0;
  };
}

}  // namespace

const Command kSendKeysCommand{
    .name = "send-keys",
    .summary = "Press keys in a session (tmux key names)",
    .setup = setup_send_keys,
};

}  // namespace wharf::cli
