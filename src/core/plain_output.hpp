// A command's raw output turned into plain text for a reader (the output `run_command`
// returns, PRODUCT.md C6): what a person would have read on the screen, line by line,
// without the escape sequences that drew it.
//
// Dropped: CSI, OSC (to BEL or ST), DCS/SOS/PM/APC (to ST), other ESC sequences
// (charset designators included) and C0 controls but TAB and LF. CRLF is LF; a CR
// followed by more text on the same line replaces the line (a progress bar leaves its
// last state); BS erases the character before it on the line. C1 controls are dropped and
// invalid UTF-8 becomes U+FFFD, so the text is always valid UTF-8.
//
// Invariants: input may be cut anywhere (inside a sequence or a character); memory stays
// within head + tail (twice the tail at most, between compactions) + one line, and a line
// longer than kMaxPlainLineBytes is passed on in pieces (a CR then only replaces the last
// piece). When more than head + tail bytes of plain text were made, text() keeps the
// first head and the last tail bytes, cut at character boundaries, and says how many
// bytes are missing between them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/utf8.hpp"

namespace wharf::core {

inline constexpr std::size_t kMaxPlainLineBytes = 64 * 1024;

class PlainOutput {
 public:
  PlainOutput(std::size_t head_bytes, std::size_t tail_bytes);

  void feed(std::string_view raw);
  // The plain text so far, the unfinished last line included. If bytes were omitted,
  // the line "[wharf: N bytes of output omitted]" sits between head and tail.
  std::string text() const;
  bool truncated() const;
  // Plain bytes made so far (kept or omitted; text a CR or BS took back not counted).
  std::uint64_t plain_bytes() const;

 private:
  // The first head and last tail bytes of a stream of whole UTF-8 characters.
  class Kept {
   public:
    Kept(std::size_t head_bytes, std::size_t tail_bytes)
        : head_cap_(head_bytes), tail_cap_(tail_bytes) {}
    void append(std::string_view text);
    std::string render() const;
    std::uint64_t omitted() const { return omitted_; }
    std::uint64_t total() const { return total_; }

   private:
    std::size_t head_cap_;
    std::size_t tail_cap_;
    std::string head_;
    bool head_full_ = false;
    std::string tail_;            // kept: tail_.substr(tail_start_)
    std::size_t tail_start_ = 0;  // compacted once past tail_cap_, so appends stay O(1)
    std::uint64_t omitted_ = 0;
    std::uint64_t total_ = 0;
  };

  enum class State : std::uint8_t {
    kGround,
    kEscape,        // after ESC
    kIntermediate,  // ESC ( and the like, up to their final byte
    kCsi,
    kOsc,           // to BEL or ST
    kString,        // DCS, SOS, PM, APC: to ST
    kStringEscape,  // ESC inside an OSC or string: ST if '\' follows
  };

  void byte(unsigned char c);
  void control(unsigned char c);
  void character(std::string_view utf8);
  void flush_broken_character();
  void backspace();

  Kept kept_;
  std::string line_;  // the current line, not yet passed to kept_
  bool cr_pending_ = false;
  State state_ = State::kGround;
  Utf8Decoder decoder_;
};

}  // namespace wharf::core
