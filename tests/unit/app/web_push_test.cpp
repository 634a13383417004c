// Web Push's cryptography and keeping (app/web_push_crypto.hpp, push_subscriptions.hpp,
// web_push_channel.hpp): the encryption reproduces RFC 8291 Appendix A byte for byte
// with its fixed salt and sender key; a VAPID token verifies with the public key and
// fails once altered; the key file is made once, 0600, and read back the same; the
// subscriptions file keeps one entry per endpoint, at most 50, and survives a reload;
// the channel sends each browser its own encrypted copy with the right headers and
// forgets a subscription its push service calls gone (410).
#include "core/web_push.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>

#include "app/push_subscriptions.hpp"
#include "app/web_push_channel.hpp"
#include "app/web_push_crypto.hpp"

namespace wharf::app {
namespace {

namespace fs = std::filesystem;
using core::base64url_decode;
using core::base64url_encode;

std::vector<std::uint8_t> b64(std::string_view text) {
  auto bytes = base64url_decode(text);
  EXPECT_TRUE(bytes) << text;
  return bytes.value_or(std::vector<std::uint8_t>{});
}

// RFC 8291 Appendix A.
constexpr std::string_view kAsPublic =
    "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
constexpr std::string_view kAsPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
constexpr std::string_view kUaPublic =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
constexpr std::string_view kAuthSecret = "BTBZMqHH6r4Tts7J_aSIgg";
constexpr std::string_view kSalt = "DGv6ra1nlYgDCS1FRnbzlw";
constexpr std::string_view kPlaintext = "When I grow up, I want to be a watermelon";
constexpr std::string_view kMessage =
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6T"
    "lzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4"
    "a-fN";

TEST(WebPushCrypto, EncryptionMatchesRfc8291AppendixA) {
  auto sender = p256_key_pair(b64(kAsPrivate), b64(kAsPublic));
  ASSERT_TRUE(sender) << sender.error().message;
  PushKeysForTest fixed{.sender = sender.value()};
  auto salt = b64(kSalt);
  std::copy(salt.begin(), salt.end(), fixed.salt.begin());
  auto body = encrypt_push_message(kPlaintext, b64(kUaPublic), b64(kAuthSecret), &fixed);
  ASSERT_TRUE(body) << body.error().message;
  EXPECT_EQ(base64url_encode(body.value()), kMessage);
}

TEST(WebPushCrypto, FreshSenderKeyAndSaltPerMessage) {
  auto a = encrypt_push_message(kPlaintext, b64(kUaPublic), b64(kAuthSecret));
  auto b = encrypt_push_message(kPlaintext, b64(kUaPublic), b64(kAuthSecret));
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a.value().size(), 86u + kPlaintext.size() + 1 + 16);
  EXPECT_NE(a.value().substr(0, 16), b.value().substr(0, 16));                 // salt
  EXPECT_NE(a.value().substr(21, 65), b.value().substr(21, 65));               // sender key
  EXPECT_EQ(a.value().substr(16, 5), std::string("\x00\x00\x10\x00\x41", 5));  // rs 4096, 65
}

TEST(WebPushCrypto, RefusesWhatCannotBeEncrypted) {
  auto too_long = encrypt_push_message(std::string(kMaxPushPlaintext + 1, 'x'), b64(kUaPublic),
                                       b64(kAuthSecret));
  ASSERT_FALSE(too_long);
  EXPECT_EQ(too_long.error().code, "too_large");
  EXPECT_TRUE(
      encrypt_push_message(std::string(kMaxPushPlaintext, 'x'), b64(kUaPublic), b64(kAuthSecret)));
  auto off_curve = b64(kUaPublic);
  off_curve[40] ^= 1;  // no longer a point on P-256
  auto refused = encrypt_push_message(kPlaintext, off_curve, b64(kAuthSecret));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, "bad_argument");
  EXPECT_FALSE(p256_key_pair(b64(kAsPrivate), b64(kUaPublic)));  // not one pair
}

TEST(WebPushCrypto, VapidTokenVerifiesWithThePublicKey) {
  auto keys = generate_p256_key_pair();
  ASSERT_TRUE(keys);
  auto token = vapid_token(keys.value(), "https://push.example.com", "mailto:a@b.c", 1700000000);
  ASSERT_TRUE(token);
  EXPECT_TRUE(verify_es256_token(keys.value().public_key, token.value()));
  // The claims are what RFC 8292 asks for, under an ES256 JWT header.
  std::string_view t = token.value();
  auto header = b64(t.substr(0, t.find('.')));
  EXPECT_EQ(std::string(header.begin(), header.end()), R"({"typ":"JWT","alg":"ES256"})");
  std::string_view rest = t.substr(t.find('.') + 1);
  auto claims_bytes = b64(rest.substr(0, rest.find('.')));
  auto claims = boost::json::parse(std::string(claims_bytes.begin(), claims_bytes.end()));
  EXPECT_EQ(claims.at("aud"), "https://push.example.com");
  EXPECT_EQ(claims.at("sub"), "mailto:a@b.c");
  EXPECT_EQ(claims.at("exp"), 1700000000);
  // Another key, or one changed character of the claims, does not verify.
  auto other = generate_p256_key_pair();
  EXPECT_FALSE(verify_es256_token(other.value().public_key, token.value()));
  std::string altered = token.value();
  altered[altered.find('.') + 3] ^= 1;
  EXPECT_FALSE(verify_es256_token(keys.value().public_key, altered));
  EXPECT_EQ(vapid_authorization(keys.value(), "T"),
            "vapid t=T, k=" + base64url_encode(keys.value().public_key));
}

class WebPushStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "wharf-push-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(WebPushStateTest, VapidKeysAreMadeOnceOwnerOnly) {
  auto first = load_or_create_vapid_keys(root_ / "vapid.json");
  ASSERT_TRUE(first) << first.error().message;
  struct stat st {};
  ASSERT_EQ(stat((root_ / "vapid.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto again = load_or_create_vapid_keys(root_ / "vapid.json");
  ASSERT_TRUE(again);
  EXPECT_EQ(again.value().public_key, first.value().public_key);
  EXPECT_EQ(again.value().private_key, first.value().private_key);
  // A damaged file is an error, never silently a new key (browsers are bound to the old).
  std::ofstream(root_ / "vapid.json") << R"({"private":"AAAA","public":"BBBB"})";
  EXPECT_FALSE(load_or_create_vapid_keys(root_ / "vapid.json"));
}

core::PushSubscription sub(std::string endpoint) {
  return {std::move(endpoint), b64(kUaPublic), b64(kAuthSecret)};
}

TEST_F(WebPushStateTest, SubscriptionsOnePerEndpointCappedAndKept) {
  PushSubscriptions subs(root_ / "push-subscriptions.json");
  ASSERT_TRUE(subs.load());
  EXPECT_TRUE(subs.all().empty());
  ASSERT_TRUE(subs.add(sub("https://push.example.com/a")));
  auto replaced = sub("https://push.example.com/a");
  replaced.auth[0] ^= 0xff;
  ASSERT_TRUE(subs.add(replaced));
  ASSERT_EQ(subs.all().size(), 1u);
  EXPECT_EQ(subs.all()[0].auth, replaced.auth);
  for (std::size_t i = 1; i < kMaxPushSubscriptions; ++i)
    ASSERT_TRUE(subs.add(sub("https://push.example.com/" + std::to_string(i))));
  auto over = subs.add(sub("https://push.example.com/over"));
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, "limit_reached");
  EXPECT_TRUE(subs.remove("https://push.example.com/7"));
  EXPECT_FALSE(subs.remove("https://push.example.com/7"));
  struct stat st {};
  ASSERT_EQ(stat((root_ / "push-subscriptions.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  PushSubscriptions reread(root_ / "push-subscriptions.json");
  ASSERT_TRUE(reread.load());
  ASSERT_EQ(reread.all().size(), kMaxPushSubscriptions - 1);
  EXPECT_EQ(reread.all()[0].endpoint, "https://push.example.com/a");
  EXPECT_EQ(reread.all()[0].auth, replaced.auth);
}

struct Sent {
  OutboundRequest request;
  OutboundDone done;
};

TEST_F(WebPushStateTest, ChannelSendsEncryptedSignedPushesAndForgetsGoneOnes) {
  boost::asio::io_context io;
  WebPushChannel channel(root_, "mailto:ops@example.com", io.get_executor());
  ASSERT_TRUE(channel.enabled());
  std::vector<Sent> sent;
  channel.set_sender_for_test([&](auto, OutboundRequest request, OutboundDone done) {
    sent.push_back({std::move(request), std::move(done)});
  });
  boost::json::value browser = boost::json::object{
      {"endpoint", "https://push.example.com:8443/s/1"},
      {"keys", boost::json::object{{"p256dh", kUaPublic}, {"auth", kAuthSecret}}}};
  ASSERT_TRUE(channel.subscribe(browser));
  auto refused = channel.subscribe(boost::json::object{{"endpoint", "http://push.example.com/x"}});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, "bad_argument");

  channel.deliver({.session = 7,
                   .session_name = "claude",
                   .kind = "waiting",
                   .title = "claude (7) is waiting for you",
                   .message = "a question"});
  ASSERT_EQ(sent.size(), 1u);
  const OutboundRequest& request = sent[0].request;
  EXPECT_EQ(request.url, "https://push.example.com:8443/s/1");
  auto header = [&](std::string_view name) {
    for (const auto& [key, value] : request.headers)
      if (key == name) return value;
    return std::string();
  };
  EXPECT_EQ(header("Content-Encoding"), "aes128gcm");
  EXPECT_EQ(header("Urgency"), "high");
  EXPECT_EQ(header("TTL"), std::to_string(kPushTimeToLiveSeconds));
  std::string auth = header("Authorization");
  ASSERT_TRUE(auth.starts_with("vapid t="));
  std::string token = auth.substr(8, auth.find(", k=") - 8);
  EXPECT_EQ(auth.substr(auth.find(", k=") + 4), channel.public_key());
  EXPECT_TRUE(verify_es256_token(b64(channel.public_key()), token));
  EXPECT_EQ(request.body.substr(16, 4), std::string("\x00\x00\x10\x00", 4));

  sent.clear();
  channel.deliver({.session = 7, .kind = "finished", .title = "done"});
  ASSERT_EQ(sent.size(), 1u);
  for (const auto& [key, value] : sent[0].request.headers) {
    if (key == "Urgency") {
      EXPECT_EQ(value, "normal");
    }
  }
  sent[0].done(OutboundResponse{.status = 201});
  EXPECT_EQ(channel.subscription_count(), 1u);
  sent[0].done(OutboundResponse{.status = 410});
  EXPECT_EQ(channel.subscription_count(), 0u);
  sent.clear();
  channel.deliver({.session = 7, .kind = "finished", .title = "done"});
  EXPECT_TRUE(sent.empty());
}

}  // namespace
}  // namespace wharf::app
