// Turning a session's spawn into a sandboxed one: the bubblewrap command line that runs
// the program with exactly its capabilities, the few things wharf itself lays over the
// plan (its own binary, the session's directory with the egress and channel sockets, the
// guard shims over git and gh), and the variables that point the program at them.
//
// What the program sees at /run/wharf: `wharf` (this binary), `session/` (read-only; its
// egress.sock and channel.sock), `real/git` and `real/gh` (the real tools, which the shims
// at their usual paths run for everything that publishes nothing). State files a session
// needs (wharf's agent settings, the context note, the shell integration) are shown
// read-only at their own paths; the rest of the state directory stays absent.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/capabilities.hpp"
#include "core/result.hpp"
#include "pty/pty_process.hpp"
#include "sandbox/plan.hpp"

namespace wharf::app {

inline constexpr const char* kSandboxRunDir = "/run/wharf";
inline constexpr const char* kSandboxSessionDir = "/run/wharf/session";
inline constexpr const char* kSandboxWharf = "/run/wharf/wharf";
// The loopback port inside the sandbox where `wharf sandbox-run` relays to the proxy.
inline constexpr int kSandboxProxyPort = 3128;

// What the machine offers sandboxes, worked out once when the daemon starts.
struct SandboxSite {
  core::Result<std::string> bwrap = core::Error{"not probed", "no_sandbox"};
  sandbox::HostLayout layout;
  std::string wharf_binary;                                  // this wharf, on the host
  std::vector<std::string> exposed;                          // state files shown read-only
  std::vector<std::pair<std::string, std::string>> guarded;  // "git" -> "/usr/bin/git"
};

// The spawn rewritten to start under bubblewrap; `session_dir` is the host directory
// bound at /run/wharf/session. Refused: no bubblewrap (or no user namespaces: the probe's
// message says which and how to enable it), a plan that cannot be honoured.
core::Result<pty::SpawnSpec> sandboxed_spawn(const pty::SpawnSpec& spec,
                                             const core::Capabilities& capabilities,
                                             const SandboxSite& site,
                                             const std::string& session_dir);

}  // namespace wharf::app
