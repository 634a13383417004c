// Web Push's plain values (core/web_push.hpp): base64url both ways, with one spelling per
// byte string; a browser's PushSubscription accepted only with an endpoint wharf may POST
// to (https, or http to this machine) and keys of the exact sizes; the VAPID audience is
// the endpoint's origin.
#include "core/web_push.hpp"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

namespace wharf::core {
namespace {

constexpr std::string_view kP256dh =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
constexpr std::string_view kAuth = "BTBZMqHH6r4Tts7J_aSIgg";

boost::json::value subscription(std::string_view endpoint, std::string_view p256dh = kP256dh,
                                std::string_view auth = kAuth) {
  return boost::json::object{{"endpoint", endpoint},
                             {"expirationTime", nullptr},
                             {"keys", boost::json::object{{"p256dh", p256dh}, {"auth", auth}}}};
}

TEST(Base64Url, RoundTripsEveryLength) {
  std::string bytes;
  for (int i = 0; i < 40; ++i) {
    auto decoded = base64url_decode(base64url_encode(bytes));
    ASSERT_TRUE(decoded);
    EXPECT_EQ(std::string(decoded->begin(), decoded->end()), bytes);
    bytes.push_back(static_cast<char>(0xF0 + i));
  }
  EXPECT_EQ(base64url_encode(std::string_view("\xfb\xff")), "-_8");
}

TEST(Base64Url, RefusesForeignCharactersAndLooseBits) {
  EXPECT_FALSE(base64url_decode("ab+/"));  // the standard alphabet, not the URL one
  EXPECT_FALSE(base64url_decode("a"));     // no whole byte
  EXPECT_FALSE(base64url_decode("ab c"));  // a space
  EXPECT_FALSE(base64url_decode("-_9"));   // trailing bits not zero: a second spelling
  EXPECT_TRUE(base64url_decode("-_8="));   // padding is accepted
}

TEST(PushSubscription, AcceptsABrowsersSubscription) {
  auto parsed =
      parse_push_subscription(subscription("https://fcm.googleapis.com/fcm/send/abc:def"));
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed.value().endpoint, "https://fcm.googleapis.com/fcm/send/abc:def");
  EXPECT_EQ(parsed.value().p256dh.size(), 65u);
  EXPECT_EQ(parsed.value().auth.size(), 16u);
  EXPECT_TRUE(parse_push_subscription(subscription("http://127.0.0.1:9000/push/1")));
  EXPECT_TRUE(parse_push_subscription(subscription("http://localhost:9000/p")));
  EXPECT_TRUE(parse_push_subscription(subscription("http://[::1]:9000/p")));
}

TEST(PushSubscription, RefusesEndpointsWharfMustNotPostTo) {
  for (std::string_view endpoint :
       {"http://push.example.com/x", "ftp://push.example.com/x", "https://", "push.example.com/x",
        "https://user:pw@push.example.com/x", "https://push.example.com/a b",
        "https://push.example.com:99999/x", "https://push.example.com:12ab/x",
        "http://127.0.0.1.evil.com/x", "http://localhost.evil.com/x", "javascript:alert(1)"}) {
    auto parsed = parse_push_subscription(subscription(endpoint));
    ASSERT_FALSE(parsed) << endpoint;
    EXPECT_EQ(parsed.error().code, "bad_argument");
  }
  EXPECT_FALSE(parse_push_subscription(subscription("https://x.com/" + std::string(2048, 'a'))));
}

TEST(PushSubscription, RefusesKeysOfTheWrongShape) {
  std::string https = "https://push.example.com/x";
  // p256dh: 64 bytes, compressed-point prefix, not base64url, missing.
  EXPECT_FALSE(parse_push_subscription(subscription(https, kP256dh.substr(0, 84))));
  std::string compressed(kP256dh);
  compressed[0] = 'A';  // first byte 0x00..0x03
  EXPECT_FALSE(parse_push_subscription(subscription(https, compressed)));
  EXPECT_FALSE(parse_push_subscription(subscription(https, "not base64!")));
  // auth: 15 and 17 bytes.
  EXPECT_FALSE(parse_push_subscription(subscription(https, kP256dh, "BTBZMqHH6r4Tts7J_aSI")));
  EXPECT_FALSE(parse_push_subscription(subscription(https, kP256dh, "BTBZMqHH6r4Tts7J_aSIgggg")));
  EXPECT_FALSE(parse_push_subscription(boost::json::parse(R"({"endpoint":"https://a.b/c"})")));
  EXPECT_FALSE(parse_push_subscription(boost::json::parse(R"({"keys":{}})")));
  EXPECT_FALSE(parse_push_subscription(boost::json::parse(R"(["https://a.b/c"])")));
  EXPECT_FALSE(parse_push_subscription(
      boost::json::parse(R"({"endpoint":42,"keys":{"p256dh":"x","auth":"y"}})")));
}

TEST(PushAudience, IsTheEndpointsOrigin) {
  EXPECT_EQ(push_audience("https://FCM.googleapis.com/fcm/send/x"), "https://fcm.googleapis.com");
  EXPECT_EQ(push_audience("https://push.example.com:443/x"), "https://push.example.com");
  EXPECT_EQ(push_audience("https://push.example.com:8443/x?y"), "https://push.example.com:8443");
  EXPECT_EQ(push_audience("http://127.0.0.1:9000/push"), "http://127.0.0.1:9000");
  EXPECT_EQ(push_audience("http://[::1]:80/push"), "http://[::1]");
}

}  // namespace
}  // namespace wharf::core
