// The window behind `wharf attach ID` (see attach_client.cpp for how it behaves): the
// daemon's address from its URL file, and the client that runs on this process's
// terminal until it leaves.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.hpp"

namespace wharf::cli {

// Where the daemon listens, from its URL file (http://HOST:PORT/?k=KEY).
struct DaemonAddress {
  std::string url;
  std::string host;  // for the resolver: IPv6 without brackets
  std::string port;
  std::string host_header;  // HOST:PORT as the URL spells it
  std::string key;
};

core::Result<DaemonAddress> read_daemon_address(const std::string& state_dir);

// Attaches this terminal (stdin must be one) to `session` and runs until it leaves:
// detached, the session ended, the daemon went away, an error or a signal. Restores the
// terminal, prints one line saying why, and returns the exit status (0 after a detach or
// the session's end, 1 otherwise).
int run_attach_client(DaemonAddress address, std::int64_t session);

}  // namespace wharf::cli
