// The table of `wharf` verbs (tmux's cmd_entry idea): each verb is one small descriptor
// defined in commands/<verb>.cpp, and main.cpp knows only this table.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace wharf::cli {

struct Command {
  std::string_view name;
  std::string_view summary;
  // Declares the verb's options on `verb`; returns what runs once parsing succeeded.
  std::function<int()> (*setup)(CLI::App& verb);
};

extern const Command kAgentCommand;
extern const Command kAttachCommand;
extern const Command kCompletionCommand;
extern const Command kConfigCommand;
extern const Command kCwdCommand;
extern const Command kHistoryCommand;
extern const Command kKillCommand;
extern const Command kRestartCommand;
extern const Command kKeyCommand;
extern const Command kPairCommand;
extern const Command kDevicesCommand;
extern const Command kDecisionsCommand;
extern const Command kLsCommand;
extern const Command kMcpCommand;
extern const Command kNewCommand;
extern const Command kNotifyCommand;
extern const Command kOpenCommand;
extern const Command kPaneCommand;
extern const Command kReadScreenCommand;
extern const Command kRenameCommand;
extern const Command kReorderCommand;
extern const Command kRunCommand;
extern const Command kSendKeysCommand;
extern const Command kSendTextCommand;
extern const Command kServeCommand;
extern const Command kServiceCommand;
extern const Command kStatusLineCommand;
extern const Command kSandboxRunCommand;
extern const Command kWaitCommand;

std::span<const Command> all_commands();

// Options every client verb shares to find its daemon (--state-dir / WHARF_STATE_DIR).
void add_state_dir_option(CLI::App& verb, std::string& state_dir);
// The words after the first "--" of the command line, exactly as typed: CLI11 takes a
// positional word like "[%s]" for a list and strips its brackets, and `run` promises an
// exact argv. main() records the command line before parsing.
void remember_command_line(int argc, char** argv);
std::vector<std::string> words_after_dashes();

// Exit statuses every verb keeps to (documented in `wharf --help` and docs/cli.md):
// done, failed (the daemon said no, or could not be reached), or the command line was
// wrong. `wait` and `run` add 124 for a timeout; `run` exits with its command's status.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Prints "wharf: <message>" to stderr and returns kExitUsage.
int usage_error(const std::string& message);

// A whole number in [low, high] for a numeric option, with a message a person reads
// ("--scrollback: 'abc' is not a whole number from 0 to 100000") instead of CLI11's.
CLI::Validator whole_number(std::int64_t low, std::int64_t high);
// The same for a number that may have a fraction (seconds: "0.5").
CLI::Validator decimal_number(double low, double high);

// The session a verb acts on, named as `wharf ls` shows it: an id, or a name that
// matches exactly one live session. `add_target` declares tmux's `-t SESSION` and, when
// `positional`, the first positional argument too (one or the other, not both).
void add_target(CLI::App& verb, std::string& target, bool positional = true);
// The id `target` names. Errors: nothing named (code "usage": the command line is
// wrong), an unknown name, an ambiguous name (the candidates listed).
core::Result<std::int64_t> resolve_target(const std::string& state_dir, const std::string& target);
// For verbs written `VERB [SESSION] ARG...` (rename, reorder): without `-t`, the first
// word is the session; it moves from `words` to `target`.
void take_target_word(std::string& target, std::vector<std::string>& words);

}  // namespace wharf::cli
