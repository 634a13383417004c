// The table of `wharf` verbs (tmux's cmd_entry idea): each verb is one small descriptor
// defined in commands/<verb>.cpp, and main.cpp knows only this table.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <span>
#include <string_view>

namespace wharf::cli {

struct Command {
  std::string_view name;
  std::string_view summary;
  // Declares the verb's options on `verb`; returns what runs once parsing succeeded.
  std::function<int()> (*setup)(CLI::App& verb);
};

extern const Command kAgentCommand;
extern const Command kAttachCommand;
extern const Command kHistoryCommand;
extern const Command kKillCommand;
extern const Command kRestartCommand;
extern const Command kKeyCommand;
extern const Command kLsCommand;
extern const Command kMcpCommand;
extern const Command kNewCommand;
extern const Command kNotifyCommand;
extern const Command kOpenCommand;
extern const Command kReadScreenCommand;
extern const Command kRunCommand;
extern const Command kSendKeysCommand;
extern const Command kSendTextCommand;
extern const Command kServeCommand;
extern const Command kWaitCommand;

std::span<const Command> all_commands();

// Options every client verb shares to find its daemon (--state-dir / WHARF_STATE_DIR).
void add_state_dir_option(CLI::App& verb, std::string& state_dir);
// Checks a session id argument: a positive whole number, as `wharf ls` prints them.
const CLI::Validator& session_id_check();

}  // namespace wharf::cli
