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
driver_grace_ms = 2500

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
  EXPECT_EQ(c.driver_grace_ms, 2500u);
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
  EXPECT_NE(refusal("[sessions]\ndriver_grace_ms = 600001\n").find("between 0"), std::string::npos);
}

TEST(Config, PaneMaxBytesIsAtMostHalfAMebibyte) {
  auto parsed = parse_config("[pane]\nmax_bytes = 1000\n", "config.toml");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed.value().pane_max_bytes, 1000u);
  EXPECT_FALSE(parse_config("", "config.toml").value().pane_max_bytes);
  EXPECT_TRUE(parse_config("[pane]\nmax_bytes = 524288\n", "config.toml"));
  EXPECT_NE(refusal("[pane]\nmax_bytes = 524289\n").find("524288"), std::string::npos);
  EXPECT_NE(refusal("[pane]\nmax_bytes = 0\n").find("between 1"), std::string::npos);
}

TEST(Config, EndedAutoCloseIsSecondsWithinAWeek) {
  auto parsed = parse_config("[page]\nended_auto_close = 30\n", "config.toml");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed.value().page.ended_auto_close, 30u);
  EXPECT_FALSE(parse_config("", "config.toml").value().page.ended_auto_close);
  EXPECT_NE(refusal("[page]\nended_auto_close = -1\n").find("between 0"), std::string::npos);
  EXPECT_NE(refusal("[page]\nended_auto_close = 604801\n").find("604800"), std::string::npos);
  EXPECT_NE(refusal("[page]\nended_auto_close = \"1m\"\n").find("must be an integer"),
            std::string::npos);
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

TEST(Config, PageDefaultsAreReadAndChecked) {
  auto parsed = parse_config(R"(
[page]
font_size = 18
font_family = "Fira Code, monospace"
theme = "system"
cursor_style = "bar"
cursor_blink = true
chime = false
notifications = true
renderer = "dom"
search_key = false
shift_enter_newline = false
focus = true
)",
                             "config.toml");
  ASSERT_TRUE(parsed) << parsed.error().message;
  const PageDefaults& page = parsed.value().page;
  EXPECT_EQ(page.font_size, 18);
  EXPECT_EQ(page.font_family, "Fira Code, monospace");
  EXPECT_EQ(page.theme, "system");
  EXPECT_EQ(page.cursor_style, "bar");
  EXPECT_EQ(page.cursor_blink, true);
  EXPECT_EQ(page.chime, false);
  EXPECT_EQ(page.notifications, true);
  EXPECT_EQ(page.renderer, "dom");
  EXPECT_EQ(page.search_key, false);
  EXPECT_EQ(page.shift_enter_newline, false);
  EXPECT_EQ(page.focus, true);
  EXPECT_FALSE(parse_config("", "config.toml").value().page.theme);
  EXPECT_FALSE(parse_config("", "config.toml").value().page.focus);
  EXPECT_NE(refusal("[page]\nfocus = 1\n").find("true or false"), std::string::npos);

  EXPECT_NE(refusal("[page]\nfont_size = 7\n").find("between 8 and 32"), std::string::npos);
  EXPECT_NE(refusal("[page]\nfont_size = 33\n").find("font_size"), std::string::npos);
  EXPECT_NE(refusal("[page]\ntheme = \"blue\"\n").find("dark, light, system"), std::string::npos);
  EXPECT_NE(refusal("[page]\nrenderer = \"canvas\"\n").find("webgl, dom"), std::string::npos);
  EXPECT_NE(refusal("[page]\ncursor_style = \"beam\"\n").find("block, bar, underline"),
            std::string::npos);
  EXPECT_NE(refusal("[page]\nfont_family = \"\"\n").find("font_family"), std::string::npos);
  EXPECT_NE(refusal("[page]\nchime = \"yes\"\n").find("true or false"), std::string::npos);
  EXPECT_NE(refusal("[page]\nfontsize = 12\n").find("unknown key 'fontsize' in [page]"),
            std::string::npos);
}

