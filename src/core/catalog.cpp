#include "core/catalog.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "core/shown_text.hpp"

namespace wharf::core {
namespace {

// What wharf knows about each agent CLI (docs/agents.md says where each fact comes from).
struct BuiltinAgent {
  std::string_view name;
  std::vector<std::string> args;
  PromptStyle prompt;
  std::string_view prompt_flag;
  std::vector<std::string> resume_args;
  std::string_view resume_probe;
  std::string_view context_flag;
  bool resume_drops_prompt = false;
  std::string_view context_setting = {};
  std::string_view settings_flag = {};
  std::string_view notify_hook = {};
};

const std::vector<BuiltinAgent>& builtin_agents() {
  static const std::vector<BuiltinAgent> kAgents{
      {"claude",
       {},
       PromptStyle::kArgument,
       "",
       {"--continue"},
       "claude",
       "--append-system-prompt-file",
       false,
       {},
       "--settings"},
      // Without --no-daemon, Codex leaves an app-server running in its own session after
      // it quits, which ending the wharf session could not reach.
      {"codex",
       {"--no-daemon"},
       PromptStyle::kArgument,
       "",
       {"resume", "--last"},
       "codex",
       "",
       false,
       "developer_instructions",
       {},
       "codex"},
      {"opencode",
       {},
       PromptStyle::kFlag,
       "--prompt",
       {"--continue"},
       "opencode",
       "",
       true,
       {},
       {},
       "opencode"},
      {"gemini", {}, PromptStyle::kFlag, "--prompt-interactive", {}, "", ""},
      {"cline", {}, PromptStyle::kArgument, "", {}, "", ""},
  };
  return kAgents;
}

Error refused(std::string message) {
  return Error{std::move(message), "bad_entry"};
}

// A TOML basic string: what Codex's `-c key=value` parses the value as.
std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string shown(std::string_view name) {
  return shown_text(name, 32);
}

// The program and argv0 of an operator-defined entry.
void place_program(CatalogEntry& entry, const EntryConfig& config, const ProgramFinder& find) {
  if (config.shell_command) {
    entry.program = find("sh").value_or("");
    entry.argv0 = "sh";
    entry.args = {"-c", *config.shell_command};
    return;
  }
  entry.program = find(config.argv.front()).value_or("");
  entry.argv0 = config.argv.front();
  entry.args.assign(config.argv.begin() + 1, config.argv.end());
}

}  // namespace

std::string_view kind_name(EntryKind kind) {
  switch (kind) {
    case EntryKind::kShell:
      return "shell";
    case EntryKind::kAgent:
      return "agent";
    case EntryKind::kAction:
      return "action";
  }
  return "shell";
}

std::optional<EntryKind> parse_kind(std::string_view text) {
  if (text == "shell") return EntryKind::kShell;
  if (text == "agent") return EntryKind::kAgent;
  if (text == "action") return EntryKind::kAction;
  return std::nullopt;
}

Result<Catalog> Catalog::build(const Config& config, const ProgramFinder& find_program,
                               const ProgramFinder& find_shell) {
  Catalog catalog;
  auto at = [&](int line, const std::string& message) {
    return Error{config.source + ":" + std::to_string(line) + ": " + message, "bad_config"};
  };

  for (std::string_view name : kShellNames) {
    catalog.entries_.push_back(CatalogEntry{.kind = EntryKind::kShell,
                                            .name = std::string(name),
                                            .program = find_shell(name).value_or(""),
                                            .argv0 = "-" + std::string(name)});
  }

  for (const BuiltinAgent& agent : builtin_agents()) {
    catalog.entries_.push_back(CatalogEntry{.kind = EntryKind::kAgent,
                                            .name = std::string(agent.name),
                                            .program = find_program(agent.name).value_or(""),
                                            .argv0 = std::string(agent.name),
                                            .args = agent.args,
                                            .prompt = agent.prompt,
                                            .prompt_flag = std::string(agent.prompt_flag),
                                            .resume_args = agent.resume_args,
                                            .resume_probe = std::string(agent.resume_probe),
                                            .context_flag = std::string(agent.context_flag),
                                            .resume_drops_prompt = agent.resume_drops_prompt,
                                            .context_setting = std::string(agent.context_setting),
                                            .settings_flag = std::string(agent.settings_flag),
                                            .notify_hook = std::string(agent.notify_hook)});
  }

  for (const EntryConfig& agent : config.agents) {
    auto existing = std::find_if(catalog.entries_.begin(), catalog.entries_.end(), [&](auto& e) {
      return e.kind == EntryKind::kAgent && e.name == agent.name;
    });
    bool defines = !agent.argv.empty() || agent.shell_command.has_value();
    if (existing == catalog.entries_.end() && !defines)
      return at(agent.line, "[agents." + agent.name + "] needs 'argv' (or 'shell')");
    CatalogEntry* entry = nullptr;
    if (existing == catalog.entries_.end()) {
      entry = &catalog.entries_.emplace_back(
          CatalogEntry{.kind = EntryKind::kAgent, .name = agent.name, .builtin = false});
    } else {
      entry = &*existing;
    }
    if (defines) {
      // The operator's own command replaces wharf's knowledge of that agent entirely.
      *entry = CatalogEntry{.kind = EntryKind::kAgent, .name = agent.name, .builtin = false};
      place_program(*entry, agent, find_program);
    }
    entry->enabled = agent.enabled;
    entry->keep_screen = agent.keep_screen;
    entry->sandbox = agent.sandbox;
    entry->args.insert(entry->args.end(), agent.extra_args.begin(), agent.extra_args.end());
    if (agent.prompt) {
      entry->prompt = *agent.prompt;
      entry->prompt_flag = agent.prompt_flag;
    }
    if (agent.resume_args) {
      entry->resume_args = *agent.resume_args;
      if (defines) entry->resume_probe.clear();
    }
  }

  for (const EntryConfig& shell : config.shells) {
    auto existing = std::find_if(catalog.entries_.begin(), catalog.entries_.end(), [&](auto& e) {
      return e.kind == EntryKind::kShell && e.name == shell.name;
    });
    if (existing == catalog.entries_.end())
      return at(shell.line, "[shells." + shell.name + "]: wharf knows no shell of that name (" +
                                "bash, zsh, fish, sh, dash, ksh)");
    existing->sandbox = shell.sandbox;
  }

  for (const EntryConfig& action : config.actions) {
    if (action.argv.empty() && !action.shell_command)
      return at(action.line, "[actions." + action.name + "] needs 'argv' (or 'shell')");
    CatalogEntry entry{.kind = EntryKind::kAction,
                       .name = action.name,
                       .interactive = action.interactive,
                       .enabled = action.enabled,
                       .keep_screen = action.keep_screen,
                       .builtin = false,
                       .sandbox = action.sandbox};
    place_program(entry, action, find_program);
    catalog.entries_.push_back(std::move(entry));
  }
  return catalog;
}

Result<const CatalogEntry*> Catalog::choose(std::string_view kind, std::string_view name) const {
  if (kind.empty()) {
    if (auto colon = name.find(':'); colon != std::string_view::npos) {
      kind = name.substr(0, colon);
      name = name.substr(colon + 1);
    }
  }
  std::optional<EntryKind> wanted;
  if (!kind.empty()) {
    wanted = parse_kind(kind);
    if (!wanted) return refused("unknown kind '" + shown(kind) + "': shell, agent or action");
  }
  if (name.empty())
    return refused("name the " + std::string(kind.empty() ? "entry" : kind) + " to start");

  const CatalogEntry* found = nullptr;
  for (EntryKind k : {EntryKind::kAgent, EntryKind::kShell, EntryKind::kAction}) {
    if (wanted && *wanted != k) continue;
    for (const CatalogEntry& entry : entries_) {
      if (entry.kind == k && entry.name == name) {
        found = &entry;
        break;
      }
    }
    if (found != nullptr) break;
  }
  std::string what = wanted ? std::string(kind_name(*wanted)) : "entry";
  if (found == nullptr) {
    std::string known;
    for (const CatalogEntry& entry : entries_) {
      if ((!wanted || entry.kind == *wanted) && entry.installed() && entry.enabled &&
          entry.interactive)
        known += (known.empty() ? "" : ", ") + entry.name;
    }
    return Error{"unknown " + what + " '" + shown(name) + "'" +
                     (known.empty() ? std::string() : ": choose one of " + known),
                 "unknown_entry"};
  }
  std::string label = std::string(kind_name(found->kind)) + " '" + found->name + "'";
  if (!found->enabled) return refused("the " + label + " is turned off in the config");
  if (!found->installed()) {
    return Error{"the " + label + " is not installed on this machine (" +
                     (found->kind == EntryKind::kShell ? std::string("not found)")
                                                       : "'" + found->argv0 + "' is not on PATH)"),
                 "not_installed"};
  }
  if (!found->interactive)
    return refused("the " + label + " is not marked interactive, so it cannot run as a session");
  return found;
}

Result<LaunchPlan> plan_launch(const CatalogEntry& entry, const LaunchOptions& options) {
  LaunchPlan plan{.program = entry.program, .argv = {entry.argv0}};
  plan.argv.insert(plan.argv.end(), entry.args.begin(), entry.args.end());
  // The note comes before any subcommand a resume adds (Codex's `resume`), where every
  // agent still reads its global options.
  if (!options.context_file.empty() && !entry.context_flag.empty()) {
    plan.argv.push_back(entry.context_flag);
    plan.argv.push_back(options.context_file);
    plan.context = true;
  } else if (!options.context_text.empty() && !entry.context_setting.empty()) {
    plan.argv.push_back("-c");
    plan.argv.push_back(entry.context_setting + "=" + toml_string(options.context_text));
    plan.context = true;
  }
  if (!options.settings_file.empty() && !entry.settings_flag.empty()) {
    plan.argv.push_back(entry.settings_flag);
    plan.argv.push_back(options.settings_file);
  }
  // The agents' own word that they wait or finished (`wharf notify`, docs/agents.md).
  if (!options.wharf_binary.empty() && entry.notify_hook == "codex") {
    // Codex runs this argv with the event's JSON added as the last argument.
    plan.argv.push_back("-c");
    plan.argv.push_back("notify=[" + toml_string(options.wharf_binary) +
                        ", \"notify\", \"finished\", \"--from-codex\"]");
  }
  if (!options.opencode_plugin.empty() && entry.notify_hook == "opencode") {
    // Merged over the user's own config (plugins add up); their files stay untouched.
    std::string url = "file://";
    for (char c : options.opencode_plugin) {
      auto u = static_cast<unsigned char>(c);
      if (std::isalnum(u) != 0 || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
        url += c;
      } else {
        char escaped[4];
        std::snprintf(escaped, sizeof escaped, "%%%02X", u);
        url += escaped;
      }
    }
    plan.env.push_back(
        EnvVar{"OPENCODE_CONFIG_CONTENT", "{\"plugin\":[" + toml_string(url) + "]}"});
  }
  bool keeps_prompt = options.prompt.empty() || !entry.resume_drops_prompt;
  if (options.resume && !entry.resume_args.empty() && keeps_prompt) {
    plan.argv.insert(plan.argv.end(), entry.resume_args.begin(), entry.resume_args.end());
    plan.resumed = true;
  }
  if (!options.prompt.empty()) {
    if (entry.prompt == PromptStyle::kNone) {
      return Error{
          "the " + std::string(kind_name(entry.kind)) + " '" + entry.name + "' takes no prompt",
          "bad_field"};
    }
    if (options.prompt.find('\0') != std::string::npos)
      return Error{"the prompt contains a NUL byte", "bad_field"};
    if (options.prompt.size() > kMaxPromptBytes)
      return Error{"the prompt is longer than 64 KiB", "bad_field"};
    // A prompt is a message, never an option: a leading space keeps "--foo" from being
    // parsed as one, and means nothing to the agent reading it.
    std::string message = options.prompt.front() == '-' ? " " + options.prompt : options.prompt;
    if (entry.prompt == PromptStyle::kFlag) plan.argv.push_back(entry.prompt_flag);
    plan.argv.push_back(std::move(message));
  }
  return plan;
}

}  // namespace wharf::core
