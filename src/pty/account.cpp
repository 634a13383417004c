#include "pty/account.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

namespace wharf::pty {

core::Account current_account() {
  core::Account account;
  std::vector<char> buffer(16384);
  passwd entry{};
  passwd* found = nullptr;
  if (getpwuid_r(getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found) {
    account.user = found->pw_name ? found->pw_name : "";
    account.home = found->pw_dir ? found->pw_dir : "";
    account.shell = found->pw_shell ? found->pw_shell : "";
  }
  if (account.user.empty()) account.user = std::to_string(getuid());
  // The HOME wharf was started with wins over the password database, as it does for the
  // shell that started it: agents keep their conversations and settings under it.
  if (const char* home = std::getenv("HOME");
      home != nullptr && home[0] == '/' && access(home, X_OK) == 0)
    account.home = home;
  if (account.home.empty()) account.home = "/";
  // A shell that is missing or not executable would make every session die at once.
  if (account.shell.empty() || account.shell.front() != '/' ||
      access(account.shell.c_str(), X_OK) != 0)
    account.shell = "/bin/sh";
  return account;
}

}  // namespace wharf::pty
