#include "pty/process_tree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <charconv>
#include <csignal>
#include <optional>
#include <string>
#include <string_view>

namespace wharf::pty {
namespace {

struct StatFields {
  char state = '?';
  pid_t parent = -1;
  pid_t session = -1;
  unsigned long long start_time = 0;
};

// /proc/PID/stat is "pid (comm) state ppid pgrp session ..."; comm may contain spaces
// and parentheses, so parsing starts after the last ')'.
std::optional<StatFields> read_stat(pid_t pid) {
  std::array<char, 64> path{};
  auto written = std::snprintf(path.data(), path.size(), "/proc/%d/stat", pid);
  if (written <= 0) return std::nullopt;
  int fd = open(path.data(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::array<char, 1024> buf{};
  ssize_t n = read(fd, buf.data(), buf.size() - 1);
  close(fd);
  if (n <= 0) return std::nullopt;
  std::string_view text(buf.data(), static_cast<std::size_t>(n));
  auto close_paren = text.rfind(')');
  if (close_paren == std::string_view::npos || close_paren + 2 >= text.size()) return std::nullopt;
  std::string_view rest = text.substr(close_paren + 2);
  StatFields out;
  out.state = rest.front();
  // Then ppid, pgrp and session.
  auto next_field = [&rest]() {
    auto space = rest.find(' ');
    if (space == std::string_view::npos) return false;
    rest.remove_prefix(space + 1);
    return true;
  };
  if (!next_field()) return std::nullopt;
  auto [p, parent_ec] = std::from_chars(rest.data(), rest.data() + rest.size(), out.parent);
  if (parent_ec != std::errc{} || !next_field() || !next_field()) return std::nullopt;
  auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), out.session);
  if (ec != std::errc{}) return std::nullopt;
  // Sixteen fields on (tty_nr ... itrealvalue) is starttime: with the pid, it names one
  // process for good, since a pid is reused but never at the same start time.
  for (int i = 0; i < 16; ++i)
    if (!next_field()) return out;
  std::from_chars(rest.data(), rest.data() + rest.size(), out.start_time);
  return out;
}

}  // namespace

std::vector<pid_t> session_members(pid_t session_id) {
  std::vector<pid_t> members;
  for (pid_t pid : all_processes()) {
    auto stat = read_stat(pid);
    if (stat && stat->session == session_id && stat->state != 'Z' && stat->state != 'X')
      members.push_back(pid);
  }
  return members;
}

std::size_t signal_session(pid_t session_id, int signal) {
  auto members = session_members(session_id);
  for (pid_t pid : members) {
    kill(pid, signal);
    // A stopped job would sit on SIGHUP/SIGTERM until continued.
    if (signal != SIGKILL && signal != SIGCONT) kill(pid, SIGCONT);
  }
  return members.size();
}

std::vector<pid_t> all_processes() {
  std::vector<pid_t> out;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return out;
  while (dirent* entry = readdir(proc)) {
    std::string_view name(entry->d_name);
    pid_t pid = 0;
    auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), pid);
    if (ec == std::errc{} && ptr == name.data() + name.size()) out.push_back(pid);
  }
  closedir(proc);
  return out;
}

std::vector<ProcessLink> process_ancestry(pid_t pid, std::size_t limit) {
  std::vector<ProcessLink> chain;
  while (pid > 1 && chain.size() < limit) {
    auto stat = read_stat(pid);
    if (!stat) break;
    chain.push_back(
        ProcessLink{.pid = pid, .session = stat->session, .start_time = stat->start_time});
    pid = stat->parent;
  }
  return chain;
}

}  // namespace wharf::pty
