// Writes the shell integration files (core/shell_integration.hpp) into the state
// directory at every start, so they always match this wharf: owner-only, replaced
// atomically, so a shell starting at that moment reads a whole file.
#pragma once

#include <filesystem>

#include "core/result.hpp"

namespace wharf::app {

core::Status install_shell_integration(const std::filesystem::path& directory);

}  // namespace wharf::app
