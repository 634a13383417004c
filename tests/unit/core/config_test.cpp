// The operator's config (core/config.hpp): every key and type checked, errors with the
// file and line, and no entry that raises privileges.
#include "core/config.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

std::string refusal(std::string_view text) {
  auto parsed = parse_config(text, "config.toml");
  EXPECT_FALSE(parsed) << "expected a refusal of:\n" << text;
  return parsed ? std::string() : parsed.error().message;
}

TEST(Config, EmptyFileMeansEveryDefault) {
  auto parsed = parse_config("", "config.toml");
  ASSERT_TRUE(parsed);
  EXPECT_FALSE(parsed.value().port);
  EXPECT_TRUE(parsed.value().agents.empty());
}

TEST(Config, ReadsEverySection) {
  auto parsed = parse_config(R"(
[server]
port = 8080
listen = "127.0.0.1"
workspace = "~/src"
max_sessions = 12
idle_expiry = 3600
window_timeout = 900
log_level = "debug"

[sessions]
default = "codex"
directory = "apps/api"
context_file = "/etc/wharf/note.md"
shared_shell = true
shell_integration = false

[uploads]
max_bytes = 1048576
any_type = true

[env]
ACCOUNT = "acme"
REGION = "eu"

[agents.claude]
args = ["--model", "opus"]

[agents.aider]
argv = ["aider", "--no-auto-commits"]
prompt = "--message"
resume = ["--restore-chat-history"]

[actions.dev]
shell = "npm run dev 2>&1 | tee dev.log"
interactive = true
keep_screen = false

[actions.tests]
argv = ["make", "test"]
)",
                             "config.toml");
  ASSERT_TRUE(parsed) << parsed.error().message;
  const Config& c = parsed.value();
  EXPECT_EQ(c.port, 8080);
  EXPECT_EQ(c.max_sessions, 12u);
  EXPECT_EQ(c.idle_expiry_seconds, 3600u);
  EXPECT_EQ(c.window_timeout_seconds, 900u);
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_EQ(c.default_entry, "codex");
  EXPECT_EQ(c.default_directory, "apps/api");
  EXPECT_EQ(c.shared_shell, true);
  EXPECT_EQ(c.shell_integration, false);
  ASSERT_EQ(c.actions.size(), 2u);
  EXPECT_FALSE(c.actions[0].keep_screen) << "keep_screen = false is read";
  EXPECT_TRUE(c.actions[1].keep_screen) << "screens are kept by default";
  EXPECT_EQ(c.upload_max_bytes, 1048576u);
  EXPECT_EQ(c.upload_any_type, true);
  EXPECT_EQ(c.env, (EnvList{{"ACCOUNT", "acme"}, {"REGION", "eu"}}));
  // Tables come back sorted by name.
  ASSERT_EQ(c.agents.size(), 2u);
  EXPECT_EQ(c.agents[0].name, "aider");
  EXPECT_EQ(c.agents[0].argv, (std::vector<std::string>{"aider", "--no-auto-commits"}));
  EXPECT_EQ(c.agents[0].prompt, PromptStyle::kFlag);
  EXPECT_EQ(c.agents[0].prompt_flag, "--message");
  EXPECT_EQ(c.agents[0].resume_args, (std::vector<std::string>{"--restore-chat-history"}));
  EXPECT_EQ(c.agents[1].name, "claude");
  EXPECT_EQ(c.agents[1].extra_args, (std::vector<std::string>{"--model", "opus"}));
  ASSERT_EQ(c.actions.size(), 2u);
  EXPECT_EQ(c.actions[0].name, "dev");
  EXPECT_EQ(c.actions[0].shell_command, "npm run dev 2>&1 | tee dev.log");
  EXPECT_TRUE(c.actions[0].interactive);
  EXPECT_FALSE(c.actions[1].interactive);
}

TEST(Config, UnknownKeyGivesFileLineAndKnownKeys) {
  std::string message = refusal("[server]\nport = 1\nprot = 2\n");
  EXPECT_EQ(message.rfind("config.toml:3: unknown key 'prot' in [server]", 0), 0u) << message;
  EXPECT_NE(message.find("port"), std::string::npos);
}

