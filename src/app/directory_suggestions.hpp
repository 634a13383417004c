// Directories worth offering when a session is started (`GET /api/dirs`): a bounded
// breadth-first walk of the workspace. Only real directories are listed, by their path
// relative to the workspace ("apps", "apps/api"): a symlink is never followed, even to a
// directory inside the workspace, so the walk cannot leave it or loop; dot directories
// and node_modules are skipped with everything under them. The walk stops at `max_depth`
// levels and `max_entries` results, and says so through `truncated`; a folder it cannot
// read is passed over. The list is ordered by depth, then path, so it is stable from one
// call to the next.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace wharf::app {

struct DirectorySuggestions {
  std::vector<std::string> dirs;
  bool truncated = false;  // something was left out because of a bound
};

// Never throws; a workspace that cannot be read suggests nothing.
DirectorySuggestions suggest_directories(const std::filesystem::path& workspace, int max_depth = 3,
                                         std::size_t max_entries = 400);

}  // namespace wharf::app
