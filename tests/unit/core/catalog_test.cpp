// The catalog (core/catalog.hpp): what can be started on a given machine, the refusals
// with their reasons, and the exact argv of each launch.
#include "core/catalog.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace wharf::core {
namespace {

// A machine with bash, zsh and sh, claude and codex on PATH, and nothing else.
ProgramFinder programs(std::set<std::string> installed) {
  return [installed](std::string_view name) -> std::optional<std::string> {
    std::string n(name);
    if (installed.contains(n)) return "/opt/bin/" + n;
    return std::nullopt;
  };
}
const ProgramFinder kShells = programs({"bash", "zsh", "sh"});
const ProgramFinder kPrograms = programs({"claude", "codex", "make", "sh", "aider"});

Catalog build(std::string_view toml = "") {
  auto config = parse_config(toml, "config.toml");
  EXPECT_TRUE(config) << config.error().message;
  auto catalog = Catalog::build(config.value(), kPrograms, kShells);
  EXPECT_TRUE(catalog) << catalog.error().message;
  return std::move(catalog.value());
}

TEST(Catalog, ShellsFoundStartAsLoginShells) {
  Catalog catalog = build();
  auto bash = catalog.choose("shell", "bash");
  ASSERT_TRUE(bash);
  EXPECT_EQ(bash.value()->program, "/opt/bin/bash");
  EXPECT_EQ(bash.value()->argv0, "-bash");
  auto fish = catalog.choose("shell", "fish");
  ASSERT_FALSE(fish);
  EXPECT_EQ(fish.error().code, "not_installed");
}

TEST(Catalog, AgentsAreOfferedOnlyWhenOnPath) {
  Catalog catalog = build();
  EXPECT_TRUE(catalog.choose("agent", "claude"));
  EXPECT_TRUE(catalog.choose("agent", "codex"));
  for (std::string_view missing : {"opencode", "gemini", "cline"}) {
    auto chosen = catalog.choose("agent", missing);
    ASSERT_FALSE(chosen) << missing;
    EXPECT_EQ(chosen.error().code, "not_installed");
    EXPECT_NE(chosen.error().message.find("not on PATH"), std::string::npos);
  }
}

TEST(Catalog, UnknownEntryListsWhatCanStart) {
  Catalog catalog = build();
  auto chosen = catalog.choose("agent", "skynet");
  ASSERT_FALSE(chosen);
  EXPECT_EQ(chosen.error().code, "unknown_entry");
  EXPECT_NE(chosen.error().message.find("claude, codex"), std::string::npos)
      << chosen.error().message;
}

TEST(Catalog, UnknownKindIsRefused) {
  EXPECT_FALSE(build().choose("program", "bash"));
}

TEST(Catalog, NameAloneSearchesAgentsThenShellsThenActions) {
  Catalog catalog = build("[actions.bash]\nargv = [\"make\"]\ninteractive = true\n");
  EXPECT_EQ(catalog.choose("", "claude").value()->kind, EntryKind::kAgent);
  EXPECT_EQ(catalog.choose("", "bash").value()->kind, EntryKind::kShell);
  EXPECT_EQ(catalog.choose("", "action:bash").value()->kind, EntryKind::kAction);
}

TEST(Catalog, NonInteractiveActionCannotBeASession) {
  Catalog catalog = build("[actions.tests]\nargv = [\"make\", \"test\"]\n");
  auto chosen = catalog.choose("action", "tests");
  ASSERT_FALSE(chosen);
  EXPECT_NE(chosen.error().message.find("not marked interactive"), std::string::npos);
}

TEST(Catalog, DisabledAgentIsRefusedWithTheReason) {
  Catalog catalog = build("[agents.codex]\nenabled = false\n");
  auto chosen = catalog.choose("agent", "codex");
  ASSERT_FALSE(chosen);
  EXPECT_NE(chosen.error().message.find("turned off"), std::string::npos);
}

TEST(Catalog, OperatorAgentNeedsACommand) {
  auto config = parse_config("[agents.mine]\nargs = [\"x\"]\n", "config.toml");
  ASSERT_TRUE(config);
  auto catalog = Catalog::build(config.value(), kPrograms, kShells);
  ASSERT_FALSE(catalog);
  EXPECT_EQ(catalog.error().message.rfind("config.toml:1: ", 0), 0u) << catalog.error().message;
}

TEST(Catalog, ShellStringActionRunsThroughSh) {
  Catalog catalog = build("[actions.dev]\nshell = \"make dev | tee log\"\ninteractive = true\n");
  auto plan = plan_launch(*catalog.choose("action", "dev").value(), {});
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan.value().program, "/opt/bin/sh");
  EXPECT_EQ(plan.value().argv, (std::vector<std::string>{"sh", "-c", "make dev | tee log"}));
}

