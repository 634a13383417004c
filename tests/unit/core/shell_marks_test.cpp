// OSC 133 marks in a stream (core/shell_marks.hpp): each mark and terminator, the
// offsets run_command cuts output at, every split point, and what is ignored.
#include "core/shell_marks.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace wharf::core {
namespace {

using namespace std::string_literals;

std::vector<ShellMark> scan(std::string_view chunk) {
  ShellMarkScanner scanner;
  std::vector<ShellMark> marks;
  scanner.feed(chunk, marks);
  return marks;
}

void expect_mark(const ShellMark& mark, MarkKind kind, std::optional<int> code, std::size_t begin,
                 std::size_t end) {
  EXPECT_EQ(mark.kind, kind);
  EXPECT_EQ(mark.exit_code, code);
  EXPECT_EQ(mark.begin, begin);
  EXPECT_EQ(mark.end, end);
}

TEST(ShellMarks, FindsEachKindWithBelAndSt) {
  auto marks = scan("\x1b]133;A\x07$ \x1b]133;B\x1b\\ls\r\n\x1b]133;C\x07out\n\x1b]133;D;0\x1b\\");
  ASSERT_EQ(marks.size(), 4u);
  expect_mark(marks[0], MarkKind::kPromptStart, std::nullopt, 0, 8);
  expect_mark(marks[1], MarkKind::kCommandStart, std::nullopt, 10, 19);
  expect_mark(marks[2], MarkKind::kOutputStart, std::nullopt, 23, 31);
  expect_mark(marks[3], MarkKind::kCommandEnd, 0, 35, 46);
}

TEST(ShellMarks, OffsetsCutTheOutputExactly) {
  std::string chunk = "\x1b]133;C\x07hello\n\x1b]133;D;2\x07prompt";
  auto marks = scan(chunk);
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_EQ(chunk.substr(marks[0].end, marks[1].begin - marks[0].end), "hello\n");
  EXPECT_EQ(chunk.substr(marks[1].end), "prompt");
  EXPECT_EQ(marks[1].exit_code, 2);
}

TEST(ShellMarks, ExitCodes) {
  EXPECT_EQ(scan("\x1b]133;D;0\x07")[0].exit_code, 0);
  EXPECT_EQ(scan("\x1b]133;D;127\x07")[0].exit_code, 127);
  EXPECT_EQ(scan("\x1b]133;D;130;aid=7\x07")[0].exit_code, 130);
  EXPECT_EQ(scan("\x1b]133;D;0;x\x07")[0].exit_code, 0);
  EXPECT_EQ(scan("\x1b]133;D;999999999\x07")[0].exit_code, 999999999);
}

TEST(ShellMarks, EndWithoutANumberHasNoExitCode) {
  for (std::string text : {"\x1b]133;D\x07"s, "\x1b]133;D;\x07"s, "\x1b]133;D;x\x07"s,
                           "\x1b]133;D;1x\x07"s, "\x1b]133;D;-1\x07"s, "\x1b]133;D; 1\x07"s,
                           "\x1b]133;D;;0\x07"s, "\x1b]133;D;1234567890\x07"s}) {
    auto marks = scan(text);
    ASSERT_EQ(marks.size(), 1u) << text.substr(1);
    EXPECT_EQ(marks[0].kind, MarkKind::kCommandEnd);
    EXPECT_EQ(marks[0].exit_code, std::nullopt) << text.substr(1);
  }
}

TEST(ShellMarks, ExtraParamsAreIgnored) {
  auto marks = scan("\x1b]133;A;aid=1;cl=m\x07\x1b]133;C;cmdline=ls\x1b\\");
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_EQ(marks[0].kind, MarkKind::kPromptStart);
  EXPECT_EQ(marks[1].kind, MarkKind::kOutputStart);
  EXPECT_EQ(marks[1].exit_code, std::nullopt);
}

TEST(ShellMarks, FoundAtEverySplitPoint) {
  std::string stream = "ab\x1b]133;C\x07xy\x1b]133;D;42\x1b\\z";
  const std::size_t begins[] = {2, 12};
  const std::size_t ends[] = {10, 24};
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    ShellMarkScanner scanner;
    std::vector<ShellMark> first;
    std::vector<ShellMark> second;
    scanner.feed(std::string_view(stream).substr(0, cut), first);
    scanner.feed(std::string_view(stream).substr(cut), second);
    ASSERT_EQ(first.size() + second.size(), 2u) << "cut at " << cut;
    for (std::size_t n = 0; n < 2; ++n) {
      bool in_first = n < first.size();
      const ShellMark& m = in_first ? first[n] : second[n - first.size()];
      EXPECT_EQ(m.kind, n == 0 ? MarkKind::kOutputStart : MarkKind::kCommandEnd);
      EXPECT_EQ(m.exit_code, n == 0 ? std::nullopt : std::optional<int>(42));
      EXPECT_EQ(in_first, ends[n] <= cut) << "cut at " << cut;
      std::size_t offset = in_first ? 0 : cut;  // where the reporting chunk starts
      EXPECT_EQ(m.end + offset, ends[n]) << "cut at " << cut;
      EXPECT_EQ(m.begin, begins[n] >= offset ? begins[n] - offset : 0) << "cut at " << cut;
    }
  }
}

