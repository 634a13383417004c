#include "core/environment.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace wharf::core {
namespace {

const Account kAccount{.user = "ada", .home = "/home/ada", .shell = "/bin/zsh"};

bool contains(const std::vector<std::string>& env, const std::string& entry) {
  return std::find(env.begin(), env.end(), entry) != env.end();
}

bool has_name(const std::vector<std::string>& env, const std::string& name) {
  return std::any_of(env.begin(), env.end(),
                     [&](const std::string& e) { return e.starts_with(name + "="); });
}

TEST(BaseEnvironment, SetsTheTerminalAndAccountVariables) {
  std::vector<std::string> daemon{"PATH=/opt/bin:/usr/bin"};
  auto env = base_environment(kAccount, daemon);
  EXPECT_TRUE(contains(env, "TERM=xterm-256color"));
  EXPECT_TRUE(contains(env, "COLORTERM=truecolor"));
  EXPECT_TRUE(contains(env, "HOME=/home/ada"));
  EXPECT_TRUE(contains(env, "USER=ada"));
  EXPECT_TRUE(contains(env, "LOGNAME=ada"));
  EXPECT_TRUE(contains(env, "SHELL=/bin/zsh"));
  EXPECT_TRUE(contains(env, "PATH=/opt/bin:/usr/bin"));
  EXPECT_TRUE(std::is_sorted(env.begin(), env.end()));
}

TEST(BaseEnvironment, NeverCarriesTheDaemonsOwnVariables) {
  std::vector<std::string> daemon{"WHARF_KEY=00017f80abcdefff1020304050607090",
                                  "AWS_SECRET_ACCESS_KEY=hunter2",
                                  "SSH_AUTH_SOCK=/tmp/agent",
                                  "LD_PRELOAD=/tmp/evil.so",
                                  "TERM=dumb",
                                  "HOME=/root",
                                  "=weird",
                                  "NOEQUALS"};
  auto env = base_environment(kAccount, daemon);
  for (const char* name : {"WHARF_KEY", "AWS_SECRET_ACCESS_KEY", "SSH_AUTH_SOCK", "LD_PRELOAD"})
    EXPECT_FALSE(has_name(env, name)) << name;
  EXPECT_TRUE(contains(env, "TERM=xterm-256color"));  // the daemon's TERM does not win
  EXPECT_TRUE(contains(env, "HOME=/home/ada"));       // nor its HOME
  for (const auto& entry : env) EXPECT_EQ(entry.find("hunter2"), std::string::npos) << entry;
}

TEST(BaseEnvironment, KeepsLocaleAndTmpdirAndDefaultsWhatIsMissing) {
  std::vector<std::string> daemon{"LC_ALL=de_DE.UTF-8", "LANG=de_DE.UTF-8", "TMPDIR=/var/tmp"};
  auto env = base_environment(kAccount, daemon);
  EXPECT_TRUE(contains(env, "LC_ALL=de_DE.UTF-8"));
  EXPECT_TRUE(contains(env, "LANG=de_DE.UTF-8"));
  EXPECT_TRUE(contains(env, "TMPDIR=/var/tmp"));
  EXPECT_TRUE(contains(env, "PATH=" + std::string(kDefaultPath)));

  auto bare = base_environment(kAccount, std::vector<std::string>{});
  EXPECT_TRUE(contains(bare, "LANG=C.UTF-8"));
  EXPECT_EQ(bare.size(), 8u);  // PATH LANG HOME USER LOGNAME SHELL TERM COLORTERM
}

}  // namespace
}  // namespace wharf::core
