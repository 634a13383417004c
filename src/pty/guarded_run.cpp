#include "pty/guarded_run.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

namespace wharf::pty {
namespace {

core::Error errno_error(const std::string& what, int err) {
  return core::Error{what + ": " + std::strerror(err)};
}

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

// In the command's process, after fork: only async-signal-safe calls.
[[noreturn]] void exec_command(const GuardedCommand& command, char* const* args, char* const* env,
                               const char* cwd_message, std::size_t cwd_message_size) {
  setsid();
  // The three fds may sit anywhere, 0 to 2 included: move them out of the way first.
  int moved[3];
  for (int i = 0; i < 3; ++i) {
    moved[i] = fcntl(command.stdio[static_cast<std::size_t>(i)], F_DUPFD_CLOEXEC, 10);
    if (moved[i] < 0) _exit(127);
  }
  for (int i = 0; i < 3; ++i)
    if (dup2(moved[i], i) < 0) _exit(127);
  close_range(3, ~0U, 0);
  if (chdir(command.cwd.c_str()) < 0) {
    write_all(2, cwd_message, cwd_message_size);
    _exit(127);
  }
  execve(command.program.c_str(), args, env);
  static constexpr char kExecFailed[] = "wharf: cannot run the approved command\n";
  write_all(2, kExecFailed, sizeof kExecFailed - 1);
  _exit(127);
}

// The runner never execs, so close-on-exec does nothing for it: it closes every daemon fd
// it does not need, lest a connection the daemon closes stay open while the command runs.
void close_all_but(int status_fd, const std::array<int, 3>& stdio) {
  std::array<int, 4> keep{status_fd, stdio[0], stdio[1], stdio[2]};
  std::sort(keep.begin(), keep.end());
  unsigned next = 3;
  for (int fd : keep) {
    if (fd < static_cast<int>(next)) continue;
    if (static_cast<unsigned>(fd) > next) close_range(next, static_cast<unsigned>(fd) - 1, 0);
    next = static_cast<unsigned>(fd) + 1;
  }
  close_range(next, ~0U, 0);
}

}  // namespace

core::Result<GuardedRun> spawn_guarded(const GuardedCommand& command) {
  if (command.argv.empty()) return core::Error{"no command to run"};
  for (int fd : command.stdio)
    if (fd < 0) return core::Error{"the command's stdin, stdout and stderr are missing"};
  int status_pipe[2];
  if (pipe2(status_pipe, O_CLOEXEC) < 0) return errno_error("cannot create a pipe", errno);
  // Everything the children need is prepared before fork: after it, only syscalls.
  std::vector<char*> args;
  for (const auto& arg : command.argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<char*> env;
  for (const auto& entry : command.env) env.push_back(const_cast<char*>(entry.c_str()));
  env.push_back(nullptr);
  const std::string cwd_message = "wharf: cannot enter " + command.cwd + "\n";

  pid_t runner = fork();
  if (runner < 0) {
    int err = errno;
    close(status_pipe[0]);
    close(status_pipe[1]);
    return errno_error("cannot start a process", err);
  }
  if (runner == 0) {
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, nullptr);
    for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
    close(status_pipe[0]);
    close_all_but(status_pipe[1], command.stdio);
    pid_t child = fork();
    if (child == 0)
      exec_command(command, args.data(), env.data(), cwd_message.data(), cwd_message.size());
    int status = 0;
    if (child > 0) {
      while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
    } else {
      status = 127 << 8;  // as if exec had failed: the command never ran
    }
    write_all(status_pipe[1], reinterpret_cast<const char*>(&status), sizeof status);
    _exit(0);
  }
  close(status_pipe[1]);
  return GuardedRun{runner, status_pipe[0]};
}

std::optional<core::ExitStatus> decode_guarded_status(std::string_view bytes) {
  int status = 0;
  if (bytes.size() != sizeof status) return std::nullopt;
  std::memcpy(&status, bytes.data(), sizeof status);
  core::ExitStatus exit;
  if (WIFEXITED(status))
    exit.code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    exit.signal = WTERMSIG(status);
  else
    return std::nullopt;
  return exit;
}

std::optional<std::string> find_on_path(std::string_view name, std::string_view path) {
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  while (!path.empty()) {
    std::size_t colon = path.find(':');
    std::string_view dir = path.substr(0, colon);
    path = colon == std::string_view::npos ? std::string_view() : path.substr(colon + 1);
    if (dir.empty() || dir.front() != '/') continue;
    std::string candidate = std::string(dir) + "/" + std::string(name);
    struct stat info {};
    if (stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return std::nullopt;
}

}  // namespace wharf::pty
