#include "pty/command_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>

extern char** environ;

namespace wharf::pty {
namespace {

core::Error errno_error(const std::string& what, int err) {
  return core::Error{what + ": " + std::strerror(err)};
}

}  // namespace

core::Result<CommandProcess> spawn_command(const std::string& program,
                                           const std::vector<std::string>& argv) {
  if (argv.empty()) return core::Error{"no program to run"};
  std::array<int, 2> input{};
  if (pipe2(input.data(), O_CLOEXEC) < 0) return errno_error("cannot create a pipe", errno);
  int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null_fd < 0) {
    int err = errno;
    close(input[0]);
    close(input[1]);
    return errno_error("cannot open /dev/null", err);
  }
  // Everything the child needs is prepared before fork: after it, only syscalls.
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);

  pid_t pid = fork();
  if (pid < 0) {
    int err = errno;
    close(input[0]);
    close(input[1]);
    close(null_fd);
    return errno_error("cannot start a process", err);
  }
  if (pid == 0) {
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, nullptr);
    for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
    setsid();
    if (dup2(input[0], 0) < 0 || dup2(null_fd, 1) < 0 || dup2(null_fd, 2) < 0) _exit(127);
    close_range(3, ~0U, 0);
    execve(program.c_str(), args.data(), environ);
    _exit(127);
  }
  close(input[0]);
  close(null_fd);
  CommandProcess process;
  process.pid = pid;
  process.stdin_fd = input[1];
  fcntl(process.stdin_fd, F_SETFL, fcntl(process.stdin_fd, F_GETFL) | O_NONBLOCK);
  // Opened before the child can have been reaped: the reaper runs on the caller's thread,
  // which is here.
  process.pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (process.pidfd < 0) {
    int err = errno;
    kill(-pid, SIGKILL);
    close(process.stdin_fd);
    return errno_error("cannot follow the started process", err);
  }
  return process;
}

bool kill_command(const CommandProcess& process) {
  if (process.pidfd < 0) return false;
  pollfd exited{.fd = process.pidfd, .events = POLLIN, .revents = 0};
  if (poll(&exited, 1, 0) != 0) return false;  // gone (or unknowable): never guess a pid
  return kill(-process.pid, SIGKILL) == 0;
}

}  // namespace wharf::pty
