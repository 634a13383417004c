// How `wharf serve` speaks on its port: plain HTTP (the default), HTTPS with the
// operator's certificate (--tls-cert/--tls-key, or [server] tls_cert/tls_key), or HTTPS
// with the self-signed certificate wharf keeps in STATE_DIR/tls (--tls self-signed, or
// [server] tls = "self-signed"); docs/remote.md. The command line wins over the file,
// and `--tls off` turns off whatever the file says.
//
// Invariants: a half-given pair (a certificate without its key), both kinds at once, or
// a file that cannot be used stop the start with a sentence naming the file; wharf never
// falls back to plain HTTP when TLS was asked for.
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/daemon.hpp"
#include "core/config.hpp"
#include "core/result.hpp"

namespace wharf::cli {

struct DaemonTls {
  std::unique_ptr<boost::asio::ssl::context> context;  // null: plain HTTP
  std::filesystem::path cert;                          // the certificate served
  std::string fingerprint;                             // its SHA-256, "AB:CD:..."
  bool self_signed = false;
  bool created = false;  // a new self-signed certificate was made at this start
};

// `listen_ips`: the addresses wharf is reached at (for the self-signed certificate's
// names), without brackets; `wildcard`: they are every interface's (a wildcard listen).
core::Result<DaemonTls> prepare_tls(const DaemonOptions& options, const core::Config& file,
                                    const std::filesystem::path& state_dir,
                                    const std::vector<std::string>& listen_ips, bool wildcard);

}  // namespace wharf::cli
