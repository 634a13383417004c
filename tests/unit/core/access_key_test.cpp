#include "core/access_key.hpp"

#include <gtest/gtest.h>

#include <array>

namespace wharf::core {
namespace {

TEST(AccessKey, HexEncodesSixteenBytes) {
  std::array<std::uint8_t, kKeyBytes> bytes{0x00, 0x01, 0x7f, 0x80, 0xab, 0xcd, 0xef, 0xff,
                                            0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x90};
  std::string key = key_from_bytes(bytes);
  EXPECT_EQ(key, "00017f80abcdefff1020304050607090");
  EXPECT_TRUE(is_well_formed_key(key));
}

TEST(AccessKey, WellFormedMeansThirtyTwoLowercaseHexDigits) {
  EXPECT_FALSE(is_well_formed_key(""));
  EXPECT_FALSE(is_well_formed_key("00017f80abcdefff102030405060709"));    // 31
  EXPECT_FALSE(is_well_formed_key("00017f80abcdefff10203040506070900"));  // 33
  EXPECT_FALSE(is_well_formed_key("00017F80ABCDEFFF1020304050607090"));   // upper case
  EXPECT_FALSE(is_well_formed_key("00017f80abcdefff10203040506070zz"));
}

TEST(AccessKey, MatchesOnlyTheExactKey) {
  const std::string key = "00017f80abcdefff1020304050607090";
  EXPECT_TRUE(keys_match(key, key));
  EXPECT_FALSE(keys_match(key, ""));
  EXPECT_FALSE(keys_match(key, "00017f80abcdefff1020304050607091"));  // last byte differs
  EXPECT_FALSE(keys_match(key, "10017f80abcdefff1020304050607090"));  // first byte differs
  EXPECT_FALSE(keys_match(key, key.substr(0, 31)));                   // prefix
  EXPECT_FALSE(keys_match(key, key + "0"));                           // extension
  EXPECT_FALSE(keys_match(key, key + key));                           // repeated key
  EXPECT_FALSE(keys_match("", ""));                                   // no key configured
}

}  // namespace
}  // namespace wharf::core
