// Shell integration marks (OSC 133, "semantic prompts") found in a session's output as
// it streams past, so that `run_command` can tell where a command's output starts
// (C), where it ends (D) and with which exit code (PRODUCT.md C6):
//
//   ESC ] 133 ; A  prompt starts      ESC ] 133 ; C  the command's output starts
//   ESC ] 133 ; B  command line starts ESC ] 133 ; D [; exit code]  the command ended
//
// each terminated by BEL or ESC \, with any further ";params" ignored.
//
// Invariants: the scanner sees every byte of every session's output, so it keeps a
// constant few bytes of state, buffers nothing, finds ESC with memchr and passes over
// anything that is not a 133 mark (other OSCs, CSI, text) without storing it. A sequence
// may be split across chunks at any byte. A malformed or overlong (kMaxMarkBytes) mark
// is ignored, like the rest of what it cannot read: the scanner never fails. A mark is
// reported in the chunk where its terminator arrives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace wharf::core {

enum class MarkKind {
  kPromptStart /*A*/,
  kCommandStart /*B*/,
  kOutputStart /*C*/,
  kCommandEnd /*D*/
};

struct ShellMark {
  MarkKind kind;
  std::optional<int> exit_code;  // D;N with N all digits (at most 9 of them)
  std::size_t end;               // offset in the chunk just past the sequence's terminator
  std::size_t begin;  // offset where it began in this chunk, 0 if it began in an earlier one
};

// Longest "133;..." body still read as a mark; longer ones are skipped.
inline constexpr std::size_t kMaxMarkBytes = 256;

class ShellMarkScanner {
 public:
  // Appends the marks completed in `chunk`, in order.
  void feed(std::string_view chunk, std::vector<ShellMark>& out);

 private:
  enum class State : std::uint8_t { kGround, kEscape, kOsc, kOscEscape };
  // How far a 133 mark's body has been read.
  enum class Phase : std::uint8_t { kPrefix, kLetter, kAfterLetter, kCode, kParams, kNotAMark };

  void start_osc(std::size_t begin);
  void osc_body(unsigned char c);
  void finish(std::size_t end, std::vector<ShellMark>& out);

  State state_ = State::kGround;
  Phase phase_ = Phase::kPrefix;
  MarkKind kind_ = MarkKind::kPromptStart;
  std::uint8_t prefix_matched_ = 0;  // bytes of "133;" seen
  std::uint8_t code_digits_ = 0;
  bool code_valid_ = true;
  int code_ = 0;
  std::size_t body_bytes_ = 0;
  std::size_t begin_ = 0;   // where the current sequence began in this chunk
  std::size_t esc_at_ = 0;  // where an ESC inside the OSC was, in this chunk
};

}  // namespace wharf::core
