// A program with a companion process (see companion.hpp).
#include "pty/companion.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace wharf::pty {

core::Status exec_with_companion(const std::vector<std::string>& argv,
                                 const std::function<void()>& companion) {
  if (argv.empty()) return core::Error{"no program to start", "bad_argument"};
  pid_t parent = ::getpid();
  pid_t child = ::fork();
  if (child < 0)
    return core::Error{std::string("cannot fork the companion: ") + std::strerror(errno)};
  if (child == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(0);  // the program is already gone
    int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    companion();
    ::_exit(0);
  }
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  ::execvp(args[0], args.data());
  int error = errno;
  ::kill(child, SIGKILL);
  return core::Error{"cannot start " + argv[0] + ": " + std::strerror(error), "not_installed"};
}

}  // namespace wharf::pty
