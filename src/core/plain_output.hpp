// A command's raw output turned into plain text for a reader (the output `run_command`
// returns, docs/api.md): what a person would have read on the screen, line by line,
// without the escape sequences that drew it.
//
// The output is cut into text, controls and sequences by the screen's own tokenizer
// (core::VtParser), so a sequence ends here exactly where it ends on the screen. Dropped:
// every sequence (CSI, OSC, DCS, SOS/PM/APC, other ESC sequences, charset designators
// included, and those opened by an 8-bit C1 introducer such as U+009B), every C1 control
// and every C0 control but TAB and LF; a C0 control inside a sequence still acts, as it
// does on the screen. CRLF is LF; a CR followed by more text on the same line replaces
// the line (a progress bar leaves its last state); BS erases the character before it on
// the line. Invalid UTF-8 in text becomes U+FFFD (inside a sequence it is dropped, as the
// parser drops it, and so is U+FEFF), so the text is always valid UTF-8.
//
// Invariants: input may be cut anywhere (inside a sequence or a character); memory stays
// within head + tail (twice the tail at most, between compactions) + one line + the
// parser's constant buffers, and a line longer than kMaxPlainLineBytes is passed on in
// pieces (a CR then only replaces the last piece). When more than head + tail bytes of
// plain text were made, text() keeps the first head and the last tail bytes, cut at
// character boundaries, and says how many bytes are missing between them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/utf8.hpp"
#include "core/vt_parser.hpp"

namespace wharf::core {

inline constexpr std::size_t kMaxPlainLineBytes = 64 * 1024;

class PlainOutput {
 public:
  PlainOutput(std::size_t head_bytes, std::size_t tail_bytes);
  PlainOutput(const PlainOutput&) = delete;  // the parser points at this object
  PlainOutput& operator=(const PlainOutput&) = delete;

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

  // What the parser finds, turned into lines.
  class Reader : public VtHandler {
   public:
    explicit Reader(PlainOutput& out) : out_(out) {}
    void print_ascii(std::string_view run) override { out_.append_text(run); }
    void print(std::span<const char32_t> run) override;
    void execute(char32_t code) override { out_.control(code); }
    void esc_dispatch(VtCollect, char) override {}
    void csi_dispatch(const VtParams&, VtCollect, char) override {}
    void osc_end(std::string_view, bool) override {}
    void dcs_end(const VtParams&, VtCollect, char, std::string_view, bool) override {}

   private:
    PlainOutput& out_;
    std::string utf8_;  // a run of code points, encoded
  };

  void control(char32_t code);
  void append_text(std::string_view utf8);
  void backspace();

  Kept kept_;
  std::string line_;  // the current line, not yet passed to kept_
  bool cr_pending_ = false;
  Utf8Stream utf8_;  // the parser is fed whole valid characters only
  Reader reader_{*this};
  VtParser parser_{reader_};
};

}  // namespace wharf::core
