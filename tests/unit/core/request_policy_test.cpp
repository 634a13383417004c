#include "core/request_policy.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace wharf::core
