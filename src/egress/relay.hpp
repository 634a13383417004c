// The relay inside a sandbox: a sandboxed program with `network = "allow"` has only
// loopback, and its HTTPS_PROXY names 127.0.0.1:PORT; the relay listens there and carries
// each connection, unchanged, to wharf's egress proxy over the Unix socket bound into the
// sandbox. It understands nothing of what it carries: the proxy on the other side judges.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.hpp"

namespace wharf::egress {

// Listens on 127.0.0.1:port (before the program starts, so its first request finds it).
core::Result<int> bind_relay_port(std::uint16_t port);

// Serves until the process is killed; never returns.
[[noreturn]] void run_relay(int listen_fd, const std::string& proxy_socket);

}  // namespace wharf::egress
