// `wharf`: parses the command line against the verb table and runs one verb. Any error
// a verb did not handle becomes a one-line message and a non-zero exit.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "core/version.hpp"
#include "host/session_host.hpp"

namespace {

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

// A first word that is no verb gets a clear answer (and the nearest verb) rather than
// CLI11's "A subcommand is required".
bool unknown_verb(std::string_view word) {
  if (word.empty() || word.front() == '-') return false;
  std::string_view nearest;
  std::size_t best = SIZE_MAX;
  for (const auto& command : wharf::cli::all_commands()) {
    if (command.name == word) return false;
    std::size_t d = edit_distance(word, command.name);
    if (d < best) {
      best = d;
      nearest = command.name;
    }
  }
  std::fprintf(stderr, "wharf: '%.*s' is not a command", static_cast<int>(word.size()),
               word.data());
  if (best <= 2)
    std::fprintf(stderr, "; did you mean '%.*s'?", static_cast<int>(nearest.size()),
                 nearest.data());
  std::fprintf(stderr, " (`wharf --help` lists them)\n");
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // A session host (host/session_host.hpp) is started by the daemon, never by hand, so
  // it is no verb users see.
  if (argc >= 2 && std::string_view(argv[1]) == "host") return wharf::host::run_host(argc, argv);
  if (argc >= 2 && unknown_verb(argv[1])) return 2;
  CLI::App app{"wharf: terminal sessions on this machine, served to any browser and to programs",
               "wharf"};
  app.set_version_flag("--version", "wharf " + std::string(wharf::core::kVersion));
  app.require_subcommand(1);
  app.footer("Run `wharf serve` to start the daemon; it prints the address to open.");

  std::function<int()> run;
  for (const auto& command : wharf::cli::all_commands()) {
    CLI::App* verb = app.add_subcommand(std::string(command.name), std::string(command.summary));
    auto runner = command.setup(*verb);
    verb->callback([&run, runner] { run = runner; });
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    return run ? run() : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wharf: %s\n", e.what());
    return 1;
  }
}
