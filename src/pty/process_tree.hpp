// Finding and signalling every process of a terminal session. A shell puts background
// jobs in process groups of their own, so signalling the leader's group is not enough:
// a session is ended by signalling every live process whose session id is the leader's
// pid (read from /proc). Zombies are skipped: they are dead and only wait to be reaped.
#pragma once

#include <sys/types.h>

#include <vector>

namespace wharf::pty {

std::vector<pid_t> session_members(pid_t session_id);

// Sends `signal` to every live member; returns how many there were.
std::size_t signal_session(pid_t session_id, int signal);

}  // namespace wharf::pty
