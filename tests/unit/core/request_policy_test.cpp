#include "core/request_policy.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace wharf::core {
namespace {

const ListenAddress kLoopback{.ip = "127.0.0.1", .port = 7373};

TEST(HostRule, AcceptsTheBoundAddressAndLocalhostWithTheBoundPort) {
  EXPECT_TRUE(host_allowed("127.0.0.1:7373", kLoopback));
  EXPECT_TRUE(host_allowed("localhost:7373", kLoopback));
  EXPECT_TRUE(host_allowed("LocalHost:7373", kLoopback));
}

TEST(HostRule, RefusesOtherNamesPortsAndMalformedHeaders) {
  EXPECT_FALSE(host_allowed("evil.example:7373", kLoopback));  // DNS rebinding
  EXPECT_FALSE(host_allowed("localhost.evil.example:7373", kLoopback));
  EXPECT_FALSE(host_allowed("127.0.0.1:7374", kLoopback));
  EXPECT_FALSE(host_allowed("127.0.0.1", kLoopback));  // implies port 80
  EXPECT_FALSE(host_allowed("127.0.0.2:7373", kLoopback));
  EXPECT_FALSE(host_allowed("[::1]:7373", kLoopback));  // not the bound address
  EXPECT_FALSE(host_allowed("", kLoopback));
  EXPECT_FALSE(host_allowed(":7373", kLoopback));
  EXPECT_FALSE(host_allowed("127.0.0.1:7373x", kLoopback));
  EXPECT_FALSE(host_allowed("127.0.0.1:99999", kLoopback));
  EXPECT_FALSE(host_allowed("127.0.0.1:7373:1", kLoopback));
  EXPECT_FALSE(host_allowed("user@127.0.0.1:7373", kLoopback));
  EXPECT_FALSE(host_allowed("127.0.0.1 :7373", kLoopback));
}

TEST(HostRule, IPv6LoopbackNeedsBrackets) {
  ListenAddress v6{.ip = "::1", .port = 8000};
  EXPECT_TRUE(host_allowed("[::1]:8000", v6));
  EXPECT_TRUE(host_allowed("[0:0::1]:8000", v6));
  EXPECT_TRUE(host_allowed("localhost:8000", v6));
  EXPECT_FALSE(host_allowed("::1:8000", v6));
  EXPECT_FALSE(host_allowed("[::1:8000", v6));
}

TEST(HostRule, WildcardListenAcceptsAnyIpLiteralButNoName) {
  ListenAddress any{.ip = "0.0.0.0", .port = 9000};
  EXPECT_TRUE(host_allowed("192.168.1.20:9000", any));
  EXPECT_TRUE(host_allowed("localhost:9000", any));
  EXPECT_FALSE(host_allowed("myhost.lan:9000", any));  // a name can be rebound
  EXPECT_FALSE(host_allowed("0.0.0.0:9000", any));
  EXPECT_FALSE(host_allowed("192.168.1.20:9001", any));
}

TEST(OriginRule, AcceptsOnlyThePagesOwnOrigin) {
  EXPECT_TRUE(origin_allowed("http://127.0.0.1:7373", "127.0.0.1:7373"));
  EXPECT_TRUE(origin_allowed("http://localhost:7373", "localhost:7373"));
  EXPECT_FALSE(origin_allowed("http://localhost:7373", "127.0.0.1:7373"));
  EXPECT_FALSE(origin_allowed("http://127.0.0.1:7374", "127.0.0.1:7373"));
  EXPECT_FALSE(origin_allowed("https://127.0.0.1:7373", "127.0.0.1:7373"));
  EXPECT_FALSE(origin_allowed("http://evil.example", "127.0.0.1:7373"));
  EXPECT_FALSE(origin_allowed("null", "127.0.0.1:7373"));
  EXPECT_FALSE(origin_allowed("", "127.0.0.1:7373"));
  EXPECT_FALSE(origin_allowed("http://127.0.0.1:7373/", "127.0.0.1:7373"));
  EXPECT_FALSE(origin_allowed("http://", ""));
}

TEST(HostRule, SaysWhetherARefusalIsForbiddenOrMisdirected) {
  EXPECT_EQ(judge_host("127.0.0.1:7373", kLoopback), HostVerdict::kAllowed);
  EXPECT_EQ(judge_host("localhost:7373", kLoopback), HostVerdict::kAllowed);
  // Names could be rebound to us, and a malformed Host is no address at all.
  EXPECT_EQ(judge_host("evil.example:7373", kLoopback), HostVerdict::kForbidden);
  EXPECT_EQ(judge_host("evil.example:1", kLoopback), HostVerdict::kForbidden);
  EXPECT_EQ(judge_host("", kLoopback), HostVerdict::kForbidden);
  EXPECT_EQ(judge_host("127.0.0.1:7373x", kLoopback), HostVerdict::kForbidden);
  // Our kind of address, but not this server: another port or address.
  EXPECT_EQ(judge_host("127.0.0.1:1", kLoopback), HostVerdict::kMisdirected);
  EXPECT_EQ(judge_host("127.0.0.1", kLoopback), HostVerdict::kMisdirected);
  EXPECT_EQ(judge_host("localhost", kLoopback), HostVerdict::kMisdirected);
  EXPECT_EQ(judge_host("127.0.0.2:7373", kLoopback), HostVerdict::kMisdirected);
  EXPECT_EQ(judge_host("[::1]:7373", kLoopback), HostVerdict::kMisdirected);
  const ListenAddress any{.ip = "0.0.0.0", .port = 9000};
  EXPECT_EQ(judge_host("0.0.0.0:9000", any), HostVerdict::kMisdirected);
  EXPECT_EQ(judge_host("myhost.lan:9000", any), HostVerdict::kForbidden);
}

constexpr std::string_view kKey = "00017f80abcdefff1020304050607090";

TEST(LoggableTarget, KeepsWhatIsNoKey) {
  EXPECT_EQ(loggable_target("/api/v1/sessions/3/screen?scrollback=10", kKey),
            "/api/v1/sessions/3/screen?scrollback=10");
  EXPECT_EQ(loggable_target("/static/main.js", kKey), "/static/main.js");
  EXPECT_EQ(loggable_target("/a%20b", kKey), "/a b");
}

TEST(LoggableTarget, PairingCodesAreNotLogged) {
  EXPECT_EQ(loggable_target("/pair/ABCDEFGHJK", kKey), "/pair/[redacted]");
  EXPECT_EQ(loggable_target("/pair/ABCDEFGHJK?x=1", kKey), "/pair/[redacted]?x=1");
  EXPECT_EQ(loggable_target("/%70air/ABCDEFGHJK", kKey), "/pair/[redacted]");
  EXPECT_EQ(loggable_target("/x/pair/ABC/y", kKey), "/x/pair/[redacted]/y");
  EXPECT_EQ(loggable_target("/pair/", kKey), "/pair/");
}

TEST(LoggableTarget, NoFormOfTheKeyReachesTheLog) {
  const std::string key(kKey);
  std::string upper = key;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string encoded;
  for (char c : key)
    encoded += "%" + std::string(1, "0123456789ABCDEF"[(c >> 4) & 0xf]) +
               std::string(1, "0123456789ABCDEF"[c & 0xf]);
  const std::string other = "ffffffffffffffffffffffffffffffff";  // a wrong key tried
  for (const std::string& target : {
           "/?k=" + key,
           "/?K=" + key,
           "/?cols=80&k=" + key + "&rows=24",
           "/?k=" + other + "&k=" + key,
           "/;k=" + key,
           "/api/status;k=" + key,
           "/%3fk=" + key,
           "/%3Fk%3D" + key,
           "/%253fk=" + key,
           "/#k=" + key,
           "/?key=" + key,
           "/?wharf_key=" + key,
           "/?k=" + encoded,
           "/" + key,
           "/static/" + upper + "/x",
           "/?q=" + key,
           "/?k=" + other,
           "/;K=" + other,
       }) {
    std::string logged = loggable_target(target, kKey);
    EXPECT_EQ(logged.find(key), std::string::npos) << target << " -> " << logged;
    EXPECT_EQ(logged.find(key.substr(0, 16)), std::string::npos) << target << " -> " << logged;
    EXPECT_EQ(logged.find(upper.substr(0, 16)), std::string::npos) << target << " -> " << logged;
    EXPECT_EQ(logged.find(other), std::string::npos) << target << " -> " << logged;
    EXPECT_NE(logged.find("[redacted]"), std::string::npos) << target << " -> " << logged;
  }
}

TEST(LoggableTarget, IsOneShortLine) {
  std::string logged = loggable_target("/x%0d%0aFAKE LOG LINE\r\n" + std::string(5000, 'a'), kKey);
  EXPECT_EQ(logged.find('\n'), std::string::npos);
  EXPECT_EQ(logged.find('\r'), std::string::npos);
  EXPECT_LE(logged.size(), 310u);
}

// Behind a reverse proxy or a tailnet (docs/remote.md).
const Reach kProxied{.tls = false,
                     .public_url = "https://wharf.example.net",
                     .allowed_hosts = {"box.example", "box.tail1234.ts.net"}};

TEST(HostRule, AcceptsListedNamesWithAnyPortOrNone) {
  EXPECT_EQ(judge_host("box.example", kLoopback, kProxied), HostVerdict::kAllowed);
  EXPECT_EQ(judge_host("box.example:443", kLoopback, kProxied), HostVerdict::kAllowed);
  EXPECT_EQ(judge_host("box.example:7373", kLoopback, kProxied), HostVerdict::kAllowed);
  EXPECT_EQ(judge_host("BOX.Example:8443", kLoopback, kProxied), HostVerdict::kAllowed);
  EXPECT_EQ(judge_host("box.tail1234.ts.net", kLoopback, kProxied), HostVerdict::kAllowed);
}

TEST(HostRule, AcceptsThePublicUrlsHost) {
  EXPECT_EQ(judge_host("wharf.example.net", kLoopback, kProxied), HostVerdict::kAllowed);
  EXPECT_EQ(judge_host("wharf.example.net:443", kLoopback, kProxied), HostVerdict::kAllowed);
  Reach with_port{.public_url = "http://10.0.0.5:8080"};
  EXPECT_EQ(judge_host("10.0.0.5:8080", kLoopback, with_port), HostVerdict::kAllowed);
  EXPECT_TRUE(deliberately_named("wharf.example.net", kProxied));
  EXPECT_FALSE(deliberately_named("example.net", kProxied));
}

TEST(HostRule, NamesNotListedAreStillRefusedAsRebinding) {
  EXPECT_EQ(judge_host("evil.example", kLoopback, kProxied), HostVerdict::kForbidden);
  EXPECT_EQ(judge_host("evil.example:7373", kLoopback, kProxied), HostVerdict::kForbidden);
  // Neither a longer nor a shorter name than a listed one, nor a listed one as a suffix.
  EXPECT_EQ(judge_host("box.example.evil.example", kLoopback, kProxied), HostVerdict::kForbidden);
  EXPECT_EQ(judge_host("evilbox.example", kLoopback, kProxied), HostVerdict::kForbidden);
  EXPECT_EQ(judge_host("example", kLoopback, kProxied), HostVerdict::kForbidden);
  EXPECT_EQ(judge_host("box.example:x", kLoopback, kProxied), HostVerdict::kForbidden);
  // With nothing listed, nothing changes.
  EXPECT_EQ(judge_host("box.example", kLoopback), HostVerdict::kForbidden);
  // The own addresses keep their rules.
  EXPECT_EQ(judge_host("127.0.0.1:7373", kLoopback, kProxied), HostVerdict::kAllowed);
  EXPECT_EQ(judge_host("127.0.0.1:7374", kLoopback, kProxied), HostVerdict::kMisdirected);
}

TEST(HostRule, AMissingPortMeansTheSchemesDefault) {
  ListenAddress on443{.ip = "127.0.0.1", .port = 443};
  EXPECT_EQ(judge_host("127.0.0.1", on443, Reach{.tls = true}), HostVerdict::kAllowed);
  EXPECT_EQ(judge_host("127.0.0.1", on443), HostVerdict::kMisdirected);  // http: port 80
}

TEST(OriginRule, FollowsWharfsOwnScheme) {
  Reach tls{.tls = true};
  EXPECT_TRUE(origin_allowed("https://127.0.0.1:7373", "127.0.0.1:7373", tls));
  EXPECT_TRUE(origin_allowed("https://localhost:7373", "localhost:7373", tls));
  EXPECT_FALSE(origin_allowed("http://127.0.0.1:7373", "127.0.0.1:7373", tls));
  EXPECT_FALSE(origin_allowed("https://127.0.0.1:7374", "127.0.0.1:7373", tls));
  EXPECT_FALSE(origin_allowed("https://evil.example", "127.0.0.1:7373", tls));
}

TEST(OriginRule, AcceptsThePublicUrlExactly) {
  // The proxy may rewrite Host to wharf's own address: the page's origin is the public one.
  EXPECT_TRUE(origin_allowed("https://wharf.example.net", "127.0.0.1:7373", kProxied));
  EXPECT_TRUE(origin_allowed("https://wharf.example.net", "wharf.example.net", kProxied));
  EXPECT_TRUE(origin_allowed("HTTPS://Wharf.Example.Net", "wharf.example.net", kProxied));
  EXPECT_FALSE(origin_allowed("http://wharf.example.net", "127.0.0.1:7373", kProxied));
  EXPECT_FALSE(origin_allowed("https://wharf.example.net:8443", "127.0.0.1:7373", kProxied));
  EXPECT_FALSE(origin_allowed("https://wharf.example.net/", "127.0.0.1:7373", kProxied));
  EXPECT_FALSE(origin_allowed("https://wharf.example.net.evil", "127.0.0.1:7373", kProxied));
}

TEST(OriginRule, AListedHostMayComeThroughATlsProxy) {
  EXPECT_TRUE(origin_allowed("https://box.example", "box.example", kProxied));
  EXPECT_TRUE(origin_allowed("http://box.example", "box.example", kProxied));
  EXPECT_TRUE(origin_allowed("https://box.example:8443", "box.example:8443", kProxied));
  // Another page's origin is still refused, listed Host or not.
  EXPECT_FALSE(origin_allowed("https://evil.example", "box.example", kProxied));
  EXPECT_FALSE(origin_allowed("https://box.example", "box.tail1234.ts.net", kProxied));
  EXPECT_FALSE(origin_allowed("https://evil.example", "evil.example", kProxied));
  EXPECT_FALSE(origin_allowed("https://box.example:1", "box.example", kProxied));
}

}  // namespace
}  // namespace wharf::core
