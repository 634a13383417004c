// A short-lived helper program with no terminal: the notification command hook
// ([notifications] command). It runs in a process session of its own (so a timeout can
// kill everything it started), reads what the daemon writes to its standard input, and
// has /dev/null for output. Its exit is reaped by the daemon's reaper like every child;
// a pidfd tells the caller when it is gone, and guards the kill against a reused pid.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "core/result.hpp"

namespace wharf::pty {

struct CommandProcess {
  pid_t pid = -1;
  int stdin_fd = -1;  // write end, non-blocking, close-on-exec; the caller closes it
  int pidfd = -1;     // readable once the process has exited; the caller closes it
};

// `program` is a path (already looked up); argv[0] is its name as given. The child gets
// the daemon's environment.
core::Result<CommandProcess> spawn_command(const std::string& program,
                                           const std::vector<std::string>& argv);

// Kills the command's process session, unless the process has already exited (then its
// pid may belong to someone else by now). Returns whether a signal was sent.
bool kill_command(const CommandProcess& process);

}  // namespace wharf::pty
