// Quoting arguments for the session's shell (core/shell_quote.hpp): the line a shell reads
// back into exactly the arguments given. The last test hands the lines to a real sh.
#include "core/shell_quote.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace wharf::core {
namespace {

TEST(ShellQuote, PlainWordsStayAsTheyAre) {
  EXPECT_EQ(shell_quote("make"), "make");
  EXPECT_EQ(shell_quote("--jobs=4"), "'--jobs=4'");  // '=' is quoted: NAME=value is special
  EXPECT_EQ(shell_quote("src/a-b_c.cpp:12,user@host%+"), "src/a-b_c.cpp:12,user@host%+");
}

TEST(ShellQuote, EverythingElseGoesInSingleQuotes) {
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("a    b"), "'a    b'");
  EXPECT_EQ(shell_quote("exit 7"), "'exit 7'");
  EXPECT_EQ(shell_quote("$HOME;`id`|&<>*?~#!(){}[]\\\""), "'$HOME;`id`|&<>*?~#!(){}[]\\\"'");
}

TEST(ShellQuote, ASingleQuoteClosesEscapesAndReopens) {
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote("'"), "''\\'''");
}

TEST(ShellQuote, JoinsWordsWithOneSpace) {
  std::vector<std::string> argv{"sh", "-c", "exit 7"};
  EXPECT_EQ(shell_command_line(argv), "sh -c 'exit 7'");
  EXPECT_EQ(shell_command_line(std::vector<std::string>{}), "");
}

// A real shell splits each line back into exactly the words given.
TEST(ShellQuote, ARealShellReadsBackTheSameWords) {
  std::vector<std::string> words{"a    b", "",    "it's", "$HOME", "`id`", "x;y",   "*",
                                 "~",      "a=b", "\\n",  "!",     "#c",   "{a,b}", "\"q\""};
  std::string line = "printf '[%s]\\n' " + shell_command_line(words);
  std::string expected;
  for (const std::string& w : words) expected += "[" + w + "]\n";
  std::string command = "sh -c " + shell_quote(line);
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string got;
  std::array<char, 256> buffer{};
  while (std::size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) got.append(buffer.data(), n);
  EXPECT_EQ(pclose(pipe), 0);
  EXPECT_EQ(got, expected);
}

}  // namespace
}  // namespace wharf::core
