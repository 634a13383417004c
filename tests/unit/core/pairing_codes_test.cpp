#include "core/pairing_codes.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace wharf::core {
namespace {

std::string code_from(std::uint8_t start) {
  std::vector<std::uint8_t> bytes;
  for (std::uint8_t i = 0; i < 20; ++i) bytes.push_back(static_cast<std::uint8_t>(start + i));
  return pairing_code_from_bytes(bytes).value();
}

TEST(PairingCodes, CodesAvoidLookAlikeLetters) {
  std::vector<std::uint8_t> bytes(256);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i);
  auto code = pairing_code_from_bytes(bytes);
  ASSERT_TRUE(code);
  EXPECT_EQ(code->size(), kPairingCodeLength);
  for (char c : std::string("01OILU")) EXPECT_EQ(kPairingAlphabet.find(c), std::string::npos);
  // Bytes past the last whole multiple of the alphabet are skipped, not folded in.
  std::vector<std::uint8_t> high(40, 255);
  EXPECT_FALSE(pairing_code_from_bytes(high));
}

TEST(PairingCodes, TypedCodesAreNormalized) {
  EXPECT_EQ(normalize_pairing_code("abcd-efgh 23"), "ABCDEFGH23");
  EXPECT_EQ(normalize_pairing_code("ABCDEFGH2O"), std::nullopt);  // O is not in the alphabet
  EXPECT_EQ(normalize_pairing_code("ABCDEFGH2"), std::nullopt);
  EXPECT_EQ(normalize_pairing_code("ABCDEFGH234"), std::nullopt);
}

TEST(PairingCodes, ACodeWorksOnce) {
  PairingCodes codes;
  std::string code = code_from(0);
  codes.add(code, 1000, "phone");
  auto first = codes.redeem(code, 1001);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->name, "phone");
  EXPECT_FALSE(codes.redeem(code, 1002));
}

TEST(PairingCodes, ACodeExpiresAfterTenMinutes) {
  PairingCodes codes;
  std::string a = code_from(0);
  std::string b = code_from(30);
  codes.add(a, 1000);
  codes.add(b, 1000);
  EXPECT_TRUE(codes.redeem(a, 1000 + kPairingCodeLifetimeSeconds - 1));
  EXPECT_FALSE(codes.redeem(b, 1000 + kPairingCodeLifetimeSeconds));
  EXPECT_EQ(codes.outstanding(1000), 0u);
}

TEST(PairingCodes, UnknownCodesAreRefused) {
  PairingCodes codes;
  codes.add(code_from(0), 0);
  EXPECT_FALSE(codes.redeem(code_from(65), 1));
  EXPECT_FALSE(codes.redeem("", 1));
  EXPECT_EQ(codes.outstanding(1), 1u);
}

TEST(PairingCodes, OnlyAFewWaitAtOnceAndTheOldestGoesFirst) {
  PairingCodes codes;
  std::vector<std::string> made;
  for (std::uint8_t i = 0; i <= kMaxOutstandingCodes; ++i) {
    made.push_back(code_from(static_cast<std::uint8_t>(i * 7)));
    codes.add(made.back(), i);
  }
  EXPECT_EQ(codes.outstanding(10), kMaxOutstandingCodes);
  EXPECT_FALSE(codes.redeem(made.front(), 10));
  EXPECT_TRUE(codes.redeem(made.back(), 10));
}

TEST(PairingCodes, BadCodesThrottleEveryoneForAMinute) {
  BadCodeThrottle throttle;
  for (std::size_t i = 0; i < kBadCodeLimit; ++i) {
    EXPECT_FALSE(throttle.throttled(100));
    throttle.record_bad(100);
  }
  EXPECT_TRUE(throttle.throttled(100));
  EXPECT_EQ(throttle.retry_after(100), kBadCodeWindowSeconds);
  EXPECT_TRUE(throttle.throttled(100 + kBadCodeWindowSeconds - 1));
  EXPECT_FALSE(throttle.throttled(100 + kBadCodeWindowSeconds));
  EXPECT_EQ(throttle.retry_after(100 + kBadCodeWindowSeconds), 0);
}

}  // namespace
}  // namespace wharf::core
