#include "cli/daemon_tls.hpp"

#include <cstdlib>

#include "server/tls_certificate.hpp"

namespace wharf::cli {
namespace fs = std::filesystem;

namespace {

std::string expanded(const std::string& path) {
  if (path == "~" || path.starts_with("~/")) {
    const char* home = std::getenv("HOME");
    return std::string(home != nullptr ? home : "") + path.substr(1);
  }
  return path;
}

}  // namespace

core::Result<DaemonTls> prepare_tls(const DaemonOptions& options, const core::Config& file,
                                    const fs::path& state_dir,
                                    const std::vector<std::string>& listen_ips, bool wildcard) {
  // The command line's choice as a whole wins over the file's: `--tls self-signed` is not
  // mixed with a certificate the file names, nor `--tls-cert` with the file's mode.
  bool line_chose = options.tls || options.tls_cert || options.tls_key;
  std::optional<std::string> mode = line_chose ? options.tls : file.tls;
  std::optional<std::string> cert = line_chose ? options.tls_cert : file.tls_cert;
  std::optional<std::string> key = line_chose ? options.tls_key : file.tls_key;
  std::string where =
      line_chose ? "--tls-cert and --tls-key" : file.source + ": tls_cert and tls_key";

  DaemonTls out;
  if (mode == "off") return out;
  if (mode == "self-signed" && (cert || key))
    return core::Error{
        "choose either a self-signed certificate (tls = \"self-signed\") or your "
        "own (" +
        where + "), not both"};
  if (cert.has_value() != key.has_value())
    return core::Error{where + " go together: the certificate and its private key"};

  server::TlsFiles files;
  if (mode == "self-signed") {
    auto made = server::ensure_self_signed(state_dir / "tls",
                                           server::certificate_names(listen_ips, wildcard));
    if (!made) return made.error();
    files = made.value().files;
    out.self_signed = true;
    out.created = made.value().created;
  } else if (cert) {
    files = {.cert = expanded(*cert), .key = expanded(*key)};
  } else {
    return out;  // plain HTTP
  }
  auto context = server::tls_context_from(files);
  if (!context) return context.error();
  auto fingerprint = server::certificate_fingerprint(files.cert);
  if (!fingerprint) return fingerprint.error();
  out.context = std::move(context.value());
  out.cert = files.cert;
  out.fingerprint = fingerprint.value();
  return out;
}

}  // namespace wharf::cli
