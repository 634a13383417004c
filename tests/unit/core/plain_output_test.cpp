// Raw output to plain text (core/plain_output.hpp): each kind of sequence dropped, line
// rewriting by CR and BS, every chunk boundary, and the head/tail cap with its marker.
#include "core/plain_output.hpp"

#include <gtest/gtest.h>

#include <string>

namespace wharf::core {
namespace {

using namespace std::string_literals;

std::string plain(std::string_view raw, std::size_t head = 1 << 20, std::size_t tail = 1 << 20) {
  PlainOutput out(head, tail);
  out.feed(raw);
  return out.text();
}

TEST(PlainOutput, PlainTextPassesThrough) {
  EXPECT_EQ(plain("hello\nworld\n"), "hello\nworld\n");
  EXPECT_EQ(plain("a\tb\n"), "a\tb\n");
  EXPECT_EQ(plain("no newline"), "no newline");
  EXPECT_EQ(plain(""), "");
}

TEST(PlainOutput, CrLfIsLf) {
  EXPECT_EQ(plain("one\r\ntwo\r\n"), "one\ntwo\n");
  EXPECT_EQ(plain("one\r\r\ntwo"), "one\ntwo");
}

TEST(PlainOutput, DropsCsi) {
  EXPECT_EQ(plain("\x1b[1;31mred\x1b[0m \x1b[?25l\x1b[2J\x1b[H\x1b[38;2;1;2;3mx\x1b[>4;1m\n"),
            "red x\n");
}

TEST(PlainOutput, DropsOscToBelOrSt) {
  EXPECT_EQ(plain("\x1b]0;title\x07"
                  "a\x1b]8;;http://x/\x1b\\link\x1b]8;;\x1b\\b\n"),
            "alinkb\n");
  EXPECT_EQ(plain("\x1b]133;D;0\x07$ "), "$ ");
}

TEST(PlainOutput, DropsDcsSosPmApcToStOnly) {
  EXPECT_EQ(plain("a\x1bP1$r0m\x07still dcs\x1b\\b"), "ab");
  EXPECT_EQ(plain("a\x1bXsos\x1b\\b\x1b^pm\x1b\\c\x1b_apc\x07x\x1b\\d"), "abcd");
}

TEST(PlainOutput, DropsTwoByteSequencesAndCharsetDesignators) {
  EXPECT_EQ(plain("\x1b(Ba\x1b)0b\x1b"
                  "7c\x1b"
                  "8d\x1b=e\x1b>f\x1bMg\x1b#8h\x1b%Gi"),
            "abcdefghi");
}

TEST(PlainOutput, DropsC0ControlsButTabAndLf) {
  EXPECT_EQ(plain("a\x07"
                  "b\x00"
                  "c\x0e"
                  "d\x0f"
                  "e\x0b"
                  "f\x0c"
                  "g\x7fh\n"s),
            "abcdefgh\n");
}

TEST(PlainOutput, ControlsInsideASequenceStillAct) {
  EXPECT_EQ(plain("a\x1b[1\n;2mb"), "a\nb");
}

TEST(PlainOutput, CancelledSequencesEnd) {
  EXPECT_EQ(plain("a\x1b[12\x18"
                  "b\x1b]0;x\x1a"
                  "c"),
            "abc");
}

TEST(PlainOutput, AnEscapeInsideAStringStartsANewSequence) {
  // An OSC cut short by a CSI: the CSI is read as one, the text after it kept.
  EXPECT_EQ(plain("\x1b]0;title\x1b[1mbold\n"), "bold\n");
}

TEST(PlainOutput, CarriageReturnRewritesTheLine) {
  EXPECT_EQ(plain("10%\r20%\r100%\n"), "100%\n");
  EXPECT_EQ(plain("downloading 50%\rdone\n"), "done\n");
  EXPECT_EQ(plain("Progress\r\x1b[KFinished\nnext\n"), "Finished\nnext\n");
  EXPECT_EQ(plain("kept\r"), "kept");  // nothing came after the CR
  EXPECT_EQ(plain("a\r\tb"), "\tb");
}

TEST(PlainOutput, BackspaceErasesTheCharacterBefore) {
  EXPECT_EQ(plain("abc\b\bX\n"), "aX\n");
  EXPECT_EQ(plain("ab\b \b\n"), "a\n");        // the erase idiom
  EXPECT_EQ(plain("_\ba_\bb\n"), "ab\n");      // man page underline
  EXPECT_EQ(plain("\b\bx\n"), "x\n");          // nothing to erase
  EXPECT_EQ(plain("a\n\bb\n"), "a\nb\n");      // not across lines
  EXPECT_EQ(plain("x\xc3\xa9\b!\n"), "x!\n");  // a whole character
  EXPECT_EQ(plain("\xe4\xb8\xad\b\n"), "\n");
  EXPECT_EQ(plain("ab\r\bc\n"), "c\n");  // at the line's start after CR
}

TEST(PlainOutput, KeepsUtf8AndReadsC1AsTheScreenDoes) {
  EXPECT_EQ(plain("\xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80\n"),
            "\xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80\n");
  // U+009B is CSI (its "31m" goes with it), U+0085 a control, U+009D an OSC.
  EXPECT_EQ(plain("a\xc2\x9b"
                  "31mb\xc2\x85"
                  "c\xc2\x9d"
                  "0;title\x07"
                  "d\xc2\xa9"),
            "abcd\xc2\xa9");
}

TEST(PlainOutput, InvalidUtf8InsideASequenceGoesWithIt) {
  EXPECT_EQ(plain("a\x1b[3\xff"
                  "1mb\x1b]0;t\xc0itle\x07"
                  "c"),
            "abc");
}

TEST(PlainOutput, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(plain("a\xff"
                  "b\xc0\xaf"
                  "c\x9b"
                  "d"),
            "a\xef\xbf\xbd"
            "b\xef\xbf\xbd\xef\xbf\xbd"
            "c\xef\xbf\xbd"
            "d");
  EXPECT_EQ(plain("\xe4\xb8x"), "\xef\xbf\xbdx");
  EXPECT_EQ(plain("\xe4\xb8\x1b[1mx"), "\xef\xbf\xbdx");  // cut short by ESC
  EXPECT_EQ(plain("\xe4\xb8\nx"), "\xef\xbf\xbd\nx");     // by a control
}

TEST(PlainOutput, AnyChunkingGivesTheSameText) {
  std::string raw =
      "\x1b[1m\xe4\xb8\xad\x1b[0m\x1b]0;t\x1b\\line\r\n50%\r100%\nab\bc\x1b(B\xf0\x9f\x98\x80"
      "\x1bP+q\x1b\\end\n";
  std::string whole = plain(raw);
  EXPECT_EQ(whole,
            "\xe4\xb8\xadline\n100%\nac\xf0\x9f\x98\x80"
            "end\n");
  for (std::size_t cut = 0; cut <= raw.size(); ++cut) {
    PlainOutput out(1 << 20, 1 << 20);
    out.feed(std::string_view(raw).substr(0, cut));
    out.feed(std::string_view(raw).substr(cut));
    EXPECT_EQ(out.text(), whole) << "cut at " << cut;
  }
  PlainOutput bytewise(1 << 20, 1 << 20);
  for (char c : raw) bytewise.feed(std::string_view(&c, 1));
  EXPECT_EQ(bytewise.text(), whole);
}

TEST(PlainOutput, AnUnfinishedCharacterIsNotShownYet) {
  PlainOutput out(100, 100);
  out.feed("ab\xe4\xb8");
  EXPECT_EQ(out.text(), "ab");
  out.feed("\xad");
  EXPECT_EQ(out.text(), "ab\xe4\xb8\xad");
}

TEST(PlainOutput, KeepsEverythingWithinTheCap) {
  PlainOutput out(10, 10);
  out.feed("0123456789abcdefghij");
  EXPECT_EQ(out.text(), "0123456789abcdefghij");
  EXPECT_FALSE(out.truncated());
  EXPECT_EQ(out.plain_bytes(), 20u);
}

TEST(PlainOutput, KeepsHeadAndTailAndSaysWhatIsMissing) {
  PlainOutput out(9, 9);
  out.feed("line one\nline two\nline three\nlast one\n");
  EXPECT_EQ(out.text(), "line one\n[wharf: 20 bytes of output omitted]\nlast one\n");
  EXPECT_TRUE(out.truncated());
  EXPECT_EQ(out.plain_bytes(), 38u);
}

TEST(PlainOutput, TheMarkerStartsOnItsOwnLine) {
  PlainOutput out(4, 3);
  out.feed("abcdefghij\n");
  EXPECT_EQ(out.text(), "abcd\n[wharf: 4 bytes of output omitted]\nij\n");
  PlainOutput no_head(0, 3);
  no_head.feed("abcdef");
  EXPECT_EQ(no_head.text(), "[wharf: 3 bytes of output omitted]\ndef");
}

TEST(PlainOutput, TheUnfinishedLineCountsTowardsTheCap) {
  PlainOutput out(3, 2);
  out.feed("ab\ncd");
  EXPECT_FALSE(out.truncated());
  EXPECT_EQ(out.text(), "ab\ncd");
  out.feed("ef");
  EXPECT_TRUE(out.truncated());
  EXPECT_EQ(out.text(), "ab\n[wharf: 2 bytes of output omitted]\nef");
  EXPECT_EQ(out.plain_bytes(), 7u);
  out.feed("\rX");  // the CR took the line back: nothing is missing now
  EXPECT_FALSE(out.truncated());
  EXPECT_EQ(out.text(), "ab\nX");
  EXPECT_EQ(out.plain_bytes(), 4u);
}

TEST(PlainOutput, NeverCutsACharacterInTwo) {
  // 4-byte emoji: a head of 6 bytes holds one, a tail of 6 bytes holds one.
  std::string emoji = "\xf0\x9f\x98\x80";
  PlainOutput out(6, 6);
  out.feed(emoji + emoji + emoji + emoji);
  EXPECT_EQ(out.text(), emoji + "\n[wharf: 8 bytes of output omitted]\n" + emoji);
  PlainOutput chunked(6, 6);
  for (int i = 0; i < 4; ++i) chunked.feed(emoji);
  EXPECT_EQ(chunked.text(), out.text());
}

TEST(PlainOutput, ManyShortLinesKeepOnlyTheEnds) {
  PlainOutput out(6, 6);
  for (int i = 0; i < 100000; ++i) out.feed("line " + std::to_string(i % 10) + "\n");
  EXPECT_EQ(out.text(), "line 0\n[wharf: 699988 bytes of output omitted]\nine 9\n");
  EXPECT_EQ(out.plain_bytes(), 700000u);
}

TEST(PlainOutput, ALongLineIsPassedOnInPieces) {
  PlainOutput out(1 << 20, 1 << 20);
  std::string line(kMaxPlainLineBytes + 10, 'x');
  out.feed(line);
  out.feed("\ryz\n");  // the CR only takes back what follows the first piece
  EXPECT_EQ(out.text(), std::string(kMaxPlainLineBytes, 'x') + "yz\n");
  PlainOutput multibyte(1 << 20, 1 << 20);
  std::string wide;
  for (std::size_t i = 0; i < kMaxPlainLineBytes / 3 + 1; ++i) wide += "\xe4\xb8\xad";
  multibyte.feed(wide + "\n");
  EXPECT_EQ(multibyte.text(), wide + "\n");
}

TEST(PlainOutput, ACapOfZeroKeepsOnlyTheMarker) {
  PlainOutput out(0, 0);
  out.feed("\x1b[1mabc\n");
  EXPECT_EQ(out.text(), "[wharf: 4 bytes of output omitted]\n");
  EXPECT_EQ(out.plain_bytes(), 4u);
}

}  // namespace
}  // namespace wharf::core