TEST(Launch, ClaudeResumesWithNoteAndPrompt) {
  Catalog catalog = build();
  auto plan =
      plan_launch(*catalog.choose("agent", "claude").value(),
                  {.prompt = "fix the redirect", .resume = true, .context_file = "/s/n.md"});
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan.value().argv,
            (std::vector<std::string>{"claude", "--append-system-prompt-file", "/s/n.md",
                                      "--continue", "fix the redirect"}));
  EXPECT_TRUE(plan.value().resumed);
  EXPECT_TRUE(plan.value().context);
}

TEST(Launch, FreshStartHasNoResumeArguments) {
  Catalog catalog = build();
  auto plan = plan_launch(*catalog.choose("agent", "codex").value(), {.resume = false});
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan.value().argv, (std::vector<std::string>{"codex", "--no-daemon"}));
  auto resumed = plan_launch(*catalog.choose("agent", "codex").value(), {.resume = true});
  EXPECT_EQ(resumed.value().argv,
            (std::vector<std::string>{"codex", "--no-daemon", "resume", "--last"}));
}

TEST(Launch, OpencodeWithAPromptStartsFreshBecauseResumingWouldDropIt) {
  auto catalog = Catalog::build(parse_config("", "c").value(), programs({"opencode"}), kShells);
  ASSERT_TRUE(catalog);
  auto entry = catalog.value().choose("agent", "opencode");
  ASSERT_TRUE(entry);
  auto with_prompt = plan_launch(*entry.value(), {.prompt = "hi", .resume = true});
  EXPECT_FALSE(with_prompt.value().resumed);
  EXPECT_EQ(with_prompt.value().argv, (std::vector<std::string>{"opencode", "--prompt", "hi"}));
  auto without = plan_launch(*entry.value(), {.resume = true});
  EXPECT_EQ(without.value().argv, (std::vector<std::string>{"opencode", "--continue"}));
}

TEST(Launch, CodexTakesTheNoteAsASettingBeforeResume) {
  Catalog catalog = build();
  auto plan = plan_launch(
      *catalog.choose("agent", "codex").value(),
      {.resume = true, .context_file = "/n.md", .context_text = "Say \"hi\"\n\tthen C:\\ \x01"});
  ASSERT_TRUE(plan);
  EXPECT_TRUE(plan.value().context);
  EXPECT_EQ(plan.value().argv,
            (std::vector<std::string>{
                "codex", "--no-daemon", "-c",
                "developer_instructions=\"Say \\\"hi\\\"\\n\\tthen C:\\\\ \\u0001\"", "resume",
                "--last"}));
}

TEST(Launch, OnlyAgentsThatTakeANoteGetOne) {
  Catalog catalog = build();
  auto plan = plan_launch(*catalog.choose("agent", "codex").value(), {.context_file = "/n.md"});
  EXPECT_FALSE(plan.value().context);
  EXPECT_EQ(plan.value().argv, (std::vector<std::string>{"codex", "--no-daemon"}));
}

