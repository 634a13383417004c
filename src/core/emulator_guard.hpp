// What stands between a program's output and libvterm 0.1.4, which a program can
// otherwise hang or crash (found by fuzzing; inputs kept in tests/fuzz/known):
// - REP (CSI Ps b) loops for ever when the previous glyph has no width: every REP is
//   written out here instead (at most one row), or dropped when nothing can repeat;
// - a CSI with more arguments than libvterm holds writes past its array: it is
//   cancelled (CAN) at the first argument too many;
// - NUL inside strings overflows a copy: NULs (ignored by terminals) are removed;
// - UTF-8 cut short by another byte can corrupt memory: it becomes U+FFFD.
// Escape sequences and UTF-8 characters are kept whole across feeds, so each is seen
// in one piece. Since it follows the sequences anyway, it also reports where the
// alternate screen is entered (see Screen::feed).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wharf::core {

class EmulatorGuard {
 public:
  explicit EmulatorGuard(int max_repeat) : max_repeat_(max_repeat) {}
  void set_max_repeat(int max_repeat) { max_repeat_ = max_repeat; }

  // Returns the bytes to feed now (possibly `bytes` itself, when nothing changes).
  // `storage` backs the result when it had to be rewritten.
  // `alternate_entries` receives the offsets (in the result) where a switch to the
  // alternate screen (DECSET 47, 1047 or 1049) begins, so the caller can look at the
  // primary screen just before it disappears.
  std::string_view filter(std::string_view bytes, std::string& storage,
                          std::vector<std::size_t>& alternate_entries);

 private:
  enum class State { kText, kEscape, kCsi, kDropCsi, kString, kStringEscape };

  int max_repeat_;
  State state_ = State::kText;
  std::string pending_;  // an escape sequence not yet complete at the end of a feed
  std::string params_;   // CSI parameter and intermediate bytes so far (first 64)
  int separators_ = 0;
  bool escape_intermediate_ =
      false;                // ESC followed by 0x20-0x2f         // ';' and ':' in the current CSI
  std::uint32_t last_ = 0;  // last printable code point, 0 if none
  std::uint32_t partial_ = 0;  // UTF-8 decoding state
  int continuation_ = 0;
  std::size_t utf8_start_ = 0;  // where the character being decoded began
};

// Characters with no width of their own (combining marks, joiners, variation
// selectors); shared with the snapshot renderer.
bool may_be_zero_width(std::uint32_t cp);

}  // namespace wharf::core
