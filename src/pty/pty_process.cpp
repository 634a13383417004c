#include "pty/pty_process.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <utility>

namespace wharf::pty {
namespace {

// Closes an fd on scope exit unless released.
class FdGuard {
 public:
  explicit FdGuard(int fd) : fd_(fd) {}
  FdGuard(const FdGuard&) = delete;
  FdGuard& operator=(const FdGuard&) = delete;
  ~FdGuard() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

std::vector<char*> c_strings(const std::vector<std::string>& in) {
  std::vector<char*> out;
  out.reserve(in.size() + 1);
  for (const auto& s : in) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

winsize to_winsize(core::TerminalSize size) {
  winsize ws{};
  ws.ws_col = size.cols;
  ws.ws_row = size.rows;
  return ws;
}

core::Error errno_error(const std::string& what, int err) {
  return core::Error{what + ": " + std::strerror(err)};
}

// Reports a failed step of the child's setup (a stage byte and errno) and exits.
[[noreturn]] void child_failed(int report_fd, unsigned char stage) {
  int err = errno;
  unsigned char msg[1 + sizeof(int)];
  msg[0] = stage;
  std::memcpy(msg + 1, &err, sizeof(int));
  ssize_t ignored = write(report_fd, msg, sizeof msg);
  (void)ignored;
  _exit(127);
}

// Runs in the forked child: only async-signal-safe calls until execve. Any failure is
// reported through `report_fd` as an errno value plus a stage byte.
[[noreturn]] void exec_child(int slave_fd, int report_fd, const char* program, char** argv,
                             char** envp, const char* cwd, int cgroup_fd) {
  auto fail = [report_fd](unsigned char stage) { child_failed(report_fd, stage); };

  sigset_t all;
  sigemptyset(&all);
  sigprocmask(SIG_SETMASK, &all, nullptr);
  for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);

  // Into the session's cgroup before anything else runs, so nothing it starts is outside.
  // A refusal is not fatal: ending then relies on the process-session walk.
  if (cgroup_fd >= 0) {
    ssize_t joined = write(cgroup_fd, "0", 1);
    (void)joined;
  }
  if (setsid() < 0) fail('s');
  if (ioctl(slave_fd, TIOCSCTTY, 0) < 0) fail('t');
  if (dup2(slave_fd, 0) < 0 || dup2(slave_fd, 1) < 0 || dup2(slave_fd, 2) < 0) fail('d');
  // The report pipe must stay open until exec; everything else above 2 goes now.
  if (report_fd > 3) close_range(3, static_cast<unsigned>(report_fd) - 1, 0);
  close_range(static_cast<unsigned>(report_fd) + 1, ~0U, 0);
  if (chdir(cwd) < 0) fail('c');
  execve(program, argv, envp);
  child_failed(report_fd, 'e');
}

}  // namespace

core::Result<PtyProcess> PtyProcess::spawn(const SpawnSpec& spec) {
  if (spec.argv.empty()) return core::Error{"no program to start"};

  FdGuard master(posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (master.get() < 0) return errno_error("cannot open a pseudo-terminal", errno);
  if (grantpt(master.get()) < 0 || unlockpt(master.get()) < 0)
    return errno_error("cannot unlock the pseudo-terminal", errno);
  std::array<char, 128> slave_name{};
  if (ptsname_r(master.get(), slave_name.data(), slave_name.size()) != 0)
    return errno_error("cannot name the pseudo-terminal", errno);
  FdGuard slave(open(slave_name.data(), O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (slave.get() < 0) return errno_error("cannot open the terminal side", errno);

  // UTF-8 aware line editing (erase removes a whole character) and the requested size.
  termios modes{};
  if (tcgetattr(slave.get(), &modes) == 0) {
    modes.c_iflag |= IUTF8;
    tcsetattr(slave.get(), TCSANOW, &modes);
  }
  winsize ws = to_winsize(spec.size);
  ioctl(master.get(), TIOCSWINSZ, &ws);

  std::array<int, 2> report{};
  if (pipe2(report.data(), O_CLOEXEC) < 0) return errno_error("cannot create a pipe", errno);
  FdGuard report_read(report[0]);
  FdGuard report_write(report[1]);

  // Everything the child needs is prepared before fork: after it, only syscalls.
  auto argv = c_strings(spec.argv);
  auto envp = c_strings(spec.env);

  pid_t pid = fork();
  if (pid < 0) return errno_error("cannot start a process", errno);
  if (pid == 0) {
    exec_child(slave.get(), report_write.get(), spec.program.c_str(), argv.data(), envp.data(),
               spec.cwd.c_str(), spec.cgroup_procs_fd);
  }

  close(report_write.release());
  unsigned char msg[1 + sizeof(int)];
  ssize_t n;
  do {
    n = read(report_read.get(), msg, sizeof msg);
  } while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof msg)) {
    int err = 0;
    std::memcpy(&err, msg + 1, sizeof(int));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    switch (msg[0]) {
      case 'c':
        return errno_error("cannot enter directory " + spec.cwd, err);
      case 'e':
        return errno_error("cannot run " + spec.program, err);
      default:
        return errno_error("cannot set up the terminal for " + spec.program, err);
    }
  }
  return PtyProcess(pid, master.release());
}

PtyProcess::PtyProcess(PtyProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)), master_fd_(std::exchange(other.master_fd_, -1)) {}

PtyProcess& PtyProcess::operator=(PtyProcess&& other) noexcept {
  if (this != &other) {
    if (master_fd_ >= 0) close(master_fd_);
    pid_ = std::exchange(other.pid_, -1);
    master_fd_ = std::exchange(other.master_fd_, -1);
  }
  return *this;
}

PtyProcess::~PtyProcess() {
  if (master_fd_ >= 0) close(master_fd_);
}

int PtyProcess::release_master() {
  return std::exchange(master_fd_, -1);
}

bool PtyProcess::resize(int master_fd, core::TerminalSize size) {
  winsize ws = to_winsize(size);
  return ioctl(master_fd, TIOCSWINSZ, &ws) == 0;
}

}  // namespace wharf::pty
