// Starts a program with a companion process beside it: the companion is forked first,
// dies with the program (PR_SET_PDEATHSIG), holds none of the program's terminal (its
// stdin, stdout and stderr are /dev/null), and the program then replaces the calling
// process, so its pid, its terminal and its exit status are the caller's. Used inside a
// sandbox, where the companion is the relay to wharf's egress proxy.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace wharf::pty {

// Returns only when something failed before the program could start (the fork, the
// exec); the companion's body must not return (it should _exit).
core::Status exec_with_companion(const std::vector<std::string>& argv,
                                 const std::function<void()>& companion);

}  // namespace wharf::pty
