#include "core/device_tokens.hpp"

#include <gtest/gtest.h>

#include <array>
#include <boost/json.hpp>

namespace wharf::core {
namespace {

std::string token(std::uint8_t fill) {
  std::array<std::uint8_t, kDeviceTokenBytes> bytes{};
  bytes.fill(fill);
  return device_token_from_bytes(bytes);
}

TEST(DeviceTokens, Sha256MatchesTheKnownVector) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(DeviceTokens, TokensAre64HexCharacters) {
  std::string t = token(0xab);
  EXPECT_EQ(t.size(), 64u);
  EXPECT_TRUE(is_well_formed_device_token(t));
  EXPECT_FALSE(is_well_formed_device_token(t.substr(1)));
  EXPECT_FALSE(is_well_formed_device_token(std::string(64, 'g')));
}

TEST(DeviceTokens, TheRegistryKeepsOnlyTheHash) {
  DeviceRegistry registry;
  std::string t = token(1);
  auto added = registry.add(t, "Chrome on Linux", 1000);
  ASSERT_TRUE(added);
  EXPECT_EQ(added.value().id, 1);
  EXPECT_EQ(added.value().token_hash, sha256_hex(t));
  std::string file = boost::json::serialize(registry.to_json());
  EXPECT_EQ(file.find(t), std::string::npos) << file;
  EXPECT_NE(file.find(sha256_hex(t)), std::string::npos);
}

TEST(DeviceTokens, FindsTheDeviceByItsTokenAndNothingElse) {
  DeviceRegistry registry;
  ASSERT_TRUE(registry.add(token(1), "a", 0));
  ASSERT_TRUE(registry.add(token(2), "b", 0));
  EXPECT_EQ(registry.find(token(2)), 2);
  EXPECT_EQ(registry.find(token(1)), 1);
  EXPECT_EQ(registry.find(token(3)), std::nullopt);
  EXPECT_EQ(registry.find(sha256_hex(token(1))), std::nullopt);  // the hash is no token
  EXPECT_EQ(registry.find(""), std::nullopt);
}

TEST(DeviceTokens, RevokedDevicesAreRefusedAndIdsNeverReused) {
  DeviceRegistry registry;
  ASSERT_TRUE(registry.add(token(1), "a", 0));
  EXPECT_TRUE(registry.revoke(1));
  EXPECT_FALSE(registry.revoke(1));
  EXPECT_EQ(registry.find(token(1)), std::nullopt);
  EXPECT_EQ(registry.add(token(2), "b", 0).value().id, 2);
}

TEST(DeviceTokens, LastUseIsNotedAtMostOnceAMinute) {
  DeviceRegistry registry;
  ASSERT_TRUE(registry.add(token(1), "a", 1000));
  EXPECT_FALSE(registry.touch(1, 1030));
  EXPECT_EQ(registry.get(1)->last_used, 1000);
  EXPECT_TRUE(registry.touch(1, 1060));
  EXPECT_EQ(registry.get(1)->last_used, 1060);
  EXPECT_FALSE(registry.touch(9, 5000));
}

TEST(DeviceTokens, TheFileRoundTripsAndForeignFilesAreRefused) {
  DeviceRegistry registry;
  ASSERT_TRUE(registry.add(token(1), "a", 10));
  ASSERT_TRUE(registry.add(token(2), "b", 20));
  ASSERT_TRUE(registry.revoke(2));
  auto back = DeviceRegistry::from_json(registry.to_json());
  ASSERT_TRUE(back);
  EXPECT_EQ(back.value().find(token(1)), 1);
  EXPECT_EQ(back.value().add(token(3), "c", 0).value().id, 3);  // next_id survived
  EXPECT_FALSE(DeviceRegistry::from_json(boost::json::parse("[]")));
  EXPECT_FALSE(DeviceRegistry::from_json(
      boost::json::parse(R"({"next_id":1,"devices":[{"id":1,"name":"x"}]})")));
}

TEST(DeviceTokens, TooManyDevicesAreRefused) {
  DeviceRegistry registry;
  for (std::size_t i = 0; i < kMaxDevices; ++i)
    ASSERT_TRUE(registry.add(token(static_cast<std::uint8_t>(i)), "d", 0));
  auto refused = registry.add(token(0xff), "d", 0);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, "limit_reached");
}

TEST(DeviceTokens, NamesComeFromTheUserAgentsShortForm) {
  EXPECT_EQ(device_name_from_user_agent(
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
                "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"),
            "Safari on iPhone");
  EXPECT_EQ(device_name_from_user_agent("Mozilla/5.0 (Linux; Android 14; Pixel 8) "
                                        "AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36"),
            "Chrome on Android");
  EXPECT_EQ(device_name_from_user_agent(
                "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"),
            "Firefox on Linux");
  EXPECT_EQ(device_name_from_user_agent("curl/8.0"), "browser on unknown");
  EXPECT_EQ(clean_device_name("  Anna's\tphone \x1b "), "Anna'sphone");
  EXPECT_EQ(clean_device_name(std::string(100, 'x')).size(), 64u);
}

TEST(DeviceTokens, CookieValuesAreReadExactlyOnce) {
  EXPECT_EQ(cookie_value("a=1; wharf_8080=tok; b=2", "wharf_8080"), "tok");
  EXPECT_EQ(cookie_value("wharf_80800=x; wharf_8080=\"q\"", "wharf_8080"), "q");
  EXPECT_EQ(cookie_value("wharf_9090=x", "wharf_8080"), std::nullopt);
  EXPECT_EQ(cookie_value("wharf_8080=x; wharf_8080=y", "wharf_8080"), std::nullopt);
  EXPECT_EQ(cookie_value("", "wharf_8080"), std::nullopt);
}

}  // namespace
}  // namespace wharf::core