TEST(ShellMarks, BeginIsZeroWhenTheMarkStartedInAnEarlierChunk) {
  ShellMarkScanner scanner;
  std::vector<ShellMark> marks;
  scanner.feed("out\x1b]13", marks);
  EXPECT_TRUE(marks.empty());
  scanner.feed("3;D;1\x07", marks);
  ASSERT_EQ(marks.size(), 1u);
  expect_mark(marks[0], MarkKind::kCommandEnd, 1, 0, 6);

  marks.clear();
  scanner.feed("x\x1b", marks);  // only the ESC
  scanner.feed("]133;A\x07", marks);
  ASSERT_EQ(marks.size(), 1u);
  expect_mark(marks[0], MarkKind::kPromptStart, std::nullopt, 0, 7);

  marks.clear();
  scanner.feed("\x1b]133;B\x1b", marks);  // the ST cut in two
  EXPECT_TRUE(marks.empty());
  scanner.feed("\\", marks);
  ASSERT_EQ(marks.size(), 1u);
  expect_mark(marks[0], MarkKind::kCommandStart, std::nullopt, 0, 1);
}

TEST(ShellMarks, OneByteAtATime) {
  std::string stream = "\x1b[1m\x1b]0;title\x07\x1b]133;A\x07$ \x1b]133;D;3\x1b\\";
  ShellMarkScanner scanner;
  std::vector<ShellMark> marks;
  for (char c : stream) scanner.feed(std::string_view(&c, 1), marks);
  ASSERT_EQ(marks.size(), 2u);
  expect_mark(marks[0], MarkKind::kPromptStart, std::nullopt, 0, 1);
  expect_mark(marks[1], MarkKind::kCommandEnd, 3, 0, 1);
}

TEST(ShellMarks, OtherSequencesAreSkipped) {
  std::string text =
      "\x1b[31mred\x1b[0m\x1b]0;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"
      "\x1b(B\x1b=\x1bP1$r0m\x1b\\\x1b]1337;X\x07\x1b]13;A\x07\x1b]1330;A\x07";
  EXPECT_TRUE(scan(text).empty());
}

TEST(ShellMarks, MalformedMarksAreIgnored) {
  for (std::string text :
       {"\x1b]133;\x07"s, "\x1b]133;E\x07"s, "\x1b]133;a\x07"s, "\x1b]133;AB\x07"s,
        "\x1b]133A\x07"s, "\x1b]133\x07"s, "\x1b]133;\x1b\\"s, "\x1b]133;P;k=i\x07"s,
        "\x1b]133;A"s /* never terminated */, "\x1b[133;A\x07"s, "\x1b 133;A\x07"s,
        "\x1b]\x1b]\x07"s, "\x1b]133;A\x18\x07"s /* cancelled by CAN */,
        "\x1b]133;A\x1a\x07"s /* and by SUB */})
    EXPECT_TRUE(scan(text).empty()) << text.substr(1);
}

