// The self-signed certificate (server/tls_certificate.hpp): made once, reused while it is
// good, made again when it nears its end or misses an address; the operator's files are
// refused with their names.
#include "server/tls_certificate.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>

namespace wharf::server {
namespace {

namespace fs = std::filesystem;
using std::chrono::hours;

class TlsCertificateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("wharf-tls-unit-" + std::to_string(std::random_device{}()));
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  CertificateNames names_{.dns = {"localhost", "box"}, .ips = {"127.0.0.1", "::1"}};
};

TEST_F(TlsCertificateTest, MadeOnceThenReused) {
  auto now = std::chrono::system_clock::now();
  auto first = ensure_self_signed(dir_ / "tls", names_, now);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_TRUE(first.value().created);
  struct stat key_stat {};
  ASSERT_EQ(::stat(first.value().files.key.c_str(), &key_stat), 0);
  EXPECT_EQ(key_stat.st_mode & 0777, 0600u);
  auto fingerprint = certificate_fingerprint(first.value().files.cert);
  ASSERT_TRUE(fingerprint);
  EXPECT_EQ(fingerprint.value().size(), 32u * 3 - 1);  // "AB:" x 32, less the last ':'

  auto again = ensure_self_signed(dir_ / "tls", names_, now + hours(24 * 300));
  ASSERT_TRUE(again);
  EXPECT_FALSE(again.value().created);
  EXPECT_EQ(certificate_fingerprint(again.value().files.cert).value(), fingerprint.value());
  EXPECT_TRUE(tls_context_from(again.value().files));
}

TEST_F(TlsCertificateTest, RenewedWhenItNearsItsEnd) {
  auto now = std::chrono::system_clock::now();
  ASSERT_TRUE(ensure_self_signed(dir_, names_, now));
  auto before = certificate_fingerprint(dir_ / "cert.pem").value();
  auto late = ensure_self_signed(dir_, names_, now + hours(24 * 370));  // 27 days left
  ASSERT_TRUE(late);
  EXPECT_TRUE(late.value().created);
  EXPECT_NE(certificate_fingerprint(dir_ / "cert.pem").value(), before);
}

TEST_F(TlsCertificateTest, RenewedWhenANameOrAddressIsMissing) {
  ASSERT_TRUE(ensure_self_signed(dir_, names_));
  CertificateNames more = names_;
  more.ips.push_back("192.168.1.20");
  auto with_ip = ensure_self_signed(dir_, more);
  ASSERT_TRUE(with_ip);
  EXPECT_TRUE(with_ip.value().created);
  EXPECT_FALSE(ensure_self_signed(dir_, more).value().created);
  more.dns.push_back("box.local");
  EXPECT_TRUE(ensure_self_signed(dir_, more).value().created);
}

TEST_F(TlsCertificateTest, RemadeWhenTheFilesAreBroken) {
  ASSERT_TRUE(ensure_self_signed(dir_, names_));
  std::ofstream(dir_ / "key.pem") << "garbage\n";
  EXPECT_TRUE(ensure_self_signed(dir_, names_).value().created);
}

TEST_F(TlsCertificateTest, UnusableFilesAreNamed) {
  ASSERT_TRUE(ensure_self_signed(dir_ / "a", names_));
  ASSERT_TRUE(ensure_self_signed(dir_ / "b", names_));
  auto missing = tls_context_from({.cert = dir_ / "none.pem", .key = dir_ / "a" / "key.pem"});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find((dir_ / "none.pem").string()), std::string::npos);
  auto mismatch =
      tls_context_from({.cert = dir_ / "a" / "cert.pem", .key = dir_ / "b" / "key.pem"});
  ASSERT_FALSE(mismatch);
  EXPECT_NE(mismatch.error().message.find("does not belong"), std::string::npos);
  auto swapped = tls_context_from({.cert = dir_ / "a" / "key.pem", .key = dir_ / "a" / "cert.pem"});
  ASSERT_FALSE(swapped);
  EXPECT_NE(swapped.error().message.find("holds no PEM certificate"), std::string::npos);
}

TEST_F(TlsCertificateTest, ExtraAddressesAreNamedButNeedNoNewCertificate) {
  CertificateNames wildcard = certificate_names({"127.0.0.1", "10.1.2.3"}, true);
  EXPECT_EQ(wildcard.extra_ips, std::vector<std::string>{"10.1.2.3"});
  ASSERT_TRUE(ensure_self_signed(dir_, wildcard).value().created);
  // It names the extra address: requiring it makes no new certificate.
  CertificateNames strict = wildcard;
  strict.ips.push_back("10.1.2.3");
  EXPECT_FALSE(ensure_self_signed(dir_, strict).value().created);
  // A bridge came up: the certificate stays (a phone would have to trust it again).
  CertificateNames later = certificate_names({"127.0.0.1", "10.1.2.3", "172.17.0.1"}, true);
  EXPECT_FALSE(ensure_self_signed(dir_, later).value().created);
}

TEST(CertificateNames, LeavesWildcardsOutAndKeepsLoopback) {
  auto names = certificate_names({"0.0.0.0", "::", "192.168.1.20", "127.0.0.1", "not an ip"});
  EXPECT_EQ(names.dns.front(), "localhost");
  EXPECT_EQ(names.ips, (std::vector<std::string>{"127.0.0.1", "::1", "192.168.1.20"}));
}

}  // namespace
}  // namespace wharf::server
