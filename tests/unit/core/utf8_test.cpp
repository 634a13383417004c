// The UTF-8 decoder (core/utf8.hpp) at the edges of Unicode's Table 3-7: the first and
// last code point of each length, and each way a sequence can be invalid, as maximal
// subparts; and Utf8Stream, its runs and stretches the same however the text is cut.
#include "core/utf8.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace wharf::core {
namespace {

// Decodes `bytes` into code points, U+FFFD for each invalid stretch, "<cut>" at the end
// for an unfinished sequence.
std::vector<std::uint32_t> decode(std::string_view bytes) {
  std::vector<std::uint32_t> out;
  Utf8Decoder decoder;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    switch (decoder.feed(static_cast<unsigned char>(bytes[i]))) {
      case Utf8Decoder::Step::kMore:
        break;
      case Utf8Decoder::Step::kChar:
        out.push_back(decoder.code_point());
        break;
      case Utf8Decoder::Step::kInvalid:
        out.push_back(kReplacementCharacter);
        break;
      case Utf8Decoder::Step::kRetry:
        out.push_back(kReplacementCharacter);
        --i;
        break;
    }
  }
  if (decoder.pending()) out.push_back(0xFFFFFFFF);
  return out;
}

using Points = std::vector<std::uint32_t>;

TEST(Utf8Decoder, DecodesEachLengthAtItsEdges) {
  EXPECT_EQ(decode(std::string(1, '\0')), Points{0});
  EXPECT_EQ(decode("\x7f"), Points{0x7f});
  EXPECT_EQ(decode("\xc2\x80"), Points{0x80});
  EXPECT_EQ(decode("\xdf\xbf"), Points{0x7ff});
  EXPECT_EQ(decode("\xe0\xa0\x80"), Points{0x800});
  EXPECT_EQ(decode("\xed\x9f\xbf"), Points{0xd7ff});
  EXPECT_EQ(decode("\xee\x80\x80"), Points{0xe000});
  EXPECT_EQ(decode("\xef\xbf\xbf"), Points{0xffff});
  EXPECT_EQ(decode("\xf0\x90\x80\x80"), Points{0x10000});
  EXPECT_EQ(decode("\xf4\x8f\xbf\xbf"), Points{0x10ffff});
}

TEST(Utf8Decoder, RoundTripsWithAppendUtf8) {
  for (std::uint32_t cp : {0x41u, 0xe9u, 0x4e2du, 0x1f600u, 0x10ffffu}) {
    std::string bytes;
    append_utf8(bytes, cp);
    EXPECT_EQ(decode(bytes), Points{cp}) << cp;
  }
}

TEST(Utf8Decoder, RefusesBytesThatNeverStartACharacter) {
  constexpr std::uint32_t kBad = kReplacementCharacter;
  EXPECT_EQ(decode("\x80"), Points{kBad});
  EXPECT_EQ(decode("\xbf"), Points{kBad});
  EXPECT_EQ(decode("\xc0\x80"), (Points{kBad, kBad}));  // overlong NUL
  EXPECT_EQ(decode("\xc1\xbf"), (Points{kBad, kBad}));
  EXPECT_EQ(decode("\xf5\x80\x80\x80"), (Points{kBad, kBad, kBad, kBad}));
  EXPECT_EQ(decode("\xff"), Points{kBad});
}

TEST(Utf8Decoder, RefusesOverlongsSurrogatesAndValuesPastTheMaximumAtTheSecondByte) {
  constexpr std::uint32_t kBad = kReplacementCharacter;
  EXPECT_EQ(decode("\xe0\x9f\xbf"), (Points{kBad, kBad, kBad}));            // overlong 3-byte
  EXPECT_EQ(decode("\xed\xa0\x80"), (Points{kBad, kBad, kBad}));            // U+D800
  EXPECT_EQ(decode("\xf0\x8f\xbf\xbf"), (Points{kBad, kBad, kBad, kBad}));  // overlong 4-byte
  EXPECT_EQ(decode("\xf4\x90\x80\x80"), (Points{kBad, kBad, kBad, kBad}));  // U+110000
}

TEST(Utf8Decoder, ASequenceCutShortIsOneInvalidStretch) {
  constexpr std::uint32_t kBad = kReplacementCharacter;
  EXPECT_EQ(decode("\xe4\xb8x"), (Points{kBad, 'x'}));
  EXPECT_EQ(decode("\xf0\x9f\x98x"), (Points{kBad, 'x'}));
  EXPECT_EQ(decode("\xc3\xc3\xa9"), (Points{kBad, 0xe9}));  // the breaking byte starts afresh
  EXPECT_EQ(decode("\xe4\xb8"), Points{0xFFFFFFFF});        // unfinished, not yet invalid
}

