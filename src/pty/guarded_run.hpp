// Running an approved guarded command (docs/sandbox.md, "Guards") outside the sandbox:
// the real git or gh, in the directory the sandboxed program asked from, with the
// session's environment, and with the sandboxed program's own stdin, stdout and stderr
// (received over the session channel), so its output lands where the person watches.
//
// The daemon's SIGCHLD handler reaps every child with waitpid(-1) and keeps no status,
// so the command is not the daemon's child: a small runner process is, which starts the
// command, waits for it, and writes its wait status (an int, 4 bytes) to a pipe before
// exiting. The caller reads that pipe; end-of-file without 4 bytes means the runner was
// killed. The command runs in a process session of its own, so a signal meant for the
// daemon (Ctrl-C in its terminal) never reaches it.
#pragma once

#include <sys/types.h>

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/exit_status.hpp"
#include "core/result.hpp"

namespace wharf::pty {

struct GuardedCommand {
  std::string program;                   // an absolute path, already looked up
  std::vector<std::string> argv;         // argv[0] is the program's name
  std::vector<std::string> env;          // NAME=value entries, the whole environment
  std::string cwd;                       // must exist
  std::array<int, 3> stdio{-1, -1, -1};  // stay open and owned by the caller
};

struct GuardedRun {
  pid_t runner = -1;   // reaped by the daemon's reaper like every child
  int status_fd = -1;  // read end, close-on-exec, blocking; the caller closes it
};

core::Result<GuardedRun> spawn_guarded(const GuardedCommand& command);

// The command's end from the bytes read from status_fd up to end-of-file; nullopt when
// they are not one whole wait status (the runner died first).
std::optional<core::ExitStatus> decode_guarded_status(std::string_view bytes);

// The program's absolute path: `name` looked up in a PATH value (directories split on
// ':'; empty or relative entries are skipped, since the daemon's own directory means
// nothing to the session). nullopt when no entry holds an executable file of that name.
std::optional<std::string> find_on_path(std::string_view name, std::string_view path);

}  // namespace wharf::pty
