// The daemon's side of starting and finding session hosts (host/session_host.hpp).
//
// launch_host() starts a new host detached from the daemon (its own process session,
// re-parented away from the daemon, so a daemon's death or its terminal's Ctrl-C never
// reaches it), hands it the spawn request over a socket pair and waits for its answer.
// connect_host() reaches a host a previous daemon left, by its socket in the hosts dir.
// Both return the connected socket with what the host said first: its state and the
// screen as bytes. They block, with a deadline: a start or a daemon's start-up waits for
// them, and a host answers in milliseconds.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/host_protocol.hpp"
#include "core/result.hpp"

namespace wharf::host {

struct HostConnection {
  int fd = -1;  // connected, blocking; the caller owns it
  core::host::HostState state;
  std::string snapshot;
  std::string leftover;  // bytes read past the snapshot (the start of live output)
};

// `title` becomes the host's argv[0], what `ps` shows: "wharf-host: 3 claude".
core::Result<HostConnection> launch_host(const core::host::SpawnRequest& request,
                                         const std::filesystem::path& socket_path,
                                         const std::string& title);

// Error codes: "unreachable" (no host listens: a stale socket, removed), "protocol" (a
// host of another protocol version: left running, the message says which).
core::Result<HostConnection> connect_host(const std::filesystem::path& socket_path);

// The sockets in `dir` named <id>.sock, by id.
std::vector<std::pair<std::uint64_t, std::filesystem::path>> host_sockets(
    const std::filesystem::path& dir);

}  // namespace wharf::host
