// A program running on a fresh pseudo-terminal, in a session and process group of its
// own with the PTY as its controlling terminal.
//
// Invariants: every fd wharf opens is close-on-exec, and the child additionally closes
// everything above 2 before exec, so the program sees only its terminal; signal
// dispositions and the mask are reset so it does not inherit the daemon's (an ignored
// SIGPIPE would otherwise survive exec); its environment is exactly SpawnSpec::env.
// spawn() reports a failed exec (missing program, bad directory) as an error instead of
// returning a process that dies at once.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "core/result.hpp"
#include "core/terminal_size.hpp"

namespace wharf::pty {

struct SpawnSpec {
  std::string program;            // path passed to execve
  std::vector<std::string> argv;  // argv[0] starting with '-' makes a login shell
  std::vector<std::string> env;   // complete "NAME=value" list
  std::string cwd;
  core::TerminalSize size;
  // An open `cgroup.procs` (pty/session_cgroup.hpp) the program joins before exec; -1:
  // none.
  int cgroup_procs_fd = -1;
};

class PtyProcess {
 public:
  static core::Result<PtyProcess> spawn(const SpawnSpec& spec);

  PtyProcess(PtyProcess&& other) noexcept;
  PtyProcess& operator=(PtyProcess&& other) noexcept;
  PtyProcess(const PtyProcess&) = delete;
  PtyProcess& operator=(const PtyProcess&) = delete;
  ~PtyProcess();

  pid_t pid() const { return pid_; }
  // The master side; the caller may hand it to an event loop with release_master().
  int master_fd() const { return master_fd_; }
  int release_master();

  // Applies a (clamped) size; the kernel sends SIGWINCH to the foreground group.
  static bool resize(int master_fd, core::TerminalSize size);

 private:
  PtyProcess(pid_t pid, int master_fd) : pid_(pid), master_fd_(master_fd) {}
  pid_t pid_ = -1;
  int master_fd_ = -1;
};

}  // namespace wharf::pty