TEST(Launch, ClaudeAloneTakesWharfsSettingsBeforeResume) {
  Catalog catalog = build();
  auto claude = plan_launch(*catalog.choose("agent", "claude").value(),
                            {.prompt = "hi", .resume = true, .settings_file = "/s/claude.json"});
  ASSERT_TRUE(claude);
  EXPECT_EQ(claude.value().argv, (std::vector<std::string>{"claude", "--settings", "/s/claude.json",
                                                           "--continue", "hi"}));
  auto codex =
      plan_launch(*catalog.choose("agent", "codex").value(), {.settings_file = "/s/claude.json"});
  EXPECT_EQ(codex.value().argv, (std::vector<std::string>{"codex", "--no-daemon"}));
}

TEST(Launch, APromptIsNeverReadAsAnOption) {
  Catalog catalog = build();
  auto plan = plan_launch(*catalog.choose("agent", "claude").value(),
                          {.prompt = "--dangerously-skip-permissions"});
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan.value().argv.back(), " --dangerously-skip-permissions");
}

TEST(Launch, OperatorArgsAndPromptFlag) {
  Catalog catalog = build(
      "[agents.aider]\nargv = [\"aider\", \"--no-auto-commits\"]\nprompt = \"--message\"\n"
      "[agents.claude]\nargs = [\"--model\", \"opus\"]\n");
  auto aider = plan_launch(*catalog.choose("agent", "aider").value(), {.prompt = "hi"});
  EXPECT_EQ(aider.value().argv,
            (std::vector<std::string>{"aider", "--no-auto-commits", "--message", "hi"}));
  auto claude = plan_launch(*catalog.choose("agent", "claude").value(), {});
  EXPECT_EQ(claude.value().argv, (std::vector<std::string>{"claude", "--model", "opus"}));
}

TEST(Launch, ShellsTakeNoPrompt) {
  Catalog catalog = build();
  auto plan = plan_launch(*catalog.choose("shell", "bash").value(), {.prompt = "ls"});
  ASSERT_FALSE(plan);
  EXPECT_NE(plan.error().message.find("takes no prompt"), std::string::npos);
}

TEST(Launch, PromptWithNulIsRefused) {
  Catalog catalog = build();
  std::string prompt("a");
  prompt.push_back('\0');
  EXPECT_FALSE(plan_launch(*catalog.choose("agent", "claude").value(), {.prompt = prompt}));
}

TEST(Catalog, AgentsGetWharfsNotifyHooksOnlyWhenGivenWharf) {
  Catalog catalog = build();
  auto codex = plan_launch(*catalog.choose("agent", "codex").value(),
                           {.wharf_binary = "/usr/bin/wh\"arf", .opencode_plugin = "/s/p.js"});
  ASSERT_TRUE(codex);
  const auto& argv = codex.value().argv;
  auto at = std::find(argv.begin(), argv.end(),
                      "notify=[\"/usr/bin/wh\\\"arf\", \"notify\", "
                      "\"finished\", \"--from-codex\"]");
  ASSERT_NE(at, argv.end());
  EXPECT_EQ(*(at - 1), "-c");
  EXPECT_TRUE(codex.value().env.empty());  // the plugin is opencode's

  auto plain = plan_launch(*catalog.choose("agent", "codex").value(), {});
  ASSERT_TRUE(plain);
  for (const auto& arg : plain.value().argv) EXPECT_EQ(arg.find("notify="), std::string::npos);

  auto config = parse_config("", "config.toml");
  auto with_opencode = Catalog::build(config.value(), programs({"opencode"}), kShells);
  ASSERT_TRUE(with_opencode);
  auto opencode = plan_launch(*with_opencode.value().choose("agent", "opencode").value(),
                              {.wharf_binary = "/w", .opencode_plugin = "/state dir/p.js"});
  ASSERT_TRUE(opencode);
  ASSERT_EQ(opencode.value().env.size(), 1u);
  EXPECT_EQ(opencode.value().env[0].name, "OPENCODE_CONFIG_CONTENT");
  EXPECT_EQ(opencode.value().env[0].value, "{\"plugin\":[\"file:///state%20dir/p.js\"]}");
  for (const auto& arg : opencode.value().argv) EXPECT_EQ(arg.find("notify"), std::string::npos);
}

}  // namespace
}  // namespace wharf::core
