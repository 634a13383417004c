// Reaping. wharf makes itself a child subreaper so that a session's orphaned
// grandchildren are re-parented to the daemon rather than to init: the daemon then
// reaps every process its sessions ever started, and none is left a zombie.
#pragma once

#include <sys/types.h>

#include <functional>

#include "core/exit_status.hpp"

namespace wharf::pty {

// Returns false if the kernel refused (the daemon still works, orphans go to init).
bool become_subreaper();

// Collects every exited child (waitpid loop, never blocks); SIGCHLD coalesces, so one
// signal may stand for many exits.
void reap_exited_children(const std::function<void(pid_t, core::ExitStatus)>& on_exit);

}  // namespace wharf::pty
