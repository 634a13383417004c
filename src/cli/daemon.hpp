// The composition root of `wharf serve`: resolves the state directory, mints (or takes)
// the key, loads the page, starts the session service and the listener on one
// io_context thread, prints the URL, and on SIGINT/SIGTERM ends every session before
// exiting. Nothing else in wharf wires layers together.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace wharf::cli {

struct DaemonOptions {
  std::uint16_t port = 7373;
  std::string listen = "127.0.0.1";
  std::optional<std::string> state_dir;
  std::optional<std::string> workspace;  // default: the directory wharf starts in
  std::optional<std::string> assets;     // default: beside the binary
  std::string log_level = "info";
  std::size_t max_sessions = 8;
  unsigned idle_expiry_seconds = 0;  // 0: sessions never expire
};

// Returns the process exit code.
int run_daemon(const DaemonOptions& options);

}  // namespace wharf::cli
