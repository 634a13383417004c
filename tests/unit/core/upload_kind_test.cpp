// Uploads are judged by their first bytes: the four image kinds are recognised, and a
// name, a short file, a near miss or a script dressed as an image is not.
#include "core/upload_kind.hpp"

#include <gtest/gtest.h>

#include <string>

namespace wharf::core {
namespace {

using namespace std::string_literals;

TEST(UploadKind, RecognisesTheFourImageKindsByContent) {
  EXPECT_EQ(sniff_image("\x89PNG\r\n\x1a\n\0\0\0\rIHDR"s)->type, "image/png");
  EXPECT_EQ(sniff_image("\xff\xd8\xff\xe0\0\x10JFIF"s)->extension, ".jpg");
  EXPECT_EQ(sniff_image("GIF89a\x01\0\x01\0"s)->type, "image/gif");
  EXPECT_EQ(sniff_image("GIF87a"s)->type, "image/gif");
  EXPECT_EQ(sniff_image("RIFF\x24\0\0\0WEBPVP8 "s)->extension, ".webp");
}

TEST(UploadKind, RefusesEverythingElse) {
  for (std::string bytes :
       {""s, "\x89PNG\r\n"s, "#!/bin/sh\nrm -rf ~\n"s, "<svg onload=x>"s, "RIFF\x24\0\0\0WAVEfmt "s,
        "GIF90a"s, "\xff\xd8"s, "%PDF-1.7"s, "PK\x03\x04"s})
    EXPECT_FALSE(sniff_image(bytes)) << bytes;
}

}  // namespace
}  // namespace wharf::core
