// The guard rules (core/guard_rules.hpp). Misreading an option here must err towards
// guarding: the rules never skip a token they do not understand as the value of an option,
// so an unusual spelling can make a harmless command wait for approval but cannot make a
// publishing one slip through. The disclosure marker is placed on a best-effort reading of
// gh's options; it is a courtesy to readers, not a security boundary.
#include "core/guard_rules.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "core/shell_quote.hpp"

namespace wharf::core {

namespace {

constexpr std::size_t kMaxWhatBytes = 400;

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

template <std::size_t N>
bool one_of(std::string_view word, const std::array<std::string_view, N>& words) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

std::string what_of(const std::vector<std::string>& argv) {
  std::string what = shell_command_line(argv);
  if (what.size() <= kMaxWhatBytes) return what;
  std::size_t cut = kMaxWhatBytes;
  // Never cut inside a UTF-8 sequence: step back over continuation bytes.
  while (cut > 0 && (static_cast<unsigned char>(what[cut]) & 0xC0) == 0x80) --cut;
  return what.substr(0, cut) + "...";
}

GuardVerdict guarded(std::vector<std::string> argv, std::string reason) {
  GuardVerdict verdict;
  verdict.guarded = true;
  verdict.reason = std::move(reason);
  verdict.what = what_of(argv);
  verdict.argv = std::move(argv);
  return verdict;
}

// --- git ---------------------------------------------------------------------------

// git's own options that take their value as the next argument.
constexpr std::array<std::string_view, 7> kGitValueOptions = {
    "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"};
constexpr std::array<std::string_view, 3> kGitPublishing = {"push", "send-pack", "http-push"};

bool defines_alias(std::string_view assignment) {
  std::string lower(assignment.substr(0, 6));
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; });
  return lower == "alias.";
}

GuardVerdict check_git(std::vector<std::string> argv) {
  bool alias_on_command_line = false;
  std::size_t i = 1;
  for (; i < argv.size(); ++i) {
    std::string_view arg = argv[i];
    if (arg.empty() || arg.front() != '-') break;
    if (one_of(arg, kGitValueOptions)) {
      if (i + 1 < argv.size() && (arg == "-c" || arg == "--config-env"))
        alias_on_command_line = alias_on_command_line || defines_alias(argv[i + 1]);
      ++i;
    } else if (starts_with(arg, "--config-env=")) {
      alias_on_command_line = alias_on_command_line || defines_alias(arg.substr(13));
    } else if (starts_with(arg, "-c") && arg.size() > 2) {
      alias_on_command_line = alias_on_command_line || defines_alias(arg.substr(2));
    }
  }
  if (i >= argv.size()) return GuardVerdict{false, {}, {}, std::move(argv), false};
  std::string_view command = argv[i];
  if (one_of(command, kGitPublishing))
    return guarded(std::move(argv),
                   "git " + std::string(command) + " publishes commits to a remote");
  // An alias can name any command, push included; one defined for this command alone
  // (`git -c alias.p=push p`) or written to a config file (`git config alias.p push`).
  if (alias_on_command_line)
    return guarded(std::move(argv), "the command defines a git alias, which can run a push");
  if (command == "config") {
    for (std::size_t j = i + 1; j < argv.size(); ++j)
      if (defines_alias(argv[j]))
        return guarded(std::move(argv), "git config alias.* defines a command that can run a push");
  }
  return GuardVerdict{false, {}, {}, std::move(argv), false};
}

// --- gh ----------------------------------------------------------------------------

struct GhCommand {
  std::string_view group;
  std::string_view action;
};

// The first two words that are not options, skipping the value of -R/--repo (gh accepts
// it before the action: `gh pr -R owner/repo create`).
GhCommand gh_command(const std::vector<std::string>& argv) {
  std::array<std::string_view, 2> words{};
  std::size_t found = 0;
  for (std::size_t i = 1; i < argv.size() && found < 2; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") continue;
    if (arg == "-R" || arg == "--repo") {
      ++i;
      continue;
    }
    if (!arg.empty() && arg.front() == '-') continue;
    words[found++] = arg;
  }
  return {words[0], words[1]};
}

struct GhRule {
  std::string_view group;
  std::string_view action;
  std::string_view reason;
  bool body_when_absent;  // creating without a body: add one that is just the marker
};

