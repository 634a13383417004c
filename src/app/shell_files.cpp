#include "app/shell_files.hpp"

#include "app/key_file.hpp"
#include "app/state_paths.hpp"
#include "core/shell_integration.hpp"

namespace wharf::app {

core::Status install_shell_integration(const std::filesystem::path& directory) {
  for (const core::IntegrationFile& file : core::shell_integration_files()) {
    std::filesystem::path path = directory / file.path;
    if (auto made = ensure_private_dir(path.parent_path()); !made) return made.error();
    if (auto written = write_private_file(path, file.text); !written) return written.error();
  }
  return core::ok_status();
}

}  // namespace wharf::app
