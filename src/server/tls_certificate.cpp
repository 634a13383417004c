#include "server/tls_certificate.hpp"

#include <arpa/inet.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

#include "app/key_file.hpp"
#include "app/state_paths.hpp"

namespace wharf::server {
namespace {

namespace fs = std::filesystem;

constexpr long kValidDays = 397;  // the longest any browser accepts for a server certificate
constexpr long kRenewDays = 30;

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct X509Free {
  void operator()(X509* cert) const { X509_free(cert); }
};
struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct BnFree {
  void operator()(BIGNUM* bn) const { BN_free(bn); }
};
struct ExtFree {
  void operator()(X509_EXTENSION* ext) const { X509_EXTENSION_free(ext); }
};
using Bio = std::unique_ptr<BIO, BioFree>;
using Cert = std::unique_ptr<X509, X509Free>;
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

// The reason OpenSSL queued for the last failure, or `fallback`; the queue is emptied.
std::string openssl_reason(std::string_view fallback) {
  unsigned long code = ERR_get_error();
  std::string out(fallback);
  if (code != 0) {
    std::array<char, 256> text{};
    ERR_error_string_n(code, text.data(), text.size());
    out = text.data();
  }
  ERR_clear_error();
  return out;
}

core::Result<std::string> read_file(const fs::path& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return core::Error{"cannot read the " + std::string(what) + " " + path.string()};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Cert read_certificate(const std::string& pem) {
  Bio bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  return Cert(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
}

Pkey read_key(const std::string& pem) {
  Bio bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  return Pkey(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
}

// Whether an existing certificate and key may be served again.
bool still_good(const fs::path& dir, const CertificateNames& names,
                std::chrono::system_clock::time_point now) {
  auto cert_pem = read_file(dir / "cert.pem", "certificate");
  auto key_pem = read_file(dir / "key.pem", "key");
  if (!cert_pem || !key_pem) return false;
  Cert cert = read_certificate(cert_pem.value());
  Pkey key = read_key(key_pem.value());
  bool good = cert && key && X509_check_private_key(cert.get(), key.get()) == 1;
  if (good) {
    std::time_t renew_at =
        std::chrono::system_clock::to_time_t(now + std::chrono::hours(24 * kRenewDays));
    good = X509_cmp_time(X509_get0_notAfter(cert.get()), &renew_at) > 0;
  }
  for (const std::string& dns : names.dns)
    good = good && X509_check_host(cert.get(), dns.c_str(), dns.size(), 0, nullptr) == 1;
  for (const std::string& ip : names.ips)
    good = good && X509_check_ip_asc(cert.get(), ip.c_str(), 0) == 1;
  ERR_clear_error();
  return good;
}

bool add_extension(X509* cert, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  std::unique_ptr<X509_EXTENSION, ExtFree> ext(
      X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str()));
  return ext && X509_add_ext(cert, ext.get(), -1) == 1;
}

struct MadeCertificate {
  std::string cert_pem;
  std::string key_pem;
};

core::Result<MadeCertificate> make_certificate(const CertificateNames& names) {
  auto failed = [](std::string_view step) {
    return core::Error{"cannot make a self-signed certificate (" + std::string(step) +
                       "): " + openssl_reason("unknown error")};
  };
  // (EVP_EC_gen is a macro with a C cast in it.)
  Pkey key(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
  if (!key) return failed("key");
  Cert cert(X509_new());
  if (!cert || X509_set_version(cert.get(), 2) != 1) return failed("certificate");
  std::unique_ptr<BIGNUM, BnFree> serial(BN_new());
  if (!serial || BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1 ||
      BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get())) == nullptr)
    return failed("serial number");
  // An hour back: a phone whose clock is a little behind must not call it "not yet valid".
  if (X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) == nullptr ||
      X509_gmtime_adj(X509_getm_notAfter(cert.get()), kValidDays * 24 * 3600) == nullptr)
    return failed("validity");
  if (X509_set_pubkey(cert.get(), key.get()) != 1) return failed("public key");
  X509_NAME* subject = X509_get_subject_name(cert.get());
  std::string common_name = "wharf on " + (names.dns.size() > 1 ? names.dns[1] : names.dns[0]);
  if (common_name.size() > 64) common_name.resize(64);
  auto text = [](const std::string& s) {
    return reinterpret_cast<const unsigned char*>(s.c_str());
  };
  if (X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_ASC, text("wharf"), -1, -1, 0) != 1 ||
      X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, text(common_name), -1, -1, 0) != 1 ||
      X509_set_issuer_name(cert.get(), subject) != 1)
    return failed("name");
  std::string alt_names;
  for (const std::string& dns : names.dns)
    alt_names += (alt_names.empty() ? "DNS:" : ",DNS:") + dns;
  for (const std::string& ip : names.ips) alt_names += ",IP:" + ip;
  for (const std::string& ip : names.extra_ips)
    if (std::find(names.ips.begin(), names.ips.end(), ip) == names.ips.end())
      alt_names += ",IP:" + ip;
  if (!add_extension(cert.get(), NID_basic_constraints, "critical,CA:TRUE,pathlen:0") ||
      !add_extension(cert.get(), NID_key_usage, "critical,digitalSignature,keyCertSign") ||
      !add_extension(cert.get(), NID_ext_key_usage, "serverAuth") ||
      !add_extension(cert.get(), NID_subject_key_identifier, "hash") ||
      !add_extension(cert.get(), NID_subject_alt_name, alt_names))
    return failed("extensions");
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) return failed("signature");

  MadeCertificate out;
  Bio cert_bio(BIO_new(BIO_s_mem()));
  Bio key_bio(BIO_new(BIO_s_mem()));
  if (!cert_bio || !key_bio || PEM_write_bio_X509(cert_bio.get(), cert.get()) != 1 ||
      PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) !=
          1)
    return failed("PEM");
  // (BIO_get_mem_data is a macro with a C cast in it.)
  char* data = nullptr;
  long size = BIO_ctrl(cert_bio.get(), BIO_CTRL_INFO, 0, &data);
  out.cert_pem.assign(data, static_cast<std::size_t>(size));
  size = BIO_ctrl(key_bio.get(), BIO_CTRL_INFO, 0, &data);
  out.key_pem.assign(data, static_cast<std::size_t>(size));
  return out;
}

}  // namespace