TEST(ShellMarks, AnEscapeThatIsNotStAbortsTheMarkAndStartsAnother) {
  auto marks = scan("\x1b]133;A\x1b]133;B\x07");
  ASSERT_EQ(marks.size(), 1u);
  expect_mark(marks[0], MarkKind::kCommandStart, std::nullopt, 7, 15);
  ShellMarkScanner scanner;
  std::vector<ShellMark> split;
  scanner.feed("\x1b]133;A\x1b", split);
  scanner.feed("]133;C\x07", split);
  ASSERT_EQ(split.size(), 1u);
  expect_mark(split[0], MarkKind::kOutputStart, std::nullopt, 0, 7);
}

TEST(ShellMarks, DoubledEscapesBeforeAMark) {
  auto marks = scan("\x1b\x1b\x1b]133;C\x07");
  ASSERT_EQ(marks.size(), 1u);
  expect_mark(marks[0], MarkKind::kOutputStart, std::nullopt, 2, 10);
}

TEST(ShellMarks, AMarkAfterAnUnterminatedOscIsStillFound) {
  auto marks = scan("\x1b]0;half a title\x1b]133;D;1\x07");
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].exit_code, 1);
  EXPECT_EQ(marks[0].begin, 16u);
}

TEST(ShellMarks, OverlongMarksAreIgnoredAndTheScannerRecovers) {
  std::string params(kMaxMarkBytes, 'x');
  std::string text = "\x1b]133;A;" + params + "\x07\x1b]133;B\x07";
  auto marks = scan(text);
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].kind, MarkKind::kCommandStart);
  std::string longest = "\x1b]133;A;" + std::string(kMaxMarkBytes - 6, 'x') + "\x07";
  EXPECT_EQ(scan(longest).size(), 1u);  // 256 bytes of body: still a mark
}

TEST(ShellMarks, AHugeForeignOscIsSkippedWithoutFindingMarksInIt) {
  ShellMarkScanner scanner;
  std::vector<ShellMark> marks;
  scanner.feed("\x1b]52;c;", marks);
  std::string base64(1 << 20, 'Q');
  for (int i = 0; i < 4; ++i) scanner.feed(base64, marks);
  scanner.feed("133;A\x07\x1b]133;C\x07", marks);
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].kind, MarkKind::kOutputStart);
}

TEST(ShellMarks, PlainTextAndEmptyChunksFindNothing) {
  ShellMarkScanner scanner;
  std::vector<ShellMark> marks;
  scanner.feed("", marks);
  scanner.feed("133;A\x07 ]133;A plain text\n", marks);
  scanner.feed(std::string(4096, '\x07'), marks);
  EXPECT_TRUE(marks.empty());
}

TEST(ShellMarks, EightBitOscAndStAreReadAsTheScreenReadsThem) {
  auto marks = scan(
      "a\xc2\x9d"
      "133;C\x07out\x1b]133;D;4\xc2\x9c"
      "z");
  ASSERT_EQ(marks.size(), 2u);
  expect_mark(marks[0], MarkKind::kOutputStart, std::nullopt, 1, 9);
  expect_mark(marks[1], MarkKind::kCommandEnd, 4, 12, 23);
  ShellMarkScanner scanner;
  std::vector<ShellMark> split;
  scanner.feed("a\xc2", split);  // the C1 control cut in two
  scanner.feed(
      "\x9d"
      "133;A\x07",
      split);
  ASSERT_EQ(split.size(), 1u);
  expect_mark(split[0], MarkKind::kPromptStart, std::nullopt, 0, 7);
}

TEST(ShellMarks, NulAndBinaryInsideAMarkDoNotBreakIt) {
  auto marks = scan("\x1b]133;A;\0\xff\x01\x07"s);
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].end, 12u);
}

}  // namespace
}  // namespace wharf::core
