// UTF-8 encoding of one code point, and wharf's one UTF-8 decoder: a byte-at-a-time
// decoder for text that arrives in pieces (a program's output, a paste; the screen's
// parser decodes with it), and Utf8Stream on top of it, which splits such text into runs
// of whole valid characters and invalid stretches (the plain-text reader, the paste
// encoder and MCP's line repair go through it).
//
// The decoder follows Unicode's "maximal subpart" practice (Table 3-7): overlong forms,
// surrogates and values past U+10FFFF are refused at the first byte that cannot belong,
// so each invalid stretch stands for exactly one replacement character and the byte that
// broke a sequence starts afresh.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace wharf::core {

inline constexpr std::uint32_t kReplacementCharacter = 0xFFFD;

// Appends `cp` encoded as UTF-8; values past U+10FFFF append nothing.
void append_utf8(std::string& out, std::uint32_t cp);

// How many bytes at the end of `bytes` begin a UTF-8 character that is not complete yet
// (0 to 3): what a reader of a stream holds back until the next piece arrives.
std::size_t utf8_incomplete_tail(std::string_view bytes);

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

// Text that arrives in pieces, cut anywhere, handed on as runs of whole valid UTF-8
// characters, `valid(std::string_view run)`, and invalid stretches, `invalid(unsigned char
// first_byte, std::size_t length)` (each one U+FFFD's worth, by Utf8Decoder's rules), in
// the order they came. A character cut by the end of a piece is kept (at most three bytes)
// until the next piece completes or breaks it; finish() says the text ended.
class Utf8Stream {
 public:
  template <typename Valid, typename Invalid>
  void feed(std::string_view bytes, Valid&& valid, Invalid&& invalid);
  // The text ends here: a character still unfinished is an invalid stretch.
  template <typename Invalid>
  void finish(Invalid&& invalid) {
    if (partial_size_ == 0) return;
    invalid(static_cast<unsigned char>(partial_[0]), partial_size_);
    decoder_.reset();
    partial_size_ = 0;
  }
  // Inside a character that the next piece must finish.
  bool pending() const { return partial_size_ != 0; }

 private:
  Utf8Decoder decoder_;
  std::array<char, 4> partial_{};
  std::size_t partial_size_ = 0;
};

template <typename Valid, typename Invalid>
void Utf8Stream::feed(std::string_view bytes, Valid&& valid, Invalid&& invalid) {
  std::size_t i = 0;
  // A character begun in an earlier piece.
  while (partial_size_ != 0 && i < bytes.size()) {
    char byte = bytes[i];
    Utf8Decoder::Step step = decoder_.feed(static_cast<unsigned char>(byte));
    if (step == Utf8Decoder::Step::kRetry) {  // `byte` starts afresh below
      invalid(static_cast<unsigned char>(partial_[0]), partial_size_);
      partial_size_ = 0;
      break;
    }
    partial_[partial_size_++] = byte;
    ++i;
    if (step == Utf8Decoder::Step::kChar) {
      valid(std::string_view(partial_.data(), partial_size_));
      partial_size_ = 0;
    }
  }
  if (partial_size_ != 0) return;
  std::size_t run = i;    // the valid run not yet handed on starts here
  std::size_t start = i;  // the character being decoded starts here
  auto hand_on = [&](std::size_t end) {
    if (end > run) valid(bytes.substr(run, end - run));
  };
  while (i < bytes.size()) {
    auto byte = static_cast<unsigned char>(bytes[i]);
    if (byte < 0x80 && !decoder_.pending()) {  // ASCII, the common case
      ++i;
      continue;
    }
    if (!decoder_.pending()) start = i;
    switch (decoder_.feed(byte)) {
      case Utf8Decoder::Step::kMore:
      case Utf8Decoder::Step::kChar:
        ++i;
        break;
      case Utf8Decoder::Step::kInvalid:
        hand_on(start);
        invalid(byte, 1);
        run = ++i;
        break;
      case Utf8Decoder::Step::kRetry:  // bytes[start, i) were cut short; `byte` starts afresh
        hand_on(start);
        invalid(static_cast<unsigned char>(bytes[start]), i - start);
        run = i;
        break;
    }
  }
  if (!decoder_.pending()) {
    hand_on(bytes.size());
    return;
  }
  hand_on(start);
  partial_size_ = bytes.size() - start;
  bytes.copy(partial_.data(), partial_size_, start);
}

}  // namespace wharf::core
