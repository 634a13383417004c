// One-time pairing codes: what `wharf pair` and the page's "Pair a device" show as a link
// and a QR code, for a phone to trade for a device token of its own.
//
// A code is 10 characters from a 30-letter alphabet without the look-alikes (no 0/O, 1/I/L,
// U), about 49 bits: typed or read aloud without mistakes, and past guessing in the ten
// minutes it lives, the more so as bad guesses are throttled for everyone (BadCodeThrottle).
// A code is good once: redeeming it removes it. At most kMaxOutstandingCodes wait at a
// time (the oldest goes when another is made). Codes live in memory only: a restart
// forgets them, which is fine for something that lives minutes.
//
// Pure: the caller supplies the random bytes and the clock (seconds, any epoch).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace wharf::core {

inline constexpr std::string_view kPairingAlphabet = "23456789ABCDEFGHJKMNPQRSTVWXYZ";
inline constexpr std::size_t kPairingCodeLength = 10;
inline constexpr std::int64_t kPairingCodeLifetimeSeconds = 600;
inline constexpr std::size_t kMaxOutstandingCodes = 5;
// Bad codes tolerated per window before /pair/ answers "too many tries" to everyone.
inline constexpr std::size_t kBadCodeLimit = 10;
inline constexpr std::int64_t kBadCodeWindowSeconds = 60;

// A code from random bytes (rejection sampling keeps every letter equally likely);
// nullopt when the bytes ran out first (the caller offers more).
std::optional<std::string> pairing_code_from_bytes(std::span<const std::uint8_t> bytes);
// A typed code in canonical form: upper case, spaces and dashes dropped; nullopt when it
// holds a letter outside the alphabet or has the wrong length.
std::optional<std::string> normalize_pairing_code(std::string_view text);

class PairingCodes {
 public:
  struct Issued {
    std::string code;
    std::int64_t expires;  // when it stops working, on the caller's clock
    std::string name;      // what the device paired with it is called ("": from its browser)
  };
  // Keeps `code` (from pairing_code_from_bytes) for the lifetime; the oldest outstanding
  // one is dropped when there are already kMaxOutstandingCodes.
  Issued add(std::string code, std::int64_t now, std::string name = {});
  // The code's record, and the code is gone, when `code` is outstanding and not expired.
  std::optional<Issued> redeem(std::string_view code, std::int64_t now);
  std::size_t outstanding(std::int64_t now);

 private:
  void expire(std::int64_t now);
  std::deque<Issued> codes_;
};

// Counts bad pairing codes over a sliding window, from anywhere: once kBadCodeLimit were
// seen in the last kBadCodeWindowSeconds, every /pair/ request is refused unread until
// the window has moved on, so guessing costs a minute per ten tries whoever guesses.
class BadCodeThrottle {
 public:
  bool throttled(std::int64_t now);
  void record_bad(std::int64_t now);
  // Seconds until a try is accepted again (0: now).
  std::int64_t retry_after(std::int64_t now);

 private:
  void forget_old(std::int64_t now);
  std::deque<std::int64_t> bad_;
};

}  // namespace wharf::core
