#include "cli/commands.hpp"

#include <array>

namespace wharf::cli {

std::span<const Command> all_commands() {
  static const std::array kCommands{
      kServeCommand,      kOpenCommand,     kLsCommand,       kNewCommand, kKillCommand,
      kReadScreenCommand, kSendKeysCommand, kSendTextCommand, kRunCommand, kWaitCommand,
      kAttachCommand,     kHistoryCommand,  kAgentCommand,    kMcpCommand, kNotifyCommand,
      kRestartCommand,    kKeyCommand};
  return kCommands;
}

const CLI::Validator& session_id_check() {
  static const CLI::Validator check(
      [](const std::string& value) -> std::string {
        bool digits = !value.empty() && value.size() <= 19 &&
                      value.find_first_not_of("0123456789") == std::string::npos;
        if (digits && value.find_first_not_of('0') != std::string::npos) return {};
        return "'" + value + "' is not a session id (a positive number, as `wharf ls` prints)";
      },
      "ID");
  return check;
}

void add_state_dir_option(CLI::App& verb, std::string& state_dir) {
  verb.add_option("--state-dir", state_dir,
                  "Where wharf keeps its key, socket and database "
                  "(default: $XDG_STATE_HOME/wharf or ~/.local/state/wharf)")
      ->envname("WHARF_STATE_DIR");
}

}  // namespace wharf::cli
