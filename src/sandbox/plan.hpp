// A sandbox plan: the mounts and namespaces bubblewrap sets up for one session, worked
// out from the session's declared capabilities and a description of this machine. Pure:
// the machine is described by HostLayout (gathered by probe.cpp), so every rule below is
// a unit test.
//
// What a sandboxed program sees:
// - the system read-only (/usr and the merged-/usr links, /etc minus its secrets, /opt);
// - its own /proc (a new pid namespace), a minimal /dev, a private /tmp;
// - a private, empty HOME (tmpfs) into which only the declared readable and writable
//   paths are bound, so dotfiles, keys and tokens elsewhere in HOME are absent;
// - the declared paths, the writable ones read-write (the workspace by default);
// - never wharf's state directory (the key file, the store, other sessions' panes): when a
//   declared path contains it, an empty tmpfs is laid over it;
// - no network but loopback unless the capabilities say `host`.
// Mount order matters to bubblewrap (a later mount covers an earlier one): parents go
// before children, and the hiding mounts come last.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/capabilities.hpp"
#include "core/result.hpp"

namespace wharf::sandbox {

struct HostLayout {
  std::vector<std::string> system_dirs;                       // existing: /usr, /etc, /opt...
  std::vector<std::pair<std::string, std::string>> symlinks;  // "/bin" -> "usr/bin"
  std::vector<std::string> secret_files;                      // existing, to cover
  std::vector<std::string> secret_dirs;                       // existing, to cover
  std::string home;                                           // the user's HOME
  std::string state_dir;                                      // wharf's; never visible
  std::vector<std::string> dns_paths;                         // for network host (resolv.conf)
};

struct Mount {
  enum class Kind { kReadOnly, kWritable, kTmpfs, kEmptyFile, kSymlink };
  Kind kind;
  std::string target;
  std::string source;  // the link's text for kSymlink; the host path for binds
  friend bool operator==(const Mount&, const Mount&) = default;
};

struct Plan {
  std::vector<Mount> mounts;
  std::string cwd;
  bool share_network = false;
};

// Refuses what cannot be honoured: a relative or climbing path, a cwd the program could
// not enter, a declared path inside wharf's state directory.
core::Result<Plan> plan_sandbox(const core::Capabilities& capabilities, const HostLayout& layout,
                                const std::string& cwd);

// bwrap's arguments for the plan, then `--`, then the program's argv.
std::vector<std::string> bwrap_argv(const std::string& bwrap, const Plan& plan,
                                    const std::vector<std::string>& program);

}  // namespace wharf::sandbox
