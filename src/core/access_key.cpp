#include "core/access_key.hpp"

namespace wharf::core {

std::string key_from_bytes(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (std::uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0x0f]);
  }
  return out;
}

bool is_well_formed_key(std::string_view text) {
  if (text.size() != kKeyBytes * 2) return false;
  for (char c : text) {
    bool digit = c >= '0' && c <= '9';
    bool lower_hex = c >= 'a' && c <= 'f';
    if (!digit && !lower_hex) return false;
  }
  return true;
}

bool keys_match(std::string_view expected, std::string_view candidate) {
  // Fold the length difference and every byte difference into one accumulator; the loop
  // always walks the whole candidate, reading the expected key cyclically, so neither an
  // early mismatch nor a short candidate returns sooner.
  if (expected.empty()) return false;
  unsigned diff = expected.size() == candidate.size() ? 0u : 1u;
  for (std::size_t i = 0; i < candidate.size(); ++i) {
    auto a = static_cast<unsigned char>(expected[i % expected.size()]);
    auto b = static_cast<unsigned char>(candidate[i]);
    diff |= static_cast<unsigned>(a ^ b);
  }
  // An empty candidate never matches, but must not skip the comparison's cost model.
  if (candidate.empty()) diff |= 1u;
  return diff == 0;
}

}  // namespace wharf::core
