// Feeds arbitrary bytes to every parser of launch input: the config file (toml++ and
// wharf's checks), `.wharf/env` files, `--env` specs and the JSON of a start request.
// The first byte picks the parser. Whatever is accepted must obey the rules the rest of
// wharf relies on: identifier names, no reserved name, no NUL in a value, no entry that
// raises privileges.
#include <boost/json.hpp>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.hpp"
#include "core/env_spec.hpp"
#include "core/launch_request.hpp"

namespace {

using namespace wharf::core;

void check_vars(const EnvList& vars, EnvLayer layer) {
  if (!check_env_layer(vars, layer)) std::abort();
  for (const EnvVar& var : vars) {
    if (!is_env_identifier(var.name) || var.value.find('\0') != std::string::npos) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0: {
      auto config = parse_config(text, "fuzz.toml");
      if (!config) return 0;
      check_vars(config.value().env, EnvLayer::kMachine);
      for (const auto* entries : {&config.value().agents, &config.value().actions}) {
        for (const EntryConfig& e : *entries) {
          if (!is_entry_name(e.name) || raises_privileges(e.argv) ||
              raises_privileges(e.extra_args) ||
              (e.shell_command && raises_privileges(*e.shell_command)))
            std::abort();
        }
      }
      break;
    }
    case 1: {
      auto vars = parse_env_file(text, "env");
      if (vars) check_vars(vars.value(), EnvLayer::kRepo);
      break;
    }
    case 2: {
      std::vector<std::string> specs;
      std::size_t start = 0;
      for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == '\n') {
          specs.emplace_back(text.substr(start, i - start));
          start = i + 1;
        }
      }
      auto vars = parse_env_specs(specs);
      if (vars) check_vars(vars.value(), EnvLayer::kSession);
      break;
    }
    default: {
      boost::system::error_code ec;
      boost::json::value value = boost::json::parse(text, ec);
      if (ec || !value.is_object()) return 0;
      auto request = parse_launch_request(value.get_object());
      if (request) check_vars(request.value().env, EnvLayer::kSession);
      break;
    }
  }
  return 0;
}
