// The certificate wharf serves HTTPS with (docs/remote.md): one the operator gives
// (`--tls-cert`/`--tls-key`), or one wharf makes itself (`--tls self-signed`).
//
// The self-signed certificate is an EC P-256 key and certificate in STATE_DIR/tls/
// (cert.pem, key.pem, both 0600), naming localhost, the machine's host name (and
// HOST.local) and the addresses wharf listens on. It is made once and reused across
// restarts, because a phone trusts it by its fingerprint: a new one is made only when
// the files are missing or broken, fewer than 30 days of validity remain, or it does not
// name the address wharf was told to listen on. Listening on a wildcard, the addresses
// the interfaces have when it is made are named too, but a change among them (a VPN or
// container bridge coming and going) makes no new certificate. It says CA:TRUE (its own root)
// because that is what phones let a person install as trusted.
//
// Every failure is a sentence that names the file at fault; nothing here throws.
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace wharf::server {

struct TlsFiles {
  std::filesystem::path cert;
  std::filesystem::path key;
};

// What the self-signed certificate must name.
struct CertificateNames {
  std::vector<std::string> dns;  // "localhost", "box", "box.local"
  std::vector<std::string> ips;  // "127.0.0.1", "::1", "192.168.1.20"
  // Named in a new certificate, but one that lacks them is still reused.
  std::vector<std::string> extra_ips;
};

struct SelfSigned {
  TlsFiles files;
  bool created = false;  // false: the one from an earlier start was reused
};

// Makes (or reuses) the self-signed certificate in `dir`.
core::Result<SelfSigned> ensure_self_signed(
    const std::filesystem::path& dir, const CertificateNames& names,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// A server context serving `files`: TLS 1.2 or newer, the key checked against the
// certificate.
core::Result<std::unique_ptr<boost::asio::ssl::context>> tls_context_from(const TlsFiles& files);

// The SHA-256 fingerprint of the first certificate in a PEM file, as browsers show it:
// upper-case hex pairs joined by ':'.
core::Result<std::string> certificate_fingerprint(const std::filesystem::path& cert);

// The names the self-signed certificate should carry on this machine: localhost, the
// host name, and the addresses given (the wildcard addresses left out): required, or
// when wharf listens on a wildcard (`wildcard`), extra.
CertificateNames certificate_names(const std::vector<std::string>& listen_ips,
                                   bool wildcard = false);

}  // namespace wharf::server
