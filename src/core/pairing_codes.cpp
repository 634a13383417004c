#include "core/pairing_codes.hpp"

#include <algorithm>

#include "core/access_key.hpp"

namespace wharf::core {

std::optional<std::string> pairing_code_from_bytes(std::span<const std::uint8_t> bytes) {
  constexpr std::size_t kSize = kPairingAlphabet.size();
  // The largest multiple of the alphabet's size a byte reaches: bytes above it would make
  // the first letters likelier, so they are skipped.
  constexpr std::size_t kLimit = 256 - 256 % kSize;
  std::string code;
  for (std::uint8_t b : bytes) {
    if (b >= kLimit) continue;
    code.push_back(kPairingAlphabet[b % kSize]);
    if (code.size() == kPairingCodeLength) return code;
  }
  return std::nullopt;
}

std::optional<std::string> normalize_pairing_code(std::string_view text) {
  std::string code;
  for (char c : text) {
    if (c == ' ' || c == '-') continue;
    char upper = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
    if (kPairingAlphabet.find(upper) == std::string_view::npos) return std::nullopt;
    code.push_back(upper);
    if (code.size() > kPairingCodeLength) return std::nullopt;
  }
  if (code.size() != kPairingCodeLength) return std::nullopt;
  return code;
}

PairingCodes::Issued PairingCodes::add(std::string code, std::int64_t now, std::string name) {
  expire(now);
  while (codes_.size() >= kMaxOutstandingCodes) codes_.pop_front();
  codes_.push_back(Issued{std::move(code), now + kPairingCodeLifetimeSeconds, std::move(name)});
  return codes_.back();
}

std::optional<PairingCodes::Issued> PairingCodes::redeem(std::string_view code, std::int64_t now) {
  expire(now);
  // Every outstanding code is compared in full (constant time each), whichever matches.
  auto found = codes_.end();
  for (auto it = codes_.begin(); it != codes_.end(); ++it)
    if (keys_match(it->code, code) && found == codes_.end()) found = it;
  if (found == codes_.end()) return std::nullopt;
  Issued issued = std::move(*found);
  codes_.erase(found);
  return issued;
}

std::size_t PairingCodes::outstanding(std::int64_t now) {
  expire(now);
  return codes_.size();
}

void PairingCodes::expire(std::int64_t now) {
  std::erase_if(codes_, [now](const Issued& issued) { return now >= issued.expires; });
}

void BadCodeThrottle::forget_old(std::int64_t now) {
  while (!bad_.empty() && now - bad_.front() >= kBadCodeWindowSeconds) bad_.pop_front();
}

bool BadCodeThrottle::throttled(std::int64_t now) {
  forget_old(now);
  return bad_.size() >= kBadCodeLimit;
}

void BadCodeThrottle::record_bad(std::int64_t now) {
  forget_old(now);
  bad_.push_back(now);
}

std::int64_t BadCodeThrottle::retry_after(std::int64_t now) {
  if (!throttled(now)) return 0;
  // The oldest bad try that still counts leaves the window first.
  return std::max<std::int64_t>(1, bad_[bad_.size() - kBadCodeLimit] + kBadCodeWindowSeconds - now);
}

}  // namespace wharf::core
