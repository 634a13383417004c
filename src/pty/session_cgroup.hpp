// A cgroup (v2) of one session: every process the session's program starts stays in it,
// including those that call setsid() and so leave the terminal session that ending a
// session walks (pty/process_tree.hpp). Ending then reaches them too, and `cgroup.kill`
// takes the whole group down at once.
//
// Made as a child of the cgroup the host runs in, which works where that cgroup is
// writable by the user (root, a delegated systemd user slice); elsewhere create() says
// why not and the session relies on the process-session walk alone (docs/hosts.md).
// Membership needs no controller, so none is enabled.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace wharf::pty {

// Removes the empty session cgroups beside this process's own whose host is gone: hosts
// killed or crashed cannot remove theirs. A group with members is left alone.
void remove_empty_session_cgroups();

class SessionCgroup {
 public:
  // `name` is the new directory's name, e.g. "wharf-session-3-1234".
  static core::Result<SessionCgroup> create(const std::string& name);

  SessionCgroup(SessionCgroup&& other) noexcept;
  SessionCgroup& operator=(SessionCgroup&& other) noexcept;
  SessionCgroup(const SessionCgroup&) = delete;
  SessionCgroup& operator=(const SessionCgroup&) = delete;
  ~SessionCgroup();

  // Open for writing `cgroup.procs`: a child that writes "0" to it joins the group
  // (pty::SpawnSpec::cgroup_procs_fd does that between fork and exec).
  int procs_fd() const { return procs_fd_; }
  const std::filesystem::path& path() const { return path_; }

  std::vector<pid_t> members() const;
  // Signals every member; returns how many there were.
  std::size_t signal_all(int signal) const;
  // Kills every member at once (cgroup.kill, Linux 5.14); false where it is missing.
  bool kill_all() const;
  // Removes the directory once it is empty; idempotent.
  void remove();

 private:
  SessionCgroup(std::filesystem::path path, int procs_fd)
      : path_(std::move(path)), procs_fd_(procs_fd) {}
  std::filesystem::path path_;
  int procs_fd_ = -1;
};

}  // namespace wharf::pty
