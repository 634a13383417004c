#include "pty/child_reaper.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>

#include <cerrno>

namespace wharf::pty {

bool become_subreaper() {
  return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL) == 0;
}

void reap_exited_children(const std::function<void(pid_t, core::ExitStatus)>& on_exit) {
  for (;;) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid < 0 && errno == EINTR) continue;
    if (pid <= 0) return;  // 0: children left but none exited; -1/ECHILD: none left
    core::ExitStatus exit;
    if (WIFEXITED(status)) exit.code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) exit.signal = WTERMSIG(status);
    on_exit(pid, exit);
  }
}

}  // namespace wharf::pty