constexpr std::array<GhRule, 24> kGhRules = {{
    {"pr", "create", "gh pr create opens a pull request", true},
    {"pr", "merge", "gh pr merge merges a pull request", false},
    {"pr", "comment", "gh pr comment posts a comment", false},
    {"pr", "review", "gh pr review posts a review", false},
    {"pr", "edit", "gh pr edit changes a pull request", false},
    {"pr", "close", "gh pr close closes a pull request", false},
    {"pr", "reopen", "gh pr reopen reopens a pull request", false},
    {"pr", "ready", "gh pr ready marks a pull request ready for review", false},
    {"issue", "create", "gh issue create opens an issue", true},
    {"issue", "comment", "gh issue comment posts a comment", false},
    {"issue", "edit", "gh issue edit changes an issue", false},
    {"issue", "close", "gh issue close closes an issue", false},
    {"issue", "reopen", "gh issue reopen reopens an issue", false},
    {"issue", "delete", "gh issue delete deletes an issue", false},
    {"issue", "transfer", "gh issue transfer moves an issue", false},
    {"release", "create", "gh release create publishes a release", false},
    {"release", "edit", "gh release edit changes a release", false},
    {"release", "delete", "gh release delete deletes a release", false},
    {"release", "upload", "gh release upload publishes release assets", false},
    {"repo", "create", "gh repo create creates a repository", false},
    {"repo", "delete", "gh repo delete deletes a repository", false},
    {"repo", "edit", "gh repo edit changes a repository's settings", false},
    {"repo", "rename", "gh repo rename renames a repository", false},
    {"alias", "set", "gh alias set defines a command that can run a guarded one", false},
}};

// The body option names of a gh command: release uses --notes/-n, the others --body/-b;
// the file form is -F in all of them.
struct BodyOptions {
  std::string_view long_text;
  char short_text;
  std::string_view long_file;
};

BodyOptions body_options(std::string_view group) {
  if (group == "release") return {"--notes", 'n', "--notes-file"};
  return {"--body", 'b', "--body-file"};
}

bool publishes_body(const GhRule& rule) {
  return (rule.group == "pr" && rule.action != "close" && rule.action != "reopen" &&
          rule.action != "ready") ||
         (rule.group == "issue" &&
          (rule.action == "create" || rule.action == "comment" || rule.action == "edit")) ||
         (rule.group == "release" && (rule.action == "create" || rule.action == "edit"));
}

// Options of these commands whose value is the next argument and could look like a body
// option (`--title -b`): their value is skipped so the marker lands on the body.
constexpr std::array<std::string_view, 14> kGhValueOptions = {
    "--title", "-t", "--subject", "-R", "--repo",     "--base",   "-B",
    "--head",  "-H", "--label",   "-l", "--reviewer", "--target", "--milestone"};

struct BodyEdit {
  bool found_text = false;
  bool found_file = false;
  bool fills_itself = false;  // --fill, --web, --editor, --template: gh writes the body
};

BodyEdit mark_bodies(std::vector<std::string>& argv, const BodyOptions& options) {
  BodyEdit edit;
  const std::string short_flag = std::string("-") + options.short_text;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") break;
    if (one_of(arg, kGhValueOptions)) {
      ++i;
    } else if (arg == options.long_text || arg == short_flag) {
      if (i + 1 < argv.size()) {
        argv[i + 1] += kDisclosureMarker;
        edit.found_text = true;
      }
      ++i;
    } else if (starts_with(arg, std::string(options.long_text) + "=") ||
               (starts_with(arg, short_flag) && arg.size() > 2)) {
      argv[i] += kDisclosureMarker;  // --body=x, -bx and -b=x all end in the value
      edit.found_text = true;
    } else if (arg == options.long_file || arg == "-F") {
      edit.found_file = true;
      ++i;
    } else if (starts_with(arg, std::string(options.long_file) + "=") || starts_with(arg, "-F")) {
      edit.found_file = true;
    } else if (starts_with(arg, "--fill") || arg == "--web" || arg == "-w" || arg == "--editor" ||
               arg == "-e" || arg == "--template" || arg == "-T" || arg == "--recover") {
      edit.fills_itself = true;
    }
  }
  return edit;
}