TEST(Config, UnknownSectionIsRefused) {
  EXPECT_EQ(refusal("\n[servre]\nport = 1\n").rfind("config.toml:2: unknown key 'servre'", 0), 0u);
}

TEST(Config, WrongTypeIsRefusedWithLine) {
  std::string message = refusal("[server]\n\nport = \"8080\"\n");
  EXPECT_EQ(message.rfind("config.toml:3: 'port' must be an integer, not a string", 0), 0u)
      << message;
}

TEST(Config, OutOfRangeIsRefused) {
  EXPECT_NE(refusal("[server]\nport = 70000\n").find("between 0 and 65535"), std::string::npos);
  EXPECT_NE(refusal("[server]\nmax_sessions = 0\n").find("between 1"), std::string::npos);
  EXPECT_NE(refusal("[server]\nwindow_timeout = 5\n").find("between 10"), std::string::npos);
}

TEST(Config, SyntaxErrorsCarryTheirLine) {
  EXPECT_EQ(refusal("[server]\nport = = 1\n").rfind("config.toml:2: ", 0), 0u);
}

TEST(Config, EnvTableFollowsTheEnvRules) {
  EXPECT_NE(refusal("[env]\nWHARF_SESSION_ID = \"1\"\n").find("config.toml:2: [env]"),
            std::string::npos);
  EXPECT_NE(refusal("[env]\nA = 1\n").find("must be a string"), std::string::npos);
}

TEST(Config, RefusesSudoInArgv) {
  std::string message = refusal("[actions.deploy]\nargv = [\"sudo\", \"make\", \"deploy\"]\n");
  EXPECT_NE(message.find("sudo or doas"), std::string::npos) << message;
  EXPECT_EQ(message.rfind("config.toml:", 0), 0u);
}

TEST(Config, RefusesDoasByPathAndInLaterArguments) {
  EXPECT_FALSE(parse_config("[agents.x]\nargv = [\"/usr/bin/doas\", \"x\"]\n", "c"));
  EXPECT_FALSE(parse_config("[agents.x]\nargv = [\"env\", \"sudo\", \"x\"]\n", "c"));
  EXPECT_FALSE(parse_config("[agents.claude]\nargs = [\"sudo\"]\n", "c"));
}

TEST(Config, RefusesSudoHiddenInAShellString) {
  for (std::string_view s : {"make && sudo make install", "x;sudo y", "$(doas id)",
                             "/usr/bin/sudo -n true", "FOO=1 sudo x"}) {
    EXPECT_TRUE(raises_privileges(s)) << s;
  }
  EXPECT_FALSE(raises_privileges(std::string_view("echo pseudo sudoku")));
  EXPECT_FALSE(
      parse_config("[actions.x]\nshell = \"cd a && sudo make\"\ninteractive = true\n", "c"));
}

TEST(Config, EntryNeedsArgvOrShellNotBoth) {
  EXPECT_NE(refusal("[actions.x]\nargv = [\"a\"]\nshell = \"a\"\n").find("not both"),
            std::string::npos);
  EXPECT_NE(refusal("[actions.x]\nargv = []\n").find("at least the program"), std::string::npos);
}

TEST(Config, EntryNamesAreChecked) {
  EXPECT_NE(refusal("[agents.\"bad name\"]\nargv = [\"x\"]\n").find("a name is"),
            std::string::npos);
}

TEST(Config, PromptStyleIsChecked) {
  EXPECT_FALSE(parse_config("[agents.x]\nargv = [\"x\"]\nprompt = \"sometimes\"\n", "c"));
  EXPECT_FALSE(parse_config("[actions.x]\nargv = [\"x\"]\nprompt = \"argument\"\n", "c"))
      << "actions take no prompt";
}

TEST(Config, AllowEnvNamesVariables) {
  auto parsed = parse_config("[sessions]\nallow_env = [\"PATH\", \"NODE_OPTIONS\"]\n", "c.toml");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed.value().allow_env, (std::vector<std::string>{"PATH", "NODE_OPTIONS"}));
  EXPECT_FALSE(parse_config("[sessions]\nallow_env = [\"NOT A NAME\"]\n", "c.toml"));
  EXPECT_FALSE(parse_config("[sessions]\nallow_env = \"PATH\"\n", "c.toml"));
}

}  // namespace
}  // namespace wharf::core
