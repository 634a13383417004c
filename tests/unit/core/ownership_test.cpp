// Who may use which session (core/ownership.hpp): the user's two doors may do anything; a
// program inside a session only what it started and the shared shell, and every refusal
// names the rule and the target's creator.
#include "core/ownership.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

const Caller kBrowser{Caller::Kind::kKeyHolder};
const Caller kTerminal{Caller::Kind::kLocalUser};
const Caller kInside2{Caller::Kind::kSession, 2};

constexpr Access kAll[] = {Access::kRead, Access::kDrive, Access::kEnd};

TEST(Ownership, DescribesCallers) {
  EXPECT_EQ(describe(kBrowser), "the browser");
  EXPECT_EQ(describe(kTerminal), "your terminal");
  EXPECT_EQ(describe(Caller{Caller::Kind::kSession, 3}), "session 3");
}

TEST(Ownership, CreatorLabels) {
  EXPECT_EQ(creator_label(kBrowser), "key");
  EXPECT_EQ(creator_label(kTerminal), "local");
  EXPECT_EQ(creator_label(Caller{Caller::Kind::kSession, 3}), "session:3");
  EXPECT_EQ(creator_label(Caller{Caller::Kind::kSession, 18446744073709551615u}),
            "session:18446744073709551615");
}

TEST(Ownership, DescribesStoredCreators) {
  EXPECT_EQ(describe_creator("key"), "the browser");
  EXPECT_EQ(describe_creator("local"), "your terminal");
  EXPECT_EQ(describe_creator("session:12"), "session 12");
  EXPECT_EQ(describe_creator(""), "an unrecorded creator");
  EXPECT_EQ(describe_creator("session:"), "'session:'");
  EXPECT_EQ(describe_creator("session:1x"), "'session:1x'");
  EXPECT_EQ(describe_creator("\x1b[2Jevil"), "'?[2Jevil'");
}

TEST(Ownership, KeyHolderAndLocalUserMayDoAnything) {
  for (const Caller& caller : {kBrowser, kTerminal}) {
    for (Access access : kAll) {
      for (std::string_view creator : {"key", "local", "session:2", "session:9", ""}) {
        EXPECT_TRUE(may_access(caller, 5, creator, false, access)) << creator;
        EXPECT_TRUE(may_access(caller, 1, creator, true, access)) << creator;
      }
    }
  }
}

TEST(Ownership, ASessionMayDoAnythingToSessionsItStarted) {
  for (Access access : kAll) EXPECT_TRUE(may_access(kInside2, 7, "session:2", false, access));
}

TEST(Ownership, ASessionMayReadAndDriveTheSharedShellButNotEndIt) {
  EXPECT_TRUE(may_access(kInside2, 1, "key", true, Access::kRead));
  EXPECT_TRUE(may_access(kInside2, 1, "key", true, Access::kDrive));
  auto end = may_access(kInside2, 1, "key", true, Access::kEnd);
  ASSERT_FALSE(end);
  EXPECT_EQ(end.error().code, "not_permitted");
  EXPECT_EQ(end.error().message,
            "session 1 is the shared shell; a program inside session 2 may read and drive it "
            "but not end it");
}

TEST(Ownership, ASharedShellItStartedItMayAlsoEnd) {
  EXPECT_TRUE(may_access(kInside2, 4, "session:2", true, Access::kEnd));
}

TEST(Ownership, ASessionMayNotTouchTheBrowsersSessions) {
  for (Access access : kAll) {
    auto status = may_access(kInside2, 5, "key", false, access);
    ASSERT_FALSE(status);
    EXPECT_EQ(status.error().code, "not_permitted");
    EXPECT_EQ(status.error().message,
              "session 5 was started by the browser; a program inside session 2 may only use "
              "the sessions it started and the shared shell");
  }
}

TEST(Ownership, ASessionMayNotTouchTheTerminalsOrAnotherSessionsSessions) {
  auto local = may_access(kInside2, 5, "local", false, Access::kRead);
  ASSERT_FALSE(local);
  EXPECT_EQ(local.error().message,
            "session 5 was started by your terminal; a program inside session 2 may only use "
            "the sessions it started and the shared shell");
  auto other = may_access(kInside2, 6, "session:3", false, Access::kDrive);
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().message,
            "session 6 was started by session 3; a program inside session 2 may only use the "
            "sessions it started and the shared shell");
}

TEST(Ownership, ASessionMayNotUseItself) {
  // Session 2 was started by the browser: a program inside it is not its owner.
  auto status = may_access(kInside2, 2, "key", false, Access::kDrive);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().message,
            "session 2 was started by the browser; a program inside session 2 may only use "
            "the sessions it started and the shared shell");
}

TEST(Ownership, CreatorsAreComparedExactly) {
  for (std::string_view near :
       {"session:20", "session:02", "session: 2", "Session:2", "session:2 ", "session:", "2", ""}) {
    auto status = may_access(kInside2, 9, near, false, Access::kRead);
    ASSERT_FALSE(status) << near;
    EXPECT_EQ(status.error().code, "not_permitted");
  }
  auto unrecorded = may_access(kInside2, 9, "", false, Access::kRead);
  EXPECT_EQ(unrecorded.error().message,
            "session 9 was started by an unrecorded creator; a program inside session 2 may "
            "only use the sessions it started and the shared shell");
}

// A program wharf started whose session is not known (an orphan under the daemon) is
// never the user: it may use no session, even one whose creator was never recorded.
TEST(Ownership, AProgramOfNoKnownSessionMayUseNothingButTheSharedShell) {
  const Caller stray{Caller::Kind::kSession, 0};
  for (Access access : kAll) {
    for (std::string_view creator : {"key", "local", "session:0", "session:2", ""}) {
      auto status = may_access(stray, 5, creator, false, access);
      ASSERT_FALSE(status) << creator;
      EXPECT_EQ(status.error().code, "not_permitted");
    }
  }
  EXPECT_TRUE(may_access(stray, 1, "key", true, Access::kDrive));
  EXPECT_FALSE(may_access(stray, 1, "key", true, Access::kEnd));
  EXPECT_EQ(describe(stray), "a program of no known session");
}

}  // namespace
}  // namespace wharf::core
