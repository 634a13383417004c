#include "core/channel_message.hpp"

#include <gtest/gtest.h>

#include <string>

namespace wharf::core {
namespace {

std::string refusal(std::string_view line) {
  auto parsed = parse_channel_request(line);
  EXPECT_FALSE(parsed.ok()) << line;
  return parsed.ok() ? std::string() : parsed.error().message;
}

TEST(ChannelMessage, ParsesGuardAndRoundTrips) {
  auto parsed =
      parse_channel_request(R"({"type":"guard","argv":["git","push","origin","main"],"cwd":"/w"})"
                            "\n");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  const auto& guard = std::get<ChannelGuard>(parsed.value());
  EXPECT_EQ(guard.argv, (std::vector<std::string>{"git", "push", "origin", "main"}));
  EXPECT_EQ(guard.cwd, "/w");
  std::string line = serialize_channel_request(guard);
  EXPECT_EQ(line.back(), '\n');
  auto again = parse_channel_request(line);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(std::get<ChannelGuard>(again.value()).argv, guard.argv);
}

TEST(ChannelMessage, ParsesNotify) {
  auto parsed = parse_channel_request(R"({"type":"notify","state":"finished","message":"done"})");
  ASSERT_TRUE(parsed.ok());
  const auto& notify = std::get<ChannelNotify>(parsed.value());
  EXPECT_EQ(notify.state, ChannelNotifyState::finished);
  EXPECT_EQ(notify.message, "done");
  auto bare = parse_channel_request(R"({"type":"notify","state":"waiting"})");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(std::get<ChannelNotify>(bare.value()).state, ChannelNotifyState::waiting);
  auto round = parse_channel_request(
      serialize_channel_request(ChannelNotify{ChannelNotifyState::finished, "x"}));
  ASSERT_TRUE(round.ok());
  EXPECT_EQ(std::get<ChannelNotify>(round.value()).message, "x");
}

TEST(ChannelMessage, RefusesMalformedRequests) {
  EXPECT_NE(refusal("not json").find("not JSON"), std::string::npos);
  EXPECT_NE(refusal("[1]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(refusal(R"({"argv":["git"]})").find("'type'"), std::string::npos);
  EXPECT_NE(refusal(R"({"type":"run","argv":["git"]})").find("unknown channel message type"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"guard","argv":[],"cwd":"/"})").find("non-empty"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"guard","argv":"git push","cwd":"/"})").find("argv"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"guard","argv":["git",1],"cwd":"/"})").find("argv"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"guard","argv":["git","a\u0000b"],"cwd":"/"})").find("NUL"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"guard","argv":["git"],"cwd":"rel/dir"})").find("absolute"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"guard","argv":["git"]})").find("cwd"), std::string::npos);
  EXPECT_NE(refusal(R"({"type":"guard","argv":["git"],"cwd":"/","env":{}})").find("unknown field"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"notify","state":"idle"})").find("state"), std::string::npos);
  EXPECT_NE(refusal(R"({"type":"notify","state":true})").find("state"), std::string::npos);
  EXPECT_NE(refusal(R"({"type":"notify","state":"waiting","message":5})").find("message"),
            std::string::npos);
  EXPECT_NE(refusal("{\"type\":\"notify\",\"state\":\"waiting\"}\n{\"type\":\"notify\"}")
                .find("more than one line"),
            std::string::npos);
}

TEST(ChannelMessage, EnforcesBounds) {
  std::string argv = R"({"type":"guard","cwd":"/","argv":[)";
  for (int i = 0; i < 257; ++i) argv += std::string(i ? "," : "") + "\"a\"";
  argv += "]}";
  EXPECT_NE(refusal(argv).find("256"), std::string::npos);

  std::string message(kMaxChannelMessageText + 1, 'm');
  EXPECT_NE(
      refusal(R"({"type":"notify","state":"waiting","message":")" + message + "\"}").find("4096"),
      std::string::npos);
  message.pop_back();
  EXPECT_TRUE(
      parse_channel_request(R"({"type":"notify","state":"waiting","message":")" + message + "\"}")
          .ok());

  std::string huge =
      R"({"type":"guard","cwd":"/","argv":[")" + std::string(kMaxChannelLineBytes, 'x') + "\"]}";
  auto parsed = parse_channel_request(huge);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().code, "too_long");
}

TEST(ChannelMessage, RepliesRoundTrip) {
  std::vector<ChannelReply> replies = {ChannelPending{7, 600},
                                       ChannelApproved{"phone"},
                                       ChannelExited{3, std::nullopt},
                                       ChannelExited{std::nullopt, 9},
                                       ChannelDenied{"cli", "not yet"},
                                       ChannelExpired{},
                                       ChannelFailure{"no such directory"},
                                       ChannelOk{}};
  for (const auto& reply : replies) {
    std::string line = serialize_channel_reply(reply);
    auto parsed = parse_channel_reply(line);
    ASSERT_TRUE(parsed.ok()) << line;
    EXPECT_EQ(parsed.value().index(), reply.index()) << line;
    EXPECT_EQ(serialize_channel_reply(parsed.value()), line);
  }
  EXPECT_EQ(serialize_channel_reply(ChannelPending{7, 600}),
            "{\"type\":\"pending\",\"id\":7,\"expires_in_s\":600}\n");
  EXPECT_EQ(serialize_channel_reply(ChannelExited{std::nullopt, 9}),
            "{\"type\":\"exited\",\"signal\":9}\n");
}

TEST(ChannelMessage, RefusesMalformedReplies) {
  EXPECT_FALSE(parse_channel_reply(R"({"type":"exited"})").ok());
  EXPECT_FALSE(parse_channel_reply(R"({"type":"exited","code":1,"signal":2})").ok());
  EXPECT_FALSE(parse_channel_reply(R"({"type":"pending","id":0})").ok());
  EXPECT_FALSE(parse_channel_reply(R"({"type":"denied","note":3})").ok());
  EXPECT_FALSE(parse_channel_reply(R"({"type":"surprise"})").ok());
  // A newer daemon may add fields; the shim ignores them.
  EXPECT_TRUE(parse_channel_reply(R"({"type":"ok","extra":1})").ok());
}

}  // namespace
}  // namespace wharf::core
