// Finding and reading the operator's config file. Its meaning is core/config.hpp's; here
// is only where it lives: `--config` (or WHARF_CONFIG) when given, which must then exist,
// else `$XDG_CONFIG_HOME/wharf/config.toml` or `~/.config/wharf/config.toml`, whose
// absence simply means every default.
#pragma once

#include <filesystem>
#include <optional>

#include "core/config.hpp"
#include "core/result.hpp"

namespace wharf::app {

std::filesystem::path default_config_path();

core::Result<core::Config> load_config(const std::optional<std::filesystem::path>& explicit_path);

}  // namespace wharf::app
