// Agents' permission dialogs read off their screens (core/agent_prompts.hpp): the shapes
// Claude Code and Codex draw, what is reported, and the screens that must not count.
#include "core/agent_prompts.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

using Lines = std::vector<std::string>;

// Claude Code 2.x asking before a shell command, as its frame draws it.
const Lines kClaudeBash = {
    "⏺ I'll push the branch now.",
    "",
    "╭──────────────────────────────────────────────────────────────────╮",
    "│ Bash command                                                     │",
    "│                                                                  │",
    "│   git push origin main                                           │",
    "│   Push the fix to the remote                                     │",
    "│                                                                  │",
    "│ Do you want to proceed?                                          │",
    "│ ❯ 1. Yes                                                         │",
    "│   2. Yes, and don't ask again for git push commands in /w        │",
    "│   3. No, and tell Claude what to do differently (esc)            │",
    "╰──────────────────────────────────────────────────────────────────╯",
};

TEST(AgentPrompts, ClaudesDialogSaysWhatItAsksAndTakesADigit) {
  auto found = find_agent_prompt("claude", kClaudeBash);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->what, "Bash command: git push origin main: Push the fix to the remote");
  EXPECT_EQ(found->approve_keys, "1");
  EXPECT_EQ(found->deny_keys, "\x1b");
  // The same dialog, redrawn, is the same; another command is another dialog.
  EXPECT_EQ(find_agent_prompt("claude", kClaudeBash)->key, found->key);
  Lines other = kClaudeBash;
  other[5] = "│   rm -rf build                                                   │";
  EXPECT_NE(find_agent_prompt("claude", other)->key, found->key);
}

TEST(AgentPrompts, CodexsDialogTakesY) {
  const Lines codex = {
      "• Running the tests",
      "",
      "  Would you like to run the following command?",
      "",
      "  $ cargo test --workspace",
      "",
      "› 1. Yes, proceed (y)",
      "  2. Yes, and don't ask again for this command (a)",
      "  3. No, and tell Codex what to do differently (esc)",
  };
  // Codex draws the command below its question.
  auto found = find_agent_prompt("codex", codex);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->what, "cargo test --workspace");
  EXPECT_EQ(found->approve_keys, "y");
}

TEST(AgentPrompts, OnlyTheAgentsOwnDialogCounts) {
  // A shell printing the words is not an agent asking.
  EXPECT_FALSE(find_agent_prompt("bash", kClaudeBash));
  EXPECT_FALSE(find_agent_prompt("codex", kClaudeBash));
  // The question without the agent's refusal option below it: a transcript, not a dialog.
  Lines mention = {"The docs say: Do you want to proceed?", "Then press 1."};
  EXPECT_FALSE(find_agent_prompt("claude", mention));
  Lines no_option = {"Do you want to proceed?", "1. Yes", "2. No"};
  EXPECT_FALSE(find_agent_prompt("claude", no_option));
  EXPECT_FALSE(find_agent_prompt("claude", {}));
}

TEST(AgentPrompts, AVeryLongCommandIsCut) {
  Lines long_one = kClaudeBash;
  long_one[5] = "│   echo " + std::string(1000, 'x');
  auto found = find_agent_prompt("claude", long_one);
  ASSERT_TRUE(found);
  EXPECT_LE(found->what.size(), 400u);
}

}  // namespace
}  // namespace wharf::core
