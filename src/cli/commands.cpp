#include "cli/commands.hpp"

#include <array>

namespace wharf::cli {

std::span<const Command> all_commands() {
  static const std::array kCommands{
      kServeCommand,      kOpenCommand,     kLsCommand,       kNewCommand, kKillCommand,
      kReadScreenCommand, kSendKeysCommand, kSendTextCommand, kRunCommand, kWaitCommand,
      kAttachCommand,     kHistoryCommand,  kAgentCommand,    kMcpCommand, kNotifyCommand};
  return kCommands;
}

void add_state_dir_option(CLI::App& verb, std::string& state_dir) {
  verb.add_option("--state-dir", state_dir,
                  "Where wharf keeps its key, socket and database "
                  "(default: $XDG_STATE_HOME/wharf or ~/.local/state/wharf)")
      ->envname("WHARF_STATE_DIR");
}

}  // namespace wharf::cli
