// Which sessions get wharf's shell integration and how their launch changes: bash by
// --init-file (with the login profile read by the file when the shell would have been a
// login shell), zsh by ZDOTDIR (the user's own ZDOTDIR passed on); nothing else changes.
#include "core/shell_integration.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace wharf::core {
namespace {

CatalogEntry shell(std::string name) {
  return CatalogEntry{
      .kind = EntryKind::kShell, .name = name, .program = "/bin/" + name, .argv0 = "-" + name};
}

std::string value_of(const EnvList& env, std::string_view name) {
  auto it = std::find_if(env.begin(), env.end(), [&](const EnvVar& v) { return v.name == name; });
  return it == env.end() ? "<unset>" : it->value;
}

TEST(ShellIntegration, BashReadsWharfsInitFileAndTheLoginProfile) {
  LaunchPlan plan{.program = "/bin/bash", .argv = {"-bash"}};
  EnvList env;
  ASSERT_TRUE(plan_shell_integration(shell("bash"), "/state/shell", {}, plan, env));
  EXPECT_EQ(plan.program, "/bin/bash");
  EXPECT_EQ(plan.argv,
            (std::vector<std::string>{"bash", "--init-file", "/state/shell/bash-init.sh"}));
  EXPECT_EQ(value_of(env, "WHARF_SHELL_LOGIN"), "1");
}

TEST(ShellIntegration, ZshGetsWharfsZdotdirAndKeepsTheUsersOwn) {
  LaunchPlan plan{.program = "/bin/zsh", .argv = {"-zsh"}};
  EnvList env;
  ASSERT_TRUE(plan_shell_integration(shell("zsh"), "/state/shell",
                                     {"HOME=/home/a", "ZDOTDIR=/home/a/.config/zsh"}, plan, env));
  EXPECT_EQ(plan.argv, (std::vector<std::string>{"-zsh"})) << "still a login shell";
  EXPECT_EQ(value_of(env, "ZDOTDIR"), "/state/shell/zsh");
  EXPECT_EQ(value_of(env, "WHARF_USER_ZDOTDIR"), "/home/a/.config/zsh");
  EnvList plain;
  LaunchPlan again{.program = "/bin/zsh", .argv = {"-zsh"}};
  ASSERT_TRUE(plan_shell_integration(shell("zsh"), "/state/shell", {"HOME=/home/a"}, again, plain));
  EXPECT_EQ(value_of(plain, "WHARF_USER_ZDOTDIR"), "<unset>");
}

TEST(ShellIntegration, OtherEntriesAndOffAreLeftAlone) {
  for (const CatalogEntry& entry :
       {shell("sh"), shell("fish"), CatalogEntry{.kind = EntryKind::kAgent, .name = "bash"}}) {
    LaunchPlan plan{.program = "/bin/x", .argv = {"-x"}};
    EnvList env;
    EXPECT_FALSE(plan_shell_integration(entry, "/state/shell", {}, plan, env)) << entry.name;
    EXPECT_EQ(plan.argv, (std::vector<std::string>{"-x"}));
    EXPECT_TRUE(env.empty());
  }
  LaunchPlan plan{.program = "/bin/bash", .argv = {"-bash"}};
  EnvList env;
  EXPECT_FALSE(plan_shell_integration(shell("bash"), "", {}, plan, env)) << "integration off";
  // A shell the operator configured with its own arguments is theirs.
  LaunchPlan custom{.program = "/bin/bash", .argv = {"bash", "--norc"}};
  EXPECT_FALSE(plan_shell_integration(shell("bash"), "/state/shell", {}, custom, env));
}

TEST(ShellIntegration, TheFilesMarkPromptsCommandsAndStatus) {
  const auto& files = shell_integration_files();
  auto text = [&](std::string_view path) {
    for (const IntegrationFile& f : files)
      if (f.path == path) return std::string(f.text);
    ADD_FAILURE() << "no " << path;
    return std::string();
  };
  std::string bash = text("bash-init.sh");
  for (std::string_view mark : {"133;A", "133;B", "133;C", "133;D;%s"})
    EXPECT_NE(bash.find(mark), std::string::npos) << mark;
  EXPECT_NE(bash.find(". ~/.bashrc"), std::string::npos);
  std::string zshrc = text("zsh/.zshrc");
  for (std::string_view mark : {"133;A", "133;B", "133;C", "133;D;%s"})
    EXPECT_NE(zshrc.find(mark), std::string::npos) << mark;
  for (std::string_view file : {"zsh/.zshenv", "zsh/.zprofile", "zsh/.zshrc", "zsh/.zlogin"})
    EXPECT_FALSE(text(file).empty());
}

}  // namespace
}  // namespace wharf::core