TEST(Config, PublicUrlAndAllowedHostsAreChecked) {
  auto parsed = parse_config(R"([server]
public_url = "https://Box.example.ts.net:8443/"
allowed_hosts = ["Box.example.ts.net", "wharf.lan"]
)",
                             "config.toml");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed.value().public_url, "https://Box.example.ts.net:8443");
  EXPECT_EQ(parsed.value().allowed_hosts,
            (std::vector<std::string>{"box.example.ts.net", "wharf.lan"}));

  for (const char* bad : {"ftp://box", "https://box/path", "https://user@box", "https://box:0",
                          "https://box:99999", "box.example", "https://", "https://bo x"}) {
    std::string text = std::string("[server]\npublic_url = \"") + bad + "\"\n";
    EXPECT_NE(refusal(text).find("'public_url'"), std::string::npos) << bad;
  }
  EXPECT_NE(refusal("[server]\nallowed_hosts = [\"evil.com/x\"]\n").find("'allowed_hosts'"),
            std::string::npos);
  EXPECT_NE(refusal("[server]\nallowed_hosts = [\"a..b\"]\n").find("'allowed_hosts'"),
            std::string::npos);
}

TEST(Config, TlsKeysAreRead) {
  auto parsed = parse_config(R"([server]
tls = "self-signed"
tls_cert = "~/c.pem"
tls_key = "/k.pem"
)",
                             "config.toml");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed.value().tls, "self-signed");
  EXPECT_EQ(parsed.value().tls_cert, "~/c.pem");
  EXPECT_EQ(parsed.value().tls_key, "/k.pem");
  EXPECT_EQ(parse_config("[server]\ntls = \"off\"\n", "c.toml").value().tls, "off");
  EXPECT_NE(refusal("[server]\ntls = \"yes\"\n").find("'tls' is \"self-signed\" or \"off\""),
            std::string::npos);
  EXPECT_NE(refusal("[server]\ntls = true\n").find("config.toml:2"), std::string::npos);
}

TEST(Config, AllowEnvNamesVariables) {
  auto parsed = parse_config("[sessions]\nallow_env = [\"PATH\", \"NODE_OPTIONS\"]\n", "c.toml");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed.value().allow_env, (std::vector<std::string>{"PATH", "NODE_OPTIONS"}));
  EXPECT_FALSE(parse_config("[sessions]\nallow_env = [\"NOT A NAME\"]\n", "c.toml"));
  EXPECT_FALSE(parse_config("[sessions]\nallow_env = \"PATH\"\n", "c.toml"));
}

TEST(Config, NotificationsAreReadAndChecked) {
  auto parsed = parse_config(R"([notifications]
debounce = 0
quiet_hours = "23:00-06:00"
include_screen = true
ntfy_url = "https://ntfy.example/wharf-topic"
ntfy_token = "tk_abc123"
command = ["notify-json", "--x"]
command_timeout = 5
)",
                             "config.toml");
  ASSERT_TRUE(parsed) << parsed.error().message;
  const NotificationsConfig& n = parsed.value().notifications;
  EXPECT_EQ(n.debounce_seconds, 0u);
  ASSERT_TRUE(n.quiet_hours);
  EXPECT_EQ(n.quiet_hours->start, 23 * 60);
  EXPECT_TRUE(n.include_screen);
  EXPECT_EQ(n.ntfy_url, "https://ntfy.example/wharf-topic");
  EXPECT_EQ(n.ntfy_token, "tk_abc123");
  EXPECT_EQ(n.command, (std::vector<std::string>{"notify-json", "--x"}));
  EXPECT_EQ(n.command_timeout_seconds, 5u);

  auto empty = parse_config("", "config.toml");
  ASSERT_TRUE(empty);
  EXPECT_FALSE(empty.value().notifications.ntfy_url);
  EXPECT_FALSE(empty.value().notifications.include_screen);
  EXPECT_TRUE(empty.value().notifications.command.empty());
}

