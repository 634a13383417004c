#include "cli/commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cli/control_client.hpp"

namespace wharf::cli {

std::span<const Command> all_commands() {
  static const std::array kCommands{
      kServeCommand,      kOpenCommand,       kLsCommand,         kNewCommand,
      kKillCommand,       kReadScreenCommand, kSendKeysCommand,   kSendTextCommand,
      kRunCommand,        kWaitCommand,       kRenameCommand,     kReorderCommand,
      kAttachCommand,     kHistoryCommand,    kAgentCommand,      kCwdCommand,
      kMcpCommand,        kNotifyCommand,     kPaneCommand,       kRestartCommand,
      kKeyCommand,        kConfigCommand,     kCompletionCommand, kServiceCommand,
      kStatusLineCommand, kPairCommand,       kDevicesCommand,    kSandboxRunCommand,
      kDecisionsCommand};
  return kCommands;
}

namespace {
std::vector<std::string>& raw_command_line() {
  static std::vector<std::string> words;
  return words;
}
}  // namespace

void remember_command_line(int argc, char** argv) {
  raw_command_line().assign(argv, argv + argc);
}

std::vector<std::string> words_after_dashes() {
  const auto& words = raw_command_line();
  auto dashes = std::find(words.begin(), words.end(), "--");
  if (dashes == words.end()) return {};
  return {dashes + 1, words.end()};
}

void take_target_word(std::string& target, std::vector<std::string>& words) {
  if (!target.empty() || words.empty()) return;
  target = words.front();
  words.erase(words.begin());
}

int usage_error(const std::string& message) {
  std::fprintf(stderr, "wharf: %s\n", message.c_str());
  return kExitUsage;
}

CLI::Validator whole_number(std::int64_t low, std::int64_t high) {
  return CLI::Validator(
      [low, high](const std::string& value) -> std::string {
        std::int64_t number = 0;
        const char* end = value.data() + value.size();
        auto [ptr, ec] = std::from_chars(value.data(), end, number);
        if (ec == std::errc() && ptr == end && number >= low && number <= high) return {};
        std::string shown = value.size() > 24 ? value.substr(0, 24) + "..." : value;
        return "'" + shown + "' is not a whole number from " + std::to_string(low) + " to " +
               std::to_string(high);
      },
      "N");
}

CLI::Validator decimal_number(double low, double high) {
  return CLI::Validator(
      [low, high](const std::string& value) -> std::string {
        char* end = nullptr;
        double number = value.empty() ? 0 : std::strtod(value.c_str(), &end);
        if (!value.empty() && end == value.c_str() + value.size() && std::isfinite(number) &&
            number >= low && number <= high)
          return {};
        std::string shown = value.size() > 24 ? value.substr(0, 24) + "..." : value;
        return "'" + shown + "' is not a number from " + fmt::format("{}", low) + " to " +
               fmt::format("{}", high);
      },
      "N");
}

void add_target(CLI::App& verb, std::string& target, bool positional) {
  auto* flag = verb.add_option("-t,--target", target,
                               "The session: its id or its name, as `wharf ls` prints them");
  if (!positional) return;
  auto* word = verb.add_option("session", target, "The session (id or name; or use -t)");
  word->excludes(flag);
}

namespace {

bool is_number(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

core::Result<std::int64_t> resolve_target(const std::string& state_dir, const std::string& target) {
  if (target.empty())
    return core::Error{"which session? Name it: an id or a name from `wharf ls` (or -t SESSION)",
                       "usage"};
  // Digits are an id, as tmux takes them; a name made of digits is reached by its id.
  if (is_number(target)) {
    if (target.size() > 18 || target.find_first_not_of('0') == std::string::npos)
      return core::Error{
          "'" + target + "' is not a session id (a positive number, as `wharf ls` prints)",
          "usage"};
    return static_cast<std::int64_t>(std::stoll(target));
  }
  auto listed = call_operation(state_dir, "list_sessions", {});
  if (!listed) return listed.error();
  std::vector<std::int64_t> ids;
  std::string candidates;
  for (const auto& row : listed.value().at("result").at("sessions").as_array()) {
    const auto& session = row.as_object();
    if (session.at("name").as_string() != target) continue;
    std::int64_t id = session.at("id").to_number<std::int64_t>();
    ids.push_back(id);
    candidates += (candidates.empty() ? "" : ", ") + std::to_string(id);
  }
  if (ids.size() == 1) return ids.front();
  if (ids.empty())
    return core::Error{"no session named '" + target + "' (`wharf ls` lists them)", "not_found"};
  return core::Error{"'" + target + "' names " + std::to_string(ids.size()) + " sessions (ids " +
                         candidates + "); name one by its id",
                     "ambiguous"};
}

void add_state_dir_option(CLI::App& verb, std::string& state_dir) {
  verb.add_option("--state-dir", state_dir,
                  "Where wharf keeps its key, socket and database "
                  "(default: $XDG_STATE_HOME/wharf or ~/.local/state/wharf)")
      ->envname("WHARF_STATE_DIR");
}

}  // namespace wharf::cli
