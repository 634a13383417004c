// `wharf`: parses the command line against the verb table and runs one verb. Any error
// a verb did not handle becomes a one-line message and a non-zero exit.
#include <cstdio>
#include <exception>
#include <string>

#include "cli/commands.hpp"
#include "core/version.hpp"

int main(int argc, char** argv) {
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
