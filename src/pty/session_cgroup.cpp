#include "pty/session_cgroup.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

namespace wharf::pty {

namespace fs = std::filesystem;

namespace {

// Where cgroup v2 is mounted (the unified hierarchy), from /proc/self/mountinfo.
std::string cgroup2_mount() {
  std::ifstream in("/proc/self/mountinfo");
  for (std::string line; std::getline(in, line);) {
    // "... - cgroup2 cgroup2 rw": the fields after " - " are type, source, options.
    auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream tail(line.substr(dash + 3));
    std::string type;
    tail >> type;
    if (type != "cgroup2") continue;
    std::istringstream head(line.substr(0, dash));
    std::string field;
    for (int i = 0; i < 5 && head >> field; ++i) {
    }
    return field;  // the fifth field is the mount point
  }
  return {};
}

// This process's cgroup v2 path ("0::/user.slice/...").
std::string own_cgroup() {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("0::")) return line.substr(3);
  return {};
}

}  // namespace

void remove_empty_session_cgroups() {
  std::string mount = cgroup2_mount();
  std::string own = own_cgroup();
  if (mount.empty() || own.empty()) return;
  std::error_code ec;
  fs::path parent = fs::path(mount) / fs::path(own).relative_path();
  for (const auto& item : fs::directory_iterator(parent, ec)) {
    std::string name = item.path().filename().string();
    if (!name.starts_with("wharf-session-")) continue;
    // Named wharf-session-ID-HOSTPID: only a group whose host is gone is ours to clear
    // (a live host may be between making its group and its program joining it).
    auto dash = name.rfind('-');
    pid_t host = static_cast<pid_t>(std::strtol(name.c_str() + dash + 1, nullptr, 10));
    if (host <= 0 || ::kill(host, 0) == 0 || errno != ESRCH) continue;
    rmdir(item.path().c_str());  // refused (EBUSY) while it still has members
  }
}

core::Result<SessionCgroup> SessionCgroup::create(const std::string& name) {
  std::string mount = cgroup2_mount();
  if (mount.empty()) return core::Error{"this machine has no cgroup v2 hierarchy"};
  std::string own = own_cgroup();
  if (own.empty()) return core::Error{"this process is in no cgroup v2 group"};
  fs::path dir = fs::path(mount) / fs::path(own).relative_path() / name;
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    return core::Error{"cannot make the cgroup " + dir.string() + ": " + std::strerror(errno)};
  int fd = open((dir / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    rmdir(dir.c_str());
    return core::Error{"cannot join the cgroup " + dir.string() + ": " + std::strerror(err)};
  }
  return SessionCgroup(std::move(dir), fd);
}

SessionCgroup::SessionCgroup(SessionCgroup&& other) noexcept
    : path_(std::move(other.path_)), procs_fd_(std::exchange(other.procs_fd_, -1)) {
  other.path_.clear();
}

SessionCgroup& SessionCgroup::operator=(SessionCgroup&& other) noexcept {
  if (this != &other) {
    remove();
    path_ = std::exchange(other.path_, {});
    procs_fd_ = std::exchange(other.procs_fd_, -1);
  }
  return *this;
}

SessionCgroup::~SessionCgroup() {
  remove();
}

std::vector<pid_t> SessionCgroup::members() const {
  std::vector<pid_t> out;
  if (path_.empty()) return out;
  std::ifstream in(path_ / "cgroup.procs");
  for (long pid = 0; in >> pid;) out.push_back(static_cast<pid_t>(pid));
  return out;
}

std::size_t SessionCgroup::signal_all(int signal) const {
  std::vector<pid_t> pids = members();
  for (pid_t pid : pids) ::kill(pid, signal);
  return pids.size();
}

bool SessionCgroup::kill_all() const {
  if (path_.empty()) return false;
  int fd = open((path_ / "cgroup.kill").c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool done = write(fd, "1", 1) == 1;
  close(fd);
  return done;
}

void SessionCgroup::remove() {
  if (procs_fd_ >= 0) close(std::exchange(procs_fd_, -1));
  if (path_.empty()) return;
  // Fails while members remain (zombies not reaped yet): the caller asks again later.
  if (rmdir(path_.c_str()) == 0 || errno == ENOENT) path_.clear();
}

}  // namespace wharf::pty