TEST(Utf8Decoder, ResetForgetsAnUnfinishedSequence) {
  Utf8Decoder decoder;
  EXPECT_EQ(decoder.feed(0xe4), Utf8Decoder::Step::kMore);
  EXPECT_TRUE(decoder.pending());
  decoder.reset();
  EXPECT_FALSE(decoder.pending());
  EXPECT_EQ(decoder.feed('a'), Utf8Decoder::Step::kChar);
  EXPECT_EQ(decoder.code_point(), static_cast<std::uint32_t>('a'));
}

// Utf8Stream over `pieces`: valid runs as they are, each invalid stretch as "<first:length>".
std::string stream(std::initializer_list<std::string_view> pieces) {
  std::string out;
  Utf8Stream utf8;
  auto valid = [&](std::string_view run) { out += run; };
  auto invalid = [&](unsigned char first, std::size_t length) {
    out += "<" + std::to_string(first) + ":" + std::to_string(length) + ">";
  };
  for (std::string_view piece : pieces) utf8.feed(piece, valid, invalid);
  utf8.finish(invalid);
  return out;
}

TEST(Utf8Stream, HandsOnValidRunsAndInvalidStretches) {
  EXPECT_EQ(stream({"plain \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"}),
            "plain \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  EXPECT_EQ(stream({"a\x80z"}), "a<128:1>z");
  EXPECT_EQ(stream({"a\xe4\xb8z"}), "a<228:2>z");
  EXPECT_EQ(stream({"\xed\xa0\x80"}), "<237:1><160:1><128:1>");
  EXPECT_EQ(stream({"ok\xf0\x9f"}), "ok<240:2>");  // cut short by the end
  EXPECT_EQ(stream({""}), "");
}

TEST(Utf8Stream, AnyCutReadsTheSame) {
  const std::string text = "a\xe4\xb8\xad\xe4\xb8x\xf0\x9f\x98\x80\xff\xc3\xc3\xa9\xe2\x82";
  const std::string whole = stream({text});
  EXPECT_EQ(whole, "a\xe4\xb8\xad<228:2>x\xf0\x9f\x98\x80<255:1><195:1>\xc3\xa9<226:2>");
  for (std::size_t cut = 0; cut <= text.size(); ++cut)
    for (std::size_t cut2 = cut; cut2 <= text.size(); ++cut2)
      EXPECT_EQ(stream({std::string_view(text).substr(0, cut),
                        std::string_view(text).substr(cut, cut2 - cut),
                        std::string_view(text).substr(cut2)}),
                whole)
          << cut << " " << cut2;
}

TEST(Utf8Stream, KeepsACharacterCutByThePieceUntilItEnds) {
  Utf8Stream utf8;
  std::string out;
  auto valid = [&](std::string_view run) { out += run; };
  auto invalid = [&](unsigned char, std::size_t) { out += "?"; };
  utf8.feed("ab\xe4\xb8", valid, invalid);
  EXPECT_EQ(out, "ab");
  EXPECT_TRUE(utf8.pending());
  utf8.feed("\xad", valid, invalid);
  EXPECT_EQ(out, "ab\xe4\xb8\xad");
  EXPECT_FALSE(utf8.pending());
}

}  // namespace
}  // namespace wharf::core

namespace wharf::core {
namespace {

TEST(Utf8IncompleteTail, HoldsBackOnlyACharacterCutShort) {
  EXPECT_EQ(utf8_incomplete_tail(""), 0u);
  EXPECT_EQ(utf8_incomplete_tail("abc"), 0u);
  EXPECT_EQ(utf8_incomplete_tail("a\xe2\x80\x94"), 0u);  // complete em dash
  EXPECT_EQ(utf8_incomplete_tail("a\xe2\x80"), 2u);      // two of its three bytes
  EXPECT_EQ(utf8_incomplete_tail("a\xe2"), 1u);
  EXPECT_EQ(utf8_incomplete_tail("a\xf0\x9f\x98"), 3u);      // three of an emoji's four
  EXPECT_EQ(utf8_incomplete_tail("a\x80\x80\x80\x80"), 0u);  // stray bytes are not held
  EXPECT_EQ(utf8_incomplete_tail("a\xff"), 0u);
}

}  // namespace
}  // namespace wharf::core
