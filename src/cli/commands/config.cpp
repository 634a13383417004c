// `wharf config check [--config FILE]`: reads and checks the config file as `wharf serve`
// would at its start, without starting anything (like `nginx -t`). Prints
// "config OK: PATH" and exits 0, or prints the first error with its file and line
// ("PATH:LINE: reason") on stderr and exits 1.
#include <cstdio>
#include <memory>

#include "app/config_file.hpp"
#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct ConfigOptions {
  std::string config;
};

std::function<int()> setup_config(CLI::App& verb) {
  auto o = std::make_shared<ConfigOptions>();
  verb.require_subcommand(1);
  CLI::App* check = verb.add_subcommand("check", "Check the config file without starting wharf");
  check
      ->add_option("--config", o->config,
                   "Config file (default: ~/.config/wharf/config.toml; see docs/config.md)")
      ->envname("WHARF_CONFIG");
  check->footer(R"(Exit status: 0 when the file is valid (or absent: every default), 1 when it
is not, with the file, line and reason on stderr.

Examples:
  wharf config check
  wharf config check --config ./wharf.toml)");
  return [o] {
    std::optional<std::filesystem::path> given;
    if (!o->config.empty()) given = o->config;
    auto loaded = app::load_config(given);
    if (!loaded) return report_failure(core::Error{"config: " + loaded.error().message});
    std::filesystem::path path = given.value_or(app::default_config_path());
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
      std::printf("config OK: %s (no file: every setting is its default)\n", path.c_str());
    else
      std::printf("config OK: %s\n", path.c_str());
    return 0;
  };
}

}  // namespace

const Command kConfigCommand{
    .name = "config",
    .summary = "Check the config file without starting: `wharf config check`",
    .setup = setup_config,
};

}  // namespace wharf::cli
