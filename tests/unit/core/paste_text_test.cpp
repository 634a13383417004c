// Text made safe to type (core/paste_text.hpp): what is kept byte for byte, what goes and
// is counted (sequences whole), and the attempts to end a bracketed paste early.
#include "core/paste_text.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/utf8.hpp"

namespace wharf::core {
namespace {

using namespace std::string_literals;

std::string bracketed(std::string_view inner) {
  return "\x1b[200~"s + std::string(inner) + "\x1b[201~";
}

TEST(PasteText, KeepsPrintableTextAndTabs) {
  PastedText p = encode_paste("echo 'hi'\tthere $HOME ~/x", false);
  EXPECT_EQ(p.bytes, "echo 'hi'\tthere $HOME ~/x");
  EXPECT_EQ(p.removed, 0u);
  EXPECT_EQ(p.replaced, 0u);
}

TEST(PasteText, EmptyTextIsEmptyOrJustTheMarkers) {
  EXPECT_EQ(encode_paste("", false).bytes, "");
  EXPECT_EQ(encode_paste("", true).bytes, "\x1b[200~\x1b[201~");
}

TEST(PasteText, WrapsInBracketMarkers) {
  EXPECT_EQ(encode_paste("ls -l", true).bytes, "\x1b[200~ls -l\x1b[201~");
}

TEST(PasteText, EveryLineEndingBecomesOneCarriageReturn) {
  EXPECT_EQ(encode_paste("a\r\nb\nc\rd", false).bytes, "a\rb\rc\rd");
  EXPECT_EQ(encode_paste("a\n\nb", false).bytes, "a\r\rb");
  EXPECT_EQ(encode_paste("a\r\r\nb", false).bytes, "a\r\rb");
  EXPECT_EQ(encode_paste("a\n\rb", false).bytes, "a\r\rb");  // LF CR is two endings
  EXPECT_EQ(encode_paste("\r\n", true).bytes, bracketed("\r"));
  EXPECT_EQ(encode_paste("a\r\n", false).removed, 0u);
}

TEST(PasteText, TheEndMarkerInsideTheTextCannotEndThePaste) {
  PastedText p = encode_paste("x\x1b[201~rm -rf ~\n", true);
  EXPECT_EQ(p.bytes, bracketed("xrm -rf ~\r"));
  EXPECT_EQ(p.removed, 6u);  // the whole marker, ESC [ 2 0 1 ~
}

TEST(PasteText, DoubledMarkersGoWhole) {
  PastedText p = encode_paste("\x1b[201~\x1b[201~\x1b[200~id", true);
  EXPECT_EQ(p.bytes, bracketed("id"));
  EXPECT_EQ(p.removed, 18u);
}

TEST(PasteText, UnbracketedTextLosesSequencesWholeToo) {
  PastedText p = encode_paste("\x1b[31mred\x1b]0;title\x07", false);
  EXPECT_EQ(p.bytes, "red");
  EXPECT_EQ(p.removed, 15u);  // ESC [ 3 1 m, and the OSC to its BEL
}

TEST(PasteText, EachKindOfSequenceGoesWhole) {
  EXPECT_EQ(encode_paste("a\x1b(Bb\x1b"
                         "7c\x1b=d\x1b#8e",
                         false)
                .bytes,
            "abcde");
  EXPECT_EQ(encode_paste("a\x1b]8;;http://x/\x1b\\link\x1b]8;;\x1b\\b", false).bytes, "alinkb");
  EXPECT_EQ(encode_paste("a\x1bP1$r0m\x07still dcs\x1b\\b", false).bytes, "ab");
  EXPECT_EQ(encode_paste("a\x1bXsos\x1b\\b\x1b^pm\x1b\\c\x1b_apc\x1b\\d", false).bytes, "abcd");
  EXPECT_EQ(encode_paste("a\x1b[?2004l\x1b[>4;1mb", false).bytes, "ab");
}

// One test per kind of sequence: each goes whole, and only it.
TEST(PasteText, CsiGoesWhole) {
  PastedText p = encode_paste("a\x1b[1;31mb\x1b[?2004lc", false);
  EXPECT_EQ(p.bytes, "abc");
  EXPECT_EQ(p.removed, 15u);
}

TEST(PasteText, OscGoesWholeToBelOrSt) {
  EXPECT_EQ(encode_paste("a\x1b]0;title\x07"
                         "b",
                         false)
                .bytes,
            "ab");
  EXPECT_EQ(encode_paste("a\x1b]52;c;ZWNobyBoaQ==\x1b\\b", false).bytes, "ab");
}

TEST(PasteText, DcsGoesWhole) {
  PastedText p = encode_paste("a\x1bP1$r0m\x1b\\b", false);
  EXPECT_EQ(p.bytes, "ab");
  EXPECT_EQ(p.removed, 9u);
}

TEST(PasteText, ApcGoesWhole) {
  EXPECT_EQ(encode_paste("a\x1b_Gf=100;AAAA\x1b\\b", false).bytes, "ab");
}

TEST(PasteText, PmGoesWhole) {
  EXPECT_EQ(encode_paste("a\x1b^private\x1b\\b", false).bytes, "ab");
}

TEST(PasteText, SosGoesWhole) {
  EXPECT_EQ(encode_paste("a\x1bXstring\x1b\\b", false).bytes, "ab");
}

TEST(PasteText, EightBitC1CsiAndOscGoWhole) {
  // U+009B (CSI) with its parameters, and U+009D (OSC) to U+009C (ST).
  PastedText p = encode_paste(
      "a\xc2\x9b"
      "31mb\xc2\x9d"
      "0;t\xc2\x9c"
      "c",
      false);
  EXPECT_EQ(p.bytes, "abc");
  EXPECT_EQ(p.removed, 9u);
}

TEST(PasteText, CountsTheLineBreaksItKeeps) {
  EXPECT_EQ(encode_paste("one line", false).line_breaks, 0u);
  EXPECT_EQ(encode_paste("a\r\nb\nc\rd", false).line_breaks, 3u);
  EXPECT_EQ(encode_paste("ls\n", true).line_breaks, 1u);
  // A line break inside a sequence goes with it and is no Enter.
  EXPECT_EQ(encode_paste("a\x1b]0;x\ny\x07"
                         "b",
                         false)
                .line_breaks,
            0u);
}

TEST(PasteText, ACancelledSequenceGoesToo) {
  PastedText p = encode_paste(
      "a\x1b[20\x18"
      "1~b",
      false);
  EXPECT_EQ(p.bytes, "a1~b");  // CAN ends ESC [ 2 0 where it stands; the rest is text
  EXPECT_EQ(p.removed, 5u);
}

TEST(PasteText, ASequenceLeftOpenGoesToTheEnd) {
  PastedText p = encode_paste("ok\x1b]0;never ended\nls\n", true);
  EXPECT_EQ(p.bytes, bracketed("ok"));
  EXPECT_EQ(p.removed, 19u);  // ESC ] 0 ; and the 15 characters after it
  EXPECT_EQ(encode_paste("ok\x1b", false).bytes, "ok");
}

TEST(PasteText, DropsSignalAndEditingControls) {
  PastedText p = encode_paste(
      "a\x03"
      "b\x15"
      "c\x1a"
      "d\x04"
      "e\x08"
      "f\x7f"
      "g",
      true);
  EXPECT_EQ(p.bytes, bracketed("abcdefg"));
  EXPECT_EQ(p.removed, 6u);
}

TEST(PasteText, DropsNul) {
  PastedText p = encode_paste("a\0b"s, false);
  EXPECT_EQ(p.bytes, "ab");
  EXPECT_EQ(p.removed, 1u);
}

TEST(PasteText, DropsEveryC0ControlButTabAndLineEndings) {
  std::string all;
  for (int c = 0; c < 0x20; ++c) all.push_back(static_cast<char>(c));
  PastedText p = encode_paste(all, false);
  EXPECT_EQ(p.bytes, "\t\r\r");  // TAB, then LF and CR (not a CRLF: LF comes first)
  EXPECT_EQ(p.removed, 29u);
}

TEST(PasteText, DropsC1ControlsEncodedAsUtf8WithTheirSequences) {
  // U+009B is CSI, and "201~" its sequence; U+0080 is a control alone; U+009F opens an
  // APC string, which nothing ends here: "c" is inside it.
  PastedText p = encode_paste(
      "a\xc2\x9b"
      "201~b\xc2\x80\xc2\x9f"
      "c",
      true);
  EXPECT_EQ(p.bytes, bracketed("ab"));
  EXPECT_EQ(p.removed, 8u);
  EXPECT_EQ(p.replaced, 0u);
}

TEST(PasteText, DropsAStray8BitCsi) {
  PastedText p = encode_paste(
      "a\x9b"
      "201~b",
      true);
  EXPECT_EQ(p.bytes, bracketed("a201~b"));
  EXPECT_EQ(p.removed, 1u);
  EXPECT_EQ(p.replaced, 0u);
}

TEST(PasteText, KeepsTheFirstNonControlAfterC1) {
  PastedText p = encode_paste("\xc2\xa0\xc2\xa9", false);  // NBSP and ©, just past C1
  EXPECT_EQ(p.bytes, "\xc2\xa0\xc2\xa9");
  EXPECT_EQ(p.removed, 0u);
}

TEST(PasteText, ReplacesInvalidUtf8OncePerInvalidStretch) {
  // Overlong '/', a surrogate, a lone continuation past C1, an unused byte.
  PastedText p = encode_paste(
      "a\xc0\xaf"
      "b\xed\xa0\x80"
      "c\xa0"
      "d\xff"
      "e",
      false);
  // C0 and AF are one each; ED and A0 one each, the 80 a stray C1-range byte.
  EXPECT_EQ(p.bytes,
            "a\xef\xbf\xbd\xef\xbf\xbd"
            "b\xef\xbf\xbd\xef\xbf\xbd"
            "c\xef\xbf\xbd"
            "d\xef\xbf\xbd"
            "e");
  EXPECT_EQ(p.replaced, 6u);
  EXPECT_EQ(p.removed, 1u);
}

TEST(PasteText, ASequenceCutShortIsOneReplacementAndTheNextByteSurvives) {
  PastedText p = encode_paste(
      "\xe4\xb8"
      "x\xf0\x9f\x98\n",
      false);
  EXPECT_EQ(p.bytes, "\xef\xbf\xbdx\xef\xbf\xbd\r");
  EXPECT_EQ(p.replaced, 2u);
}

TEST(PasteText, AnEscapeCannotHideInsideABrokenSequence) {
  PastedText p = encode_paste("\xe4\x1b[201~", true);
  EXPECT_EQ(p.bytes, bracketed("\xef\xbf\xbd"));
  EXPECT_EQ(p.removed, 6u);
  EXPECT_EQ(p.replaced, 1u);
}

TEST(PasteText, InvalidUtf8InsideASequenceGoesWithIt) {
  PastedText p = encode_paste(
      "a\x1b[2\xff"
      "01~b",
      true);
  EXPECT_EQ(p.bytes, bracketed("ab"));
  EXPECT_EQ(p.removed, 7u);
  EXPECT_EQ(p.replaced, 0u);
}

TEST(PasteText, TextEndingInsideACharacterIsReplaced) {
  EXPECT_EQ(encode_paste("ok\xf0\x9f", true).bytes, bracketed("ok\xef\xbf\xbd"));
}

TEST(PasteText, KeepsEmojiCjkAndCombiningMarksIntact) {
  std::string text =
      "\xf0\x9f\x98\x80 \xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb "  // 😀 👩‍💻
      "\xe4\xb8\xad\xe6\x96\x87 "                                       // 中文
      "e\xcc\x81 \xef\xbf\xbd";  // e + combining acute, and a real U+FFFD
  PastedText p = encode_paste(text, true);
  EXPECT_EQ(p.bytes, bracketed(text));
  EXPECT_EQ(p.removed, 0u);
  EXPECT_EQ(p.replaced, 0u);
}

TEST(PasteText, NoShortInputYieldsAControlOrInvalidUtf8) {
  // Every lead byte with every 5th second byte, then a raw CSI byte: the inner text is
  // valid UTF-8 of printable characters, TAB and CR only.
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; b += 5) {
      std::string text{static_cast<char>(a), static_cast<char>(b), '\x9b'};
      std::string bytes = encode_paste(text, true).bytes;
      ASSERT_EQ(bytes.rfind("\x1b[200~", 0), 0u);
      ASSERT_EQ(bytes.substr(bytes.size() - 6), "\x1b[201~");
      Utf8Decoder decoder;
      for (char c : bytes.substr(6, bytes.size() - 12)) {
        auto step = decoder.feed(static_cast<unsigned char>(c));
        ASSERT_TRUE(step == Utf8Decoder::Step::kMore || step == Utf8Decoder::Step::kChar)
            << a << " " << b;
        if (step != Utf8Decoder::Step::kChar) continue;
        std::uint32_t cp = decoder.code_point();
        bool control = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
        EXPECT_TRUE(!control || cp == '\t' || cp == '\r') << a << " " << b << ": " << cp;
      }
      EXPECT_FALSE(decoder.pending()) << a << " " << b;
    }
  }
}

}  // namespace
}  // namespace wharf::core