bool api_method_writes(const std::vector<std::string>& argv) {
  std::optional<std::string> method;
  bool fields = false;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg == "-X" || arg == "--method") {
      method = i + 1 < argv.size() ? argv[i + 1] : std::string();
      ++i;
    } else if (starts_with(arg, "--method=")) {
      method = std::string(arg.substr(9));
    } else if (starts_with(arg, "-X")) {
      method = std::string(arg.substr(arg.size() > 2 && arg[2] == '=' ? 3 : 2));
    } else if (arg == "-f" || arg == "-F" || arg == "--field" || arg == "--raw-field" ||
               arg == "--input" || starts_with(arg, "--field=") ||
               starts_with(arg, "--raw-field=") || starts_with(arg, "--input=") ||
               starts_with(arg, "-f") || starts_with(arg, "-F")) {
      fields = true;
    }
  }
  // gh sends GET unless told otherwise, and POST when fields are given without a method.
  if (!method) return fields;
  std::string upper = *method;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; });
  return upper != "GET";
}

GuardVerdict check_gh(std::vector<std::string> argv) {
  GhCommand command = gh_command(argv);
  if (command.group == "api") {
    if (!api_method_writes(argv)) return GuardVerdict{false, {}, {}, std::move(argv), false};
    return guarded(std::move(argv), "gh api with a method other than GET writes to the forge");
  }
  for (const GhRule& rule : kGhRules) {
    if (rule.group != command.group || rule.action != command.action) continue;
    GuardVerdict verdict = guarded(argv, std::string(rule.reason));
    if (!publishes_body(rule)) return verdict;
    BodyEdit edit = mark_bodies(verdict.argv, body_options(rule.group));
    verdict.body_from_file = edit.found_file;
    if (rule.body_when_absent && !edit.found_text && !edit.found_file && !edit.fills_itself) {
      verdict.argv.emplace_back(body_options(rule.group).long_text);
      verdict.argv.emplace_back(kDisclosureMarker.substr(2));  // no blank lines before it
    }
    if (edit.found_file) verdict.reason += " (its body comes from a file and has no marker)";
    return verdict;
  }
  return GuardVerdict{false, {}, {}, std::move(argv), false};
}

// The repository's own .git/config was writable from the sandbox: nothing it names as a
// program may run when the approved command runs outside. `core.sshCommand` goes back to
// plain ssh (which reads the person's ~/.ssh/config, outside the sandbox's reach).
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kGitHardening = {{
    {"core.hooksPath", "/dev/null"},
    {"core.fsmonitor", "false"},
    {"protocol.ext.allow", "never"},
    {"core.sshCommand", "ssh"},
}};

}  // namespace

std::vector<std::string> guarded_environment(std::vector<std::string> env) {
  std::size_t count = 0;
  for (auto it = env.begin(); it != env.end();) {
    if (starts_with(*it, "GIT_CONFIG_COUNT=")) {
      std::string_view digits = std::string_view(*it).substr(17);
      std::size_t n = 0;
      bool valid = !digits.empty() && digits.size() < 6;
      for (char c : digits) {
        valid = valid && c >= '0' && c <= '9';
        if (valid) n = n * 10 + static_cast<std::size_t>(c - '0');
      }
      count = valid ? n : 0;
      it = env.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& [key, value] : kGitHardening) {
    std::string index = std::to_string(count++);
    // getenv finds the first of two entries with one name: an old one is removed first.
    std::string key_name = "GIT_CONFIG_KEY_" + index + "=";
    std::string value_name = "GIT_CONFIG_VALUE_" + index + "=";
    std::erase_if(env, [&](const std::string& entry) {
      return starts_with(entry, key_name) || starts_with(entry, value_name);
    });
    env.push_back(key_name + std::string(key));
    env.push_back(value_name + std::string(value));
  }
  env.push_back("GIT_CONFIG_COUNT=" + std::to_string(count));
  return env;
}

std::string_view program_basename(std::string_view argv0) {
  std::size_t slash = argv0.rfind('/');
  return slash == std::string_view::npos ? argv0 : argv0.substr(slash + 1);
}

GuardVerdict check_guard(std::string_view program, const std::vector<std::string>& argv) {
  std::vector<std::string> args = argv;
  if (args.empty()) args.emplace_back();
  args[0] = std::string(program);
  GuardVerdict verdict = program == "git"  ? check_git(std::move(args))
                         : program == "gh" ? check_gh(std::move(args))
                                           : GuardVerdict{false, {}, {}, std::move(args), false};
  if (verdict.what.empty()) verdict.what = what_of(verdict.argv);
  return verdict;
}

}  // namespace wharf::core
