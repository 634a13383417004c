#include "app/directory_suggestions.hpp"

#include <algorithm>
#include <deque>
#include <system_error>
#include <utility>

namespace wharf::app {
namespace fs = std::filesystem;

namespace {

// Names read from one folder at most: a folder of a million files must not stall the
// daemon's thread. Stopping early counts as leaving something out.
constexpr std::size_t kMaxNamesPerFolder = 10000;

bool is_skipped(const std::string& name) {
  return name.empty() || name.front() == '.' || name == "node_modules";
}

struct Listing {
  std::vector<std::string> names;  // sorted
  bool cut_short = false;
};

// The subdirectories of `dir` worth suggesting. symlink_status() so that a link is seen
// as a link, never as what it points to. With `first_only` the caller just wants to know
// whether there is any.
Listing list_subdirectories(const fs::path& dir, bool first_only) {
  Listing listing;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  std::size_t seen = 0;
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (++seen > kMaxNamesPerFolder) {
      listing.cut_short = true;
      break;
    }
    std::error_code status_ec;
    fs::file_status status = it->symlink_status(status_ec);
    if (status_ec || !fs::is_directory(status)) continue;
    std::string name = it->path().filename().string();
    if (is_skipped(name)) continue;
    listing.names.push_back(std::move(name));
    if (first_only) break;
  }
  std::sort(listing.names.begin(), listing.names.end());
  return listing;
}

}  // namespace

DirectorySuggestions suggest_directories(const fs::path& workspace, int max_depth,
                                         std::size_t max_entries) {
  DirectorySuggestions result;
  // Filesystem calls use error codes; this catch is for allocation failure only, which
  // leaves a shorter list rather than an exception on the daemon's thread.
  try {
    struct Pending {
      fs::path relative;  // empty for the workspace itself
      int depth;
    };
    // Breadth-first with each folder's names sorted: the results come out ordered by
    // depth, then path, and a bound cuts off the deepest and last ones.
    std::deque<Pending> queue{{fs::path(), 0}};
    while (!queue.empty()) {
      Pending next = std::move(queue.front());
      queue.pop_front();
      bool full = result.dirs.size() >= max_entries;
      bool at_depth_bound = next.depth >= max_depth;
      // Past either bound a folder is only looked into to learn whether it hides
      // anything, which matters until truncation is known.
      if ((full || at_depth_bound) && result.truncated) continue;
      fs::path dir = next.relative.empty() ? workspace : workspace / next.relative;
      Listing listing = list_subdirectories(dir, full || at_depth_bound);
      if (listing.cut_short) result.truncated = true;
      if (full || at_depth_bound) {
        if (!listing.names.empty()) result.truncated = true;
        continue;
      }
      for (auto& name : listing.names) {
        if (result.dirs.size() >= max_entries) {
          result.truncated = true;
          break;
        }
        fs::path child = next.relative / name;
        result.dirs.push_back(child.generic_string());
        queue.push_back({std::move(child), next.depth + 1});
      }
    }
  } catch (...) {
    result.truncated = true;
  }
  return result;
}

}  // namespace wharf::app
