// Feeds arbitrary bytes to the config file parser (config.toml: toml++ and wharf's own
// checks of every section), the whole input as one file, seeded with real configs so
// the mutations reach the section handlers. Whatever is accepted must obey what the
// daemon relies on: identifier names in [env] and allow_env, no reserved name, no NUL
// in a value, entry names that are names, no entry that raises privileges, numbers in
// their ranges.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/config.hpp"
#include "core/env_spec.hpp"

namespace {

using namespace wharf::core;

void require(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = parse_config(text, "fuzz.toml");
  if (!parsed) {
    // A refusal says where and why, and never gets longer than the input allows.
    require(!parsed.error().message.empty());
    return 0;
  }
  const Config& config = parsed.value();
  require(static_cast<bool>(check_env_layer(config.env, EnvLayer::kMachine)));
  for (const EnvVar& var : config.env)
    require(is_env_identifier(var.name) && var.value.find('\0') == std::string::npos);
  for (const std::string& name : config.allow_env) require(is_env_identifier(name));
  if (config.max_sessions) require(*config.max_sessions >= 1 && *config.max_sessions <= 10000);
  if (config.upload_max_bytes)
    require(*config.upload_max_bytes >= 1 && *config.upload_max_bytes <= (1ull << 30));
  if (config.window_timeout_seconds) require(*config.window_timeout_seconds >= 10);
  for (const auto* entries : {&config.agents, &config.actions}) {
    for (const EntryConfig& e : *entries) {
      require(is_entry_name(e.name));
      require(!raises_privileges(e.argv) && !raises_privileges(e.extra_args));
      if (e.shell_command) require(!raises_privileges(*e.shell_command));
    }
  }
  return 0;
}
