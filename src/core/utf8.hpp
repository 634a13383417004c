// UTF-8 encoding of one code point, shared by the screen model and its guard, and a
// byte-at-a-time decoder for text that arrives in pieces (a program's output, a paste).
//
// The decoder follows Unicode's "maximal subpart" practice (Table 3-7): overlong forms,
// surrogates and values past U+10FFFF are refused at the first byte that cannot belong,
// so each invalid stretch stands for exactly one replacement character and the byte that
// broke a sequence starts afresh.
#pragma once

#include <cstdint>
#include <string>

namespace wharf::core {

inline constexpr std::uint32_t kReplacementCharacter = 0xFFFD;

// Appends `cp` encoded as UTF-8; values past U+10FFFF append nothing.
void append_utf8(std::string& out, std::uint32_t cp);

class Utf8Decoder {
 public:
  enum class Step {
    kMore,     // inside a sequence: feed the next byte
    kChar,     // code_point() is complete
    kInvalid,  // this byte alone is not UTF-8 (a stray continuation or a byte never used)
    kRetry,    // the bytes before this one were a sequence cut short; feed this one again
  };

  Step feed(unsigned char byte);
  // Inside an unfinished sequence (which is invalid if the input ends here).
  bool pending() const { return needed_ != 0; }
  void reset() { needed_ = 0; }
  std::uint32_t code_point() const { return code_point_; }

 private:
  std::uint32_t code_point_ = 0;
  int needed_ = 0;  // continuation bytes still expected
  unsigned char lower_ = 0x80;
  unsigned char upper_ = 0xBF;  // the next byte's range (narrower after E0, ED, F0, F4)
};

}  // namespace wharf::core
