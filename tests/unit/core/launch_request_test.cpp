// The one reader of "start a session" requests (core/launch_request.hpp).
#include "core/launch_request.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

namespace wharf::core {
namespace {

Result<LaunchRequest> parse(std::string_view text) {
  return parse_launch_request(boost::json::parse(text).as_object());
}

TEST(LaunchRequest, ReadsEveryField) {
  auto r = parse(R"({"kind":"agent","entry":"codex","cwd":"apps/api","title":"fix",
                     "prompt":"fix the redirect","env":{"TICKET":"T-7"}})");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r.value().kind, "agent");
  EXPECT_EQ(r.value().entry, "codex");
  EXPECT_EQ(r.value().cwd, "apps/api");
  EXPECT_EQ(r.value().name, "fix");
  EXPECT_EQ(r.value().prompt, "fix the redirect");
  EXPECT_EQ(r.value().env, (EnvList{{"TICKET", "T-7"}}));
}

TEST(LaunchRequest, AgentAndShellAreSpellingsOfKindAndEntry) {
  EXPECT_EQ(parse(R"({"agent":"claude"})").value().kind, "agent");
  EXPECT_EQ(parse(R"({"shell":"zsh"})").value().entry, "zsh");
  EXPECT_FALSE(parse(R"({"agent":"claude","entry":"codex"})"));
}

TEST(LaunchRequest, ThereIsNoCommandField) {
  for (std::string_view field : {"command", "cmd", "args", "argv", "exec", "program"}) {
    auto r = parse(std::string(R"({"shell":"bash",")") + std::string(field) + R"(":"rm -rf /"})");
    ASSERT_FALSE(r) << field;
    EXPECT_NE(r.error().message.find("there is no"), std::string::npos);
  }
}

TEST(LaunchRequest, EnvMustBeAnObjectOfStrings) {
  EXPECT_FALSE(parse(R"({"env":["A=1"]})"));
  EXPECT_FALSE(parse(R"({"env":{"A":1}})"));
  EXPECT_FALSE(parse(R"({"env":{"1A":"x"}})"));
  EXPECT_FALSE(parse(R"({"env":{"WHARF_SESSION_ID":"x"}})"));
  EXPECT_FALSE(parse(R"({"env":{"A":"x\u0000y"}})"));
}

TEST(LaunchRequest, BadKindAndOverlongFieldsAreRefused) {
  EXPECT_FALSE(parse(R"({"kind":"program","entry":"x"})"));
  EXPECT_FALSE(parse(R"({"cwd":5})"));
  EXPECT_FALSE(parse(std::string(R"({"entry":")") + std::string(65, 'a') + "\"}"));
}

}  // namespace
}  // namespace wharf::core