TEST(Config, NotificationsRefusalsSayWhatIsWanted) {
  auto refused = [](std::string body) { return refusal("[notifications]\n" + body + "\n"); };
  EXPECT_NE(refused("debounce = 86401").find("between 0 and 86400"), std::string::npos);
  EXPECT_NE(refused("debounce = -1").find("between 0 and 86400"), std::string::npos);
  EXPECT_NE(refused("quiet_hours = \"22-7\"").find("HH:MM-HH:MM"), std::string::npos);
  EXPECT_NE(refused("quiet_hours = \"07:00-07:00\"").find("same minute"), std::string::npos);
  for (const char* bad : {"ftp://ntfy.sh/t", "ntfy.sh/t", "https:///t", "https://ntfy.sh",
                          "https://ntfy.sh/", "https://ntfy.sh/a b", "https://ntfy.sh/a\\r\\nX: y"})
    EXPECT_NE(refused(std::string("ntfy_url = \"") + bad + "\"").find("'ntfy_url'"),
              std::string::npos)
        << bad;
  EXPECT_NE(refused("ntfy_token = \"a b\"").find("'ntfy_token'"), std::string::npos);
  EXPECT_NE(refused("ntfy_token = \"\"").find("'ntfy_token'"), std::string::npos);
  EXPECT_NE(refused("ntfy_token = \"x\\ny\"").find("'ntfy_token'"), std::string::npos);
  EXPECT_NE(refused("command = []").find("'command'"), std::string::npos);
  EXPECT_NE(refused("command = [\"\"]").find("'command'"), std::string::npos);
  EXPECT_NE(refused("command = \"notify-send hi\"").find("list of strings"), std::string::npos);
  EXPECT_NE(refused("command_timeout = 0").find("between 1 and 600"), std::string::npos);
  EXPECT_NE(refused("ntfy = 1").find("unknown key 'ntfy' in [notifications]"), std::string::npos);
  EXPECT_NE(refusal("notifications = 1\n").find("[notifications] must be a table"),
            std::string::npos);
}

TEST(Config, VapidSubjectIsAMailtoOrHttpsAddress) {
  auto parsed =
      parse_config("[notifications]\nvapid_subject = \"mailto:ops@example.com\"\n", "c.toml");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed.value().notifications.vapid_subject, "mailto:ops@example.com");
  EXPECT_TRUE(
      parse_config("[notifications]\nvapid_subject = \"https://wharf.example.com\"\n", "c"));
  EXPECT_FALSE(parse_config("", "c").value().notifications.vapid_subject);
  for (const char* bad :
       {"ops@example.com", "http://example.com", "mailto:", "mailto:a b@c", "mailto:a@b\\r\\nX: y"})
    EXPECT_NE(refusal(std::string("[notifications]\nvapid_subject = \"") + bad + "\"\n")
                  .find("'vapid_subject'"),
              std::string::npos)
        << bad;
}

}  // namespace
}  // namespace wharf::core

namespace wharf::core {
namespace {

TEST(Config, SandboxDecisionExpiryIsReadAndBounded) {
  auto parsed = parse_config("[sandbox]\ndecision_expiry_seconds = 90\n", "config.toml");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed.value().sandbox.decision_expiry_seconds, 90u);
  auto empty = parse_config("", "config.toml");
  ASSERT_TRUE(empty);
  EXPECT_FALSE(empty.value().sandbox.decision_expiry_seconds);
  for (const char* bad : {"decision_expiry_seconds = 9", "decision_expiry_seconds = 86401",
                          "decision_expiry_seconds = \"600\"", "expiry = 60"}) {
    auto refused = parse_config(std::string("[sandbox]\n") + bad + "\n", "config.toml");
    EXPECT_FALSE(refused) << bad;
  }
  auto low = parse_config("[sandbox]\ndecision_expiry_seconds = 9\n", "config.toml");
  ASSERT_FALSE(low);
  EXPECT_NE(low.error().message.find("between 10 and 86400"), std::string::npos)
      << low.error().message;
}

}  // namespace
}  // namespace wharf::core