core::Result<SelfSigned> ensure_self_signed(const fs::path& dir, const CertificateNames& names,
                                            std::chrono::system_clock::time_point now) {
  SelfSigned out{.files = {.cert = dir / "cert.pem", .key = dir / "key.pem"}};
  if (auto made = app::ensure_private_dir(dir); !made) return made.error();
  if (still_good(dir, names, now)) return out;
  auto made = make_certificate(names);
  if (!made) return made.error();
  // The key first: a certificate never stands beside a key it does not belong to for
  // longer than the two renames.
  if (auto written = app::write_private_file(out.files.key, made.value().key_pem); !written)
    return written.error();
  if (auto written = app::write_private_file(out.files.cert, made.value().cert_pem); !written)
    return written.error();
  out.created = true;
  return out;
}

core::Result<std::unique_ptr<boost::asio::ssl::context>> tls_context_from(const TlsFiles& files) {
  namespace ssl = boost::asio::ssl;
  // Read first, so that a missing or unreadable file is named plainly.
  auto cert_pem = read_file(files.cert, "TLS certificate");
  if (!cert_pem) return cert_pem.error();
  auto key_pem = read_file(files.key, "TLS key");
  if (!key_pem) return key_pem.error();
  Cert cert = read_certificate(cert_pem.value());
  if (!cert) {
    ERR_clear_error();
    return core::Error{"the TLS certificate " + files.cert.string() +
                       " holds no PEM certificate (-----BEGIN CERTIFICATE-----)"};
  }
  Pkey key = read_key(key_pem.value());
  if (!key) {
    ERR_clear_error();
    return core::Error{"the TLS key " + files.key.string() +
                       " holds no unencrypted PEM private key (-----BEGIN PRIVATE KEY-----)"};
  }
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    ERR_clear_error();
    return core::Error{"the TLS key " + files.key.string() +
                       " does not belong to the certificate " + files.cert.string()};
  }
  auto context = std::make_unique<ssl::context>(ssl::context::tls_server);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                       ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                       ssl::context::single_dh_use);
  boost::system::error_code ec;
  if (context->use_certificate_chain(boost::asio::buffer(cert_pem.value()), ec); ec)
    return core::Error{"cannot use the TLS certificate " + files.cert.string() + ": " +
                       ec.message()};
  if (context->use_private_key(boost::asio::buffer(key_pem.value()), ssl::context::pem, ec); ec)
    return core::Error{"cannot use the TLS key " + files.key.string() + ": " + ec.message()};
  if (SSL_CTX_check_private_key(context->native_handle()) != 1) {
    ERR_clear_error();
    return core::Error{"the TLS key " + files.key.string() +
                       " does not belong to the certificate " + files.cert.string()};
  }
  return context;
}

core::Result<std::string> certificate_fingerprint(const fs::path& path) {
  auto pem = read_file(path, "TLS certificate");
  if (!pem) return pem.error();
  Cert cert = read_certificate(pem.value());
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (!cert || X509_digest(cert.get(), EVP_sha256(), digest.data(), &size) != 1) {
    ERR_clear_error();
    return core::Error{"the TLS certificate " + path.string() + " holds no PEM certificate"};
  }
  static constexpr std::string_view kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned int i = 0; i < size; ++i) {
    if (i > 0) out.push_back(':');
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xf]);
  }
  return out;
}

CertificateNames certificate_names(const std::vector<std::string>& listen_ips, bool wildcard) {
  CertificateNames names{.dns = {"localhost"}, .ips = {"127.0.0.1", "::1"}};
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) == 0 && host[0] != '\0') {
    std::string name(host.data());
    std::transform(name.begin(), name.end(), name.begin(), [](char c) {
      return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    });
    bool usable = std::all_of(name.begin(), name.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.';
    });
    if (usable && name != "localhost") {
      names.dns.push_back(name);
      // A phone on the same network finds the machine by multicast DNS.
      if (name.find('.') == std::string::npos) names.dns.push_back(name + ".local");
    }
  }
  for (const std::string& ip : listen_ips) {
    std::array<unsigned char, 16> bytes{};
    bool v4 = inet_pton(AF_INET, ip.c_str(), bytes.data()) == 1;
    bool v6 = !v4 && inet_pton(AF_INET6, ip.c_str(), bytes.data()) == 1;
    bool unspecified =
        std::all_of(bytes.begin(), bytes.end(), [](unsigned char b) { return b == 0; });
    if ((!v4 && !v6) || unspecified) continue;
    std::vector<std::string>& into = wildcard ? names.extra_ips : names.ips;
    if (std::find(names.ips.begin(), names.ips.end(), ip) == names.ips.end() &&
        std::find(into.begin(), into.end(), ip) == into.end())
      into.push_back(ip);
  }
  return names;
}

}  // namespace wharf::server
