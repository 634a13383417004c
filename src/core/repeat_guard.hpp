// Makes REP (CSI Ps b, "repeat the previous character") safe to hand to libvterm.
// libvterm 0.1.4 loops for ever on REP when the previous glyph has no width (nothing
// printed yet, or a lone combining mark), which would freeze the daemon's event loop
// on one printf. This filter sits in front of the emulator: it replaces every REP with
// the repeated character written out (at most one row's worth), or with nothing when
// there is no printable previous character. It also keeps escape sequences whole
// across feeds, so it always sees a REP in one piece. For the same reason it drops CSI
// sequences with more arguments than libvterm can hold (it writes past its array), and
// NUL bytes, which terminals ignore and libvterm mishandles inside strings, and turns
// UTF-8 sequences cut short into U+FFFD (libvterm can corrupt memory on them). Since it
// already follows the sequences, it also reports where the alternate screen is entered.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wharf::core {

class RepeatGuard {
 public:
  explicit RepeatGuard(int max_repeat) : max_repeat_(max_repeat) {}
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
