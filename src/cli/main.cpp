// `wharf`: parses the command line against the verb table and runs one verb. Any error
// a verb did not handle becomes a one-line message and a non-zero exit. Exit statuses are
// the same for every verb (cli/commands.hpp): 0 done, 1 failed, 2 the command line was
// wrong; CLI11's own codes (104-114) never reach the shell.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "cli/guard_shim.hpp"
#include "core/version.hpp"
#include "host/session_host.hpp"

namespace {

using wharf::cli::kExitUsage;

constexpr const char* kFooter =
    R"(Run `wharf serve` to start the daemon; it prints the address to open.
Run `wharf help VERB` (or `wharf VERB --help`) for a verb's options and examples.
A SESSION is an id or a name as `wharf ls` prints them (`-t SESSION` works too).

Exit status: 0 done, 1 failed (the daemon refused, or could not be reached), 2 the
command line was wrong. `wait` and `run` exit 124 on a timeout; `run` exits with the
status of its command.)";

// Edits (insert, delete, replace) between two short words: the nearest verb to a typo.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// A word that is no verb gets a clear answer (and the nearest verb) rather than
// CLI11's "A subcommand is required".
bool unknown_verb(CLI::App& app, std::string_view word) {
  std::string nearest;
  std::size_t best = SIZE_MAX;
  for (const CLI::App* verb : app.get_subcommands([](CLI::App*) { return true; })) {
    const std::string& name = verb->get_name();
    if (name == word) return false;
    if (verb->get_group().empty()) continue;  // hidden verbs are never suggested
    std::size_t d = edit_distance(word, name);
    if (d < best) {
      best = d;
      nearest = name;
    }
  }
  std::string shown(word.substr(0, 40));
  std::fprintf(stderr, "wharf: unknown command \"%s\"", shown.c_str());
  // A typo of a short verb is one or two edits; anything further is another word.
  if (best <= 2 && best < word.size())
    std::fprintf(stderr, "; did you mean \"%s\"?", nearest.c_str());
  std::fprintf(stderr, "\nRun `wharf help` for the list of commands.\n");
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // Inside a sandbox this binary stands in for git and gh (cli/guard_shim.hpp): their
  // command lines are theirs, never wharf's.
  if (argc >= 1 && wharf::cli::is_guard_shim(argv[0]))
    return wharf::cli::run_guard_shim(argc, argv);
  // A session host (host/session_host.hpp) is started by the daemon, never by hand, so
  // it is no verb users see.
  if (argc >= 2 && std::string_view(argv[1]) == "host") return wharf::host::run_host(argc, argv);
  CLI::App app{"wharf: terminal sessions on this machine, served to any browser and to programs",
               "wharf"};
  const std::string version_line = "wharf " + std::string(wharf::core::kVersion);
  app.set_version_flag("--version", version_line);
  app.require_subcommand(1);
  app.footer(kFooter);
  // "wharf: ..." and a pointer to help, on stderr, for every usage error: the verb's own
  // help when a verb was given (it is known to exist by then, see unknown_verb below).
  const std::string verb_given = argc >= 2 && argv[1][0] != '-' ? argv[1] : "";
  app.failure_message([&verb_given](const CLI::App*, const CLI::Error& e) {
    std::string pointer = verb_given.empty()
                              ? "Run `wharf help` for the list of commands."
                              : "Run `wharf " + verb_given + " --help` for its options.";
    return "wharf: " + std::string(e.what()) + "\n" + pointer + "\n";
  });

  std::function<int()> run;
  for (const auto& command : wharf::cli::all_commands()) {
    CLI::App* verb = app.add_subcommand(std::string(command.name), std::string(command.summary));
    auto runner = command.setup(*verb);
    verb->callback([&run, runner] { run = runner; });
  }

  // `wharf help [VERB]` and `wharf version`, as gh and kubectl have them.
  std::string help_topic;
  CLI::App* help = app.add_subcommand("help", "Print this help, or a verb's: `wharf help VERB`");
  help->add_option("verb", help_topic, "The verb to explain");
  help->callback([&] {
    run = [&]() -> int {
      // app.help() would describe the verb parsed (`help` itself): ask the formatter.
      if (help_topic.empty()) {
        std::fputs(
            app.get_formatter()->make_help(&app, "wharf", CLI::AppFormatMode::Normal).c_str(),
            stdout);
        return 0;
      }
      if (unknown_verb(app, help_topic)) return kExitUsage;
      std::fputs(app.get_subcommand(help_topic)->help("wharf").c_str(), stdout);
      return 0;
    };
  });
  app.add_subcommand("version", "Print wharf's version")->callback([&] {
    run = [&] {
      std::printf("%s\n", version_line.c_str());
      return 0;
    };
  });

  // Bare `wharf` explains itself instead of failing.
  if (argc == 1) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  }
  if (argv[1][0] != '-' && unknown_verb(app, argv[1])) return kExitUsage;
  // Options come after the verb; before it, only --help and --version mean anything.
  if (const std::string_view first = argv[1];
      first.starts_with('-') && first != "-h" && first != "--help" && first != "--version") {
    std::fprintf(stderr,
                 "wharf: unknown option \"%s\" before a command: options go after it "
                 "(`wharf VERB --option`)\nRun `wharf help` for the list of commands.\n",
                 std::string(first.substr(0, 40)).c_str());
    return kExitUsage;
  }

  wharf::cli::remember_command_line(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" that exit 0; every other one is a usage error.
    return app.exit(e) == 0 ? 0 : kExitUsage;
  }
  try {
    return run ? run() : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wharf: %s\n", e.what());
    return wharf::cli::kExitFailure;
  }
}
