// The composition root of `wharf serve`: resolves the state directory, mints (or takes)
// the key, loads the page, starts the session service and the listener on one
// io_context thread, prints the URL, and on SIGINT/SIGTERM ends every session before
// exiting. Nothing else in wharf wires layers together.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace wharf::cli {

// Unset options come from the config file, then from wharf's defaults (docs/config.md).
struct DaemonOptions {
  std::optional<std::uint16_t> port;  // default 7373
  std::optional<std::string> listen;  // default 127.0.0.1
  std::optional<std::string> state_dir;
  std::optional<std::string> workspace;            // default: the directory wharf starts in
  std::optional<std::string> assets;               // default: beside the binary
  std::optional<std::string> config;               // default: ~/.config/wharf/config.toml
  std::optional<std::string> default_entry;        // what new sessions run
  std::optional<std::string> log_level;            // default info
  std::string log_format = "text";                 // or "json": one object per line
  std::optional<std::size_t> max_sessions;         // default 8
  std::optional<unsigned> idle_expiry_seconds;     // default 0: sessions never expire
  std::optional<unsigned> window_timeout_seconds;  // default 300
  std::optional<bool> shared_shell;                // default false
  std::optional<bool> keep_sessions;               // default false: a stop ends them
  // HTTPS (docs/remote.md): a certificate and key of the operator's, or tls
  // "self-signed" (made and kept in STATE_DIR/tls) or "off". Default: plain HTTP.
  std::optional<std::string> tls_cert;
  std::optional<std::string> tls_key;
  std::optional<std::string> tls;
};

// Returns the process exit code.
int run_daemon(const DaemonOptions& options);

}  // namespace wharf::cli
