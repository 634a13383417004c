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

struct ProcessLink {
  pid_t pid;
  pid_t session;                      // the process's session id (the pid of its session's leader)
  unsigned long long start_time = 0;  // clock ticks after boot: with pid, one process
};

// Every pid in /proc now.
std::vector<pid_t> all_processes();

// `pid`, its parent, its parent's parent... up to (not including) init, at most `limit`
// long; shorter when a process in the chain is gone.
std::vector<ProcessLink> process_ancestry(pid_t pid, std::size_t limit = 64);

}  // namespace wharf::pty
