// The environment a session's program starts with, built from scratch (docs/config.md).
// Only a fixed list of names is ever taken from the daemon's own environment (PATH, the
// locale, TMPDIR); everything else the daemon carries, its key and any secret it was
// started with included, never reaches a child.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wharf::core {

struct Account {
  std::string user;
  std::string home;
  std::string shell;
};

inline constexpr std::string_view kDefaultPath = "/usr/local/bin:/usr/bin:/bin";

// `daemon_environ` holds the daemon's "NAME=value" entries; the result is sorted
// "NAME=value" entries ready for execve.
std::vector<std::string> base_environment(const Account& account,
                                          std::span<const std::string> daemon_environ);

}  // namespace wharf::core
