// How the audit names callers (core/caller_labels.hpp): who answered a decision and which
// kind of client typed, for each door.
#include "core/caller_labels.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

Caller key(std::string via = {}, std::int64_t device = 0) {
  return Caller{.kind = Caller::Kind::kKeyHolder, .device = device, .via = std::move(via)};
}

TEST(CallerLabels, AnswererSaysWhichDoor) {
  EXPECT_EQ(answerer_label(Caller{.kind = Caller::Kind::kLocalUser}, ""), "cli");
  EXPECT_EQ(answerer_label(key(), ""), "rest");
  EXPECT_EQ(answerer_label(key("", 3), "phone"), "device:phone");
  EXPECT_EQ(answerer_label(key("window"), ""), "key");
  EXPECT_EQ(answerer_label(key("window", 3), "my phone"), "device:my_phone");
  EXPECT_EQ(answerer_label(key("mcp"), ""), "mcp");
  EXPECT_EQ(answerer_label(Caller{.kind = Caller::Kind::kLocalUser, .via = "mcp:claude-code"}, ""),
            "mcp:claude-code");
  EXPECT_EQ(answerer_label(Caller{.kind = Caller::Kind::kSession, .session = 4}, ""), "session:4");
}

TEST(CallerLabels, InputClientKindAndLabel) {
  auto window = input_client(key("window", 2), "laptop");
  EXPECT_EQ(window.kind, "window");
  EXPECT_EQ(window.label, "laptop");
  EXPECT_EQ(input_client(key(), "").kind, "rest");
  EXPECT_EQ(input_client(Caller{.kind = Caller::Kind::kLocalUser}, "").kind, "cli");
  auto mcp = input_client(Caller{.kind = Caller::Kind::kLocalUser, .via = "mcp:codex"}, "");
  EXPECT_EQ(mcp.kind, "mcp");
  EXPECT_EQ(mcp.label, "codex");
  auto session = input_client(Caller{.kind = Caller::Kind::kSession, .session = 9}, "");
  EXPECT_EQ(session.kind, "cli");
  EXPECT_EQ(session.label, "session:9");
}

TEST(CallerLabels, McpViaIsCleanedAndChecked) {
  EXPECT_EQ(mcp_via("claude-code 1.0.3"), "mcp:claude-code");
  EXPECT_EQ(mcp_via(""), "mcp");
  EXPECT_EQ(mcp_via("\x1b[31m"), "mcp:__31m");
  EXPECT_EQ(mcp_via(std::string(200, 'a')).size(), 4 + kMaxClientLabelBytes);
  EXPECT_TRUE(valid_via("mcp"));
  EXPECT_TRUE(valid_via("mcp:claude-code"));
  EXPECT_FALSE(valid_via(""));
  EXPECT_FALSE(valid_via("window"));
  EXPECT_FALSE(valid_via("mcp:"));
  EXPECT_FALSE(valid_via("mcp:a b"));
  EXPECT_FALSE(valid_via("mcp:" + std::string(65, 'a')));
}

}  // namespace
}  // namespace wharf::core
