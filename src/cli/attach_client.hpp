// The window behind `wharf attach ID` (see attach_client.cpp for how it behaves): the
// client that runs on this process's terminal until it leaves. The daemon's address
// comes from read_daemon_address (attach_connection.hpp).
#pragma once

#include <cstdint>

#include "cli/attach_connection.hpp"

namespace wharf::cli {

// Attaches this terminal (stdin must be one) to `session` and runs until it leaves:
// detached, the session ended, the daemon went away, an error or a signal. Restores the
// terminal, prints one line saying why, and returns the exit status (0 after a detach or
// the session's end, 1 otherwise).
int run_attach_client(DaemonAddress address, std::int64_t session);

}  // namespace wharf::cli
