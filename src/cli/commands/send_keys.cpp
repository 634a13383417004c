// `wharf send-keys ID KEY...`: presses keys in a session, named as tmux names them
// (Enter, C-c, M-x, Up, F5, PageDown, or one character). One unknown name and nothing
// is sent.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct SendKeysOptions {
  std::string state_dir;
  std::int64_t id = 0;
  std::vector<std::string> keys;
};

std::function<int()> setup_send_keys(CLI::App& verb) {
  auto o = std::make_shared<SendKeysOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("id", o->id, "Session id (see `wharf ls`)")
      ->required()
      ->check(session_id_check());
  verb.add_option("keys", o->keys,
                  "Key names: Enter Tab Escape Up C-c M-x F5 PageDown, or a character")
      ->required();
  return [o] {
    boost::json::array keys(o->keys.begin(), o->keys.end());
    auto answer =
        call_operation(o->state_dir, "send_keys", {{"session", o->id}, {"keys", std::move(keys)}});
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
