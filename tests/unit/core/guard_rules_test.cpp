#include "core/guard_rules.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace wharf::core {
namespace {

using Args = std::vector<std::string>;
const std::string kMarker(kDisclosureMarker);

GuardVerdict git(Args args) {
  args.insert(args.begin(), "/usr/bin/git");
  return check_guard("git", args);
}
GuardVerdict gh(Args args) {
  args.insert(args.begin(), "gh");
  return check_guard("gh", args);
}

TEST(GuardRules, GitPushIsGuardedWhateverTheGlobalOptions) {
  auto verdict = git({"push", "origin", "main"});
  EXPECT_TRUE(verdict.guarded);
  EXPECT_EQ(verdict.what, "git push origin main");
  EXPECT_EQ(verdict.argv, (Args{"git", "push", "origin", "main"}));
  EXPECT_NE(verdict.reason.find("push"), std::string::npos);
  for (const Args& args :
       {Args{"-C", "/w", "push"}, Args{"-c", "user.name=x", "push"},
        Args{"--git-dir=/w/.git", "--work-tree=/w", "push"}, Args{"--git-dir", "/w/.git", "push"},
        Args{"-P", "push"}, Args{"--no-pager", "-p", "--bare", "push", "--force"},
        Args{"--namespace", "n", "--super-prefix", "s", "push"}, Args{"-cuser.name=x", "push"},
        Args{"send-pack", "remote"}, Args{"http-push", "url"}})
    EXPECT_TRUE(git(args).guarded) << args.size();
}

TEST(GuardRules, GitCommandsThatDoNotPublishPassThrough) {
  for (const Args& args :
       {Args{}, Args{"status"}, Args{"commit", "-m", "push"}, Args{"log", "push"},
        Args{"-C", "push", "status"}, Args{"-c", "push", "fetch"}, Args{"--version"},
        Args{"help", "push"}, Args{"fetch", "origin"}, Args{"config", "user.name", "x"}}) {
    auto verdict = git(args);
    EXPECT_FALSE(verdict.guarded) << verdict.what;
    EXPECT_EQ(verdict.what.substr(0, 3), "git");  // said in a refusal
    EXPECT_EQ(verdict.argv.size(), args.size() + 1);
    EXPECT_EQ(verdict.argv[0], "git");
  }
}

TEST(GuardRules, GitAliasesThatCouldPushAreGuarded) {
  EXPECT_TRUE(git({"-c", "alias.p=push", "p"}).guarded);
  EXPECT_TRUE(git({"-cAlias.p=!git push", "p"}).guarded);
  EXPECT_TRUE(git({"--config-env=alias.p=VAR", "p"}).guarded);
  EXPECT_TRUE(git({"config", "alias.p", "push"}).guarded);
  EXPECT_TRUE(git({"config", "--local", "alias.p", "push"}).guarded);
}

TEST(GuardRules, GhPublishingCommandsAreGuarded) {
  for (const Args& args :
       {Args{"pr", "merge", "12"}, Args{"pr", "comment", "12", "--body", "x"},
        Args{"pr", "review", "--approve"}, Args{"pr", "edit", "1"}, Args{"issue", "create"},
        Args{"issue", "comment", "3"}, Args{"issue", "edit", "3"}, Args{"release", "create", "v1"},
        Args{"repo", "create", "x"}, Args{"repo", "delete", "x"}, Args{"pr", "-R", "o/r", "merge"},
        Args{"--repo", "o/r", "pr", "merge"}, Args{"pr", "close", "1"}})
    EXPECT_TRUE(gh(args).guarded) << args[0] << " " << args[1];
}

TEST(GuardRules, GhReadingCommandsPassThrough) {
  for (const Args& args :
       {Args{"pr", "list"}, Args{"pr", "view", "12"}, Args{"pr", "checkout", "12"},
        Args{"pr", "diff"}, Args{"issue", "list"}, Args{"issue", "view", "3"},
        Args{"release", "list"}, Args{"repo", "view"}, Args{"repo", "clone", "o/r"},
        Args{"auth", "status"}, Args{"pr", "-R", "create", "list"}, Args{}}) {
    auto verdict = gh(args);
    EXPECT_FALSE(verdict.guarded) << verdict.what;
    EXPECT_EQ(verdict.argv.size(), args.size() + 1);
  }
}

TEST(GuardRules, GhApiIsGuardedWhenItWrites) {
  EXPECT_FALSE(gh({"api", "repos/o/r"}).guarded);
  EXPECT_FALSE(gh({"api", "-X", "GET", "repos/o/r"}).guarded);
  EXPECT_FALSE(gh({"api", "--method=get", "search/issues", "-f", "q=x"}).guarded);
  EXPECT_TRUE(gh({"api", "-X", "POST", "repos/o/r/issues"}).guarded);
  EXPECT_TRUE(gh({"api", "-XDELETE", "repos/o/r"}).guarded);
  EXPECT_TRUE(gh({"api", "-X=PATCH", "repos/o/r"}).guarded);
  EXPECT_TRUE(gh({"api", "--method", "put", "x"}).guarded);
  EXPECT_TRUE(gh({"api", "--method=POST", "x"}).guarded);
  EXPECT_TRUE(gh({"api", "repos/o/r/issues", "-f", "title=x"}).guarded);
  EXPECT_TRUE(gh({"api", "repos/o/r/issues", "-Ftitle=x"}).guarded);
  EXPECT_TRUE(gh({"api", "graphql", "--raw-field", "query=mutation{}"}).guarded);
  EXPECT_TRUE(gh({"api", "x", "--field=a=b"}).guarded);
  EXPECT_TRUE(gh({"api", "x", "--input", "body.json"}).guarded);
  EXPECT_TRUE(gh({"api", "-X", "GET", "-X", "POST", "x"}).guarded);  // the last one counts
}

TEST(GuardRules, GhBodiesGetTheMarkerInEverySpelling) {
  auto verdict = gh({"pr", "comment", "1", "--body", "hi"});
  EXPECT_EQ(verdict.argv, (Args{"gh", "pr", "comment", "1", "--body", "hi" + kMarker}));
  EXPECT_EQ(verdict.what, "gh pr comment 1 --body hi");
  EXPECT_EQ(gh({"pr", "comment", "1", "--body=hi"}).argv.back(), "--body=hi" + kMarker);
  EXPECT_EQ(gh({"pr", "comment", "1", "-b", "hi"}).argv.back(), "hi" + kMarker);
  EXPECT_EQ(gh({"pr", "comment", "1", "-bhi"}).argv.back(), "-bhi" + kMarker);
  EXPECT_EQ(gh({"issue", "create", "-t", "T", "-b", "B"}).argv.back(), "B" + kMarker);
  EXPECT_EQ(gh({"pr", "review", "-c", "-b", "B"}).argv.back(), "B" + kMarker);
  EXPECT_EQ(gh({"release", "create", "v1", "--notes", "N"}).argv.back(), "N" + kMarker);
  EXPECT_EQ(gh({"release", "create", "v1", "-nN"}).argv.back(), "-nN" + kMarker);
  // A title that looks like a body option is the title, not a body.
  auto titled = gh({"pr", "create", "--title", "-b", "--body", "B"});
  EXPECT_EQ(titled.argv, (Args{"gh", "pr", "create", "--title", "-b", "--body", "B" + kMarker}));
  // After `--` nothing is an option.
  EXPECT_EQ(gh({"pr", "comment", "--", "-b", "x"}).argv.back(), "x");
  // Commands without a body are left alone.
  EXPECT_EQ(gh({"pr", "merge", "1", "--squash"}).argv,
            (Args{"gh", "pr", "merge", "1", "--squash"}));
}

TEST(GuardRules, CreatingWithoutABodyGetsAMarkerBody) {
  auto verdict = gh({"pr", "create", "--title", "T"});
  ASSERT_TRUE(verdict.guarded);
  ASSERT_EQ(verdict.argv.size(), 7u);
  EXPECT_EQ(verdict.argv[5], "--body");
  EXPECT_EQ(verdict.argv[6], kMarker.substr(2));
  EXPECT_EQ(gh({"issue", "create", "-t", "T"}).argv[5], "--body");
  // gh fills the body itself: adding one would replace what it writes.
  EXPECT_EQ(gh({"pr", "create", "--fill"}).argv.size(), 4u);
  EXPECT_EQ(gh({"pr", "create", "--web"}).argv.size(), 4u);
}

TEST(GuardRules, BodyFilesAreLeftAsIsButNoted) {
  auto verdict = gh({"pr", "create", "--body-file", "b.md"});
  EXPECT_TRUE(verdict.body_from_file);
  EXPECT_EQ(verdict.argv, (Args{"gh", "pr", "create", "--body-file", "b.md"}));
  EXPECT_NE(verdict.reason.find("file"), std::string::npos);
  EXPECT_TRUE(gh({"issue", "comment", "1", "-F", "b.md"}).body_from_file);
  EXPECT_TRUE(gh({"issue", "comment", "1", "--body-file=b.md"}).body_from_file);
  EXPECT_TRUE(gh({"release", "create", "v1", "--notes-file", "n.md"}).body_from_file);
  EXPECT_FALSE(gh({"pr", "comment", "1", "-b", "x"}).body_from_file);
}

TEST(GuardRules, OtherProgramsAreNeverGuarded) {
  EXPECT_FALSE(check_guard("curl", {"curl", "-X", "POST", "x"}).guarded);
  EXPECT_FALSE(check_guard("sh", {"sh", "-c", "git push"}).guarded);
  EXPECT_TRUE(check_guard("git", {}).argv == Args{"git"});
}

TEST(GuardRules, WhatIsShellQuotedAndBounded) {
  EXPECT_EQ(gh({"pr", "comment", "1", "--body", "a b"}).what, "gh pr comment 1 --body 'a b'");
  auto longer = gh({"pr", "comment", "--body", std::string(1000, 'x')});
  EXPECT_LE(longer.what.size(), 404u);
  EXPECT_EQ(longer.what.substr(longer.what.size() - 3), "...");
}

TEST(GuardRules, GuardedEnvironmentTurnsOffWhatARepositoryCouldPlant) {
  auto env = guarded_environment({"PATH=/usr/bin", "HOME=/h"});
  EXPECT_EQ(env, (Args{"PATH=/usr/bin", "HOME=/h", "GIT_CONFIG_KEY_0=core.hooksPath",
                       "GIT_CONFIG_VALUE_0=/dev/null", "GIT_CONFIG_KEY_1=core.fsmonitor",
                       "GIT_CONFIG_VALUE_1=false", "GIT_CONFIG_KEY_2=protocol.ext.allow",
                       "GIT_CONFIG_VALUE_2=never", "GIT_CONFIG_KEY_3=core.sshCommand",
                       "GIT_CONFIG_VALUE_3=ssh", "GIT_CONFIG_COUNT=4"}));
  // The session's own entries are kept, and ours come after them.
  auto kept = guarded_environment({"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=user.name",
                                   "GIT_CONFIG_VALUE_0=me", "GIT_CONFIG_KEY_1=core.hooksPath",
                                   "GIT_CONFIG_VALUE_1=/evil"});
  EXPECT_EQ(std::count(kept.begin(), kept.end(), "GIT_CONFIG_KEY_0=user.name"), 1);
  EXPECT_EQ(std::count(kept.begin(), kept.end(), "GIT_CONFIG_VALUE_1=/dev/null"), 1);
  EXPECT_EQ(std::count(kept.begin(), kept.end(), "GIT_CONFIG_VALUE_1=/evil"), 0);
  EXPECT_EQ(kept.back(), "GIT_CONFIG_COUNT=5");
  EXPECT_EQ(guarded_environment({"GIT_CONFIG_COUNT=x"}).back(), "GIT_CONFIG_COUNT=4");
}

TEST(GuardRules, ProgramBasename) {
  EXPECT_EQ(program_basename("/usr/bin/git"), "git");
  EXPECT_EQ(program_basename("gh"), "gh");
  EXPECT_EQ(program_basename("/x/"), "");
}

}  // namespace
}  // namespace wharf::core
