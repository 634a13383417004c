// The git and gh shim (docs/sandbox.md, "Guards"). Inside a sandbox the wharf binary is
// bound over the real git and gh, so `git ...` runs wharf with argv[0] "git"; main()
// hands such a process here before any command-line parsing. A command the guard rules
// (core/guard_rules.hpp) pass is replaced at once by the real program, bound at
// /run/wharf/real/<name>, with the same arguments. A guarded one is sent to the daemon
// over the session channel ($WHARF_CHANNEL) with this process's stdin, stdout and stderr,
// and the shim waits: the person approves (the daemon runs the real command outside the
// sandbox on those fds, and the shim exits with its status), denies, or lets it expire.
#pragma once

#include <string_view>

namespace wharf::cli {

inline constexpr std::string_view kRealProgramDir = "/run/wharf/real";

// Whether argv[0] names a program the shim stands in for ("git" or "gh").
bool is_guard_shim(const char* argv0);

// Never returns when it execs the real program; otherwise the exit status.
int run_guard_shim(int argc, char** argv);

}  // namespace wharf::cli
