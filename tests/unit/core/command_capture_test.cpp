// Cutting one command's output out of a shell's output by its OSC 133 marks: the echo
// of the command line and the next prompt are left out, marks from before the command
// are ignored, marks split across reads are found, and the exit status is read.
#include "core/command_capture.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

constexpr std::string_view kTyped = "echo hi\r\n";  // the shell echoing the typed line
const std::string kC = "\x1b]133;C\x07";
std::string end_mark(int status) {
  return "\x1b]133;D;" + std::to_string(status) + "\x07";
}
const std::string kPrompt = "\x1b]133;A\x07$ \x1b]133;B\x07";

TEST(CommandCapture, KeepsOnlyTheCommandsOutputAndItsStatus) {
  CommandCapture capture(4096);
  capture.feed(std::string(kTyped) + kC + "hi\r\n\x1b[31mred\x1b[0m\r\n" + end_mark(3) + kPrompt);
  ASSERT_TRUE(capture.finished());
  EXPECT_EQ(capture.exit_code(), 3);
  EXPECT_EQ(capture.output().text(), "hi\nred\n");
}

TEST(CommandCapture, IgnoresMarksFromBeforeTheCommandStarted) {
  CommandCapture capture(4096);
  capture.feed(end_mark(0) + kPrompt + std::string(kTyped));
  EXPECT_FALSE(capture.started());
  EXPECT_FALSE(capture.finished());
  capture.feed(kC + "out\r\n" + end_mark(0));
  EXPECT_TRUE(capture.finished());
  EXPECT_EQ(capture.exit_code(), 0);
  EXPECT_EQ(capture.output().text(), "out\n");
}

TEST(CommandCapture, FindsMarksSplitAcrossEveryByte) {
  std::string stream = std::string(kTyped) + kC + "one\r\ntwo\r\n" + end_mark(130) + kPrompt;
  for (std::size_t cut = 1; cut < stream.size(); ++cut) {
    CommandCapture capture(4096);
    capture.feed(std::string_view(stream).substr(0, cut));
    capture.feed(std::string_view(stream).substr(cut));
    ASSERT_TRUE(capture.finished()) << "cut at " << cut;
    EXPECT_EQ(capture.exit_code(), 130) << "cut at " << cut;
    EXPECT_EQ(capture.output().text(), "one\ntwo\n") << "cut at " << cut;
  }
}

TEST(CommandCapture, OutputAfterTheEndIsNotKept) {
  CommandCapture capture(4096);
  capture.feed(kC + "a\n" + end_mark(0));
  capture.feed("later output\n" + kC + "b\n" + end_mark(1));
  EXPECT_EQ(capture.output().text(), "a\n");
  EXPECT_EQ(capture.exit_code(), 0);
}

// zsh's PROMPT_SP trailer comes before its precmd hooks run, so before the D mark: it
// is not the command's output, whether or not the output ended with a newline.
TEST(CommandCapture, LeavesOutZshsPromptSpTrailer) {
  const std::string trailer =
      "\x1b[1m\x1b[7m%\x1b[27m\x1b[1m\x1b[0m" + std::string(79, ' ') + "\r \r";
  CommandCapture with_newline(4096);
  with_newline.feed(kC + "zsh out\r\n" + trailer + end_mark(0) + kPrompt);
  EXPECT_EQ(with_newline.output().text(), "zsh out\n");
  CommandCapture without(4096);
  without.feed(kC + "abc" + trailer + end_mark(0));
  EXPECT_EQ(without.output().text(), "abc");
  // Split anywhere, and with an empty end-of-line mark.
  std::string stream = kC + "x\r\n" + std::string(80, ' ') + "\r \r" + end_mark(1);
  for (std::size_t cut = 1; cut < stream.size(); ++cut) {
    CommandCapture capture(4096);
    capture.feed(std::string_view(stream).substr(0, cut));
    capture.feed(std::string_view(stream).substr(cut));
    EXPECT_EQ(capture.output().text(), "x\n") << "cut at " << cut;
  }
  // Output that merely ends with spaces and CRs of its own, without that shape, stays.
  CommandCapture own(4096);
  own.feed(kC + "progress 10%\rprogress 100%\r\n" + end_mark(0));
  EXPECT_EQ(own.output().text(), "progress 100%\n");
}

TEST(CommandCapture, LargeOutputIsCappedWithItsEnds) {
  CommandCapture capture(4096);
  capture.feed(kC);
  for (int i = 0; i < 10000; ++i) capture.feed("line " + std::to_string(i) + "\n");
  capture.feed(end_mark(0));
  ASSERT_TRUE(capture.finished());
  EXPECT_TRUE(capture.output().truncated());
  std::string text = capture.output().text();
  EXPECT_LE(text.size(), 4096u + 100);
  EXPECT_EQ(text.rfind("line 0\n", 0), 0u);
  EXPECT_NE(text.find("line 9999\n"), std::string::npos);
  EXPECT_NE(text.find("bytes of output omitted"), std::string::npos);
}

}  // namespace
}  // namespace wharf::core
