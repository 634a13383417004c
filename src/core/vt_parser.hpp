// wharf's one tokenizer for terminal output: a byte-level state machine for ECMA-48 and
// DEC sequences (ground, escape, CSI, OSC, DCS, SOS/PM, APC) that hands what it finds to
// a VtHandler. The screen engine, the plain-text reader, the shell-mark scanner and the
// query filter all read program output through it, so every escape sequence is cut the
// same way everywhere in the daemon.
//
// It follows the transition table of xterm.js 6.0.0 (the page's own emulator), itself the
// VT500 parser of Paul Williams with xterm's additions, code point for code point: the
// bytes are decoded as UTF-8 first (invalid bytes and U+FEFF are dropped, as xterm.js
// drops them, so that server and page see the same characters), C1 controls count only
// as code points U+0080..U+009F, and any code point from U+00A0 up is printable.
//
// Plain text is handed over in runs, not a call per character: printable ASCII as a byte
// run straight from the input, other text as a run of code points.
//
// Invariants: every input is accepted and nothing throws; memory is constant (parameters
// are capped at kMaxParams with kMaxSubParams sub-parameters, values at kMaxParamValue;
// OSC payloads at kMaxOscBytes and DCS payloads at kMaxDcsBytes, past which the string
// is still consumed but reported as overlong); time is linear in the input. A sequence
// may be split across feeds at any byte.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/utf8.hpp"

namespace wharf::core {

// The parameters of a CSI or DCS sequence, as xterm.js keeps them: there is always at
// least one parameter (0 when none was written), an empty parameter reads 0, and a
// parameter may carry sub-parameters (after ':'; -1 when empty).
class VtParams {
 public:
  static constexpr int kMaxParams = 32;
  static constexpr int kMaxSubParams = 32;
  static constexpr std::int32_t kMaxParamValue = 0x7FFFFFFF;

  int size() const { return count_; }
  // The i-th parameter, or 0 past the end.
  std::int32_t operator[](int i) const { return i < count_ ? values_[index(i)] : 0; }
  // The i-th parameter with 0 (or absent) read as `fallback`.
  std::int32_t get(int i, std::int32_t fallback) const {
    std::int32_t v = (*this)[i];
    return v == 0 ? fallback : v;
  }
  bool has_subs(int i) const { return i < count_ && sub_end_[index(i)] > sub_begin_[index(i)]; }
  std::span<const std::int32_t> subs(int i) const {
    if (!has_subs(i)) return {};
    return {subs_.data() + sub_begin_[index(i)],
            static_cast<std::size_t>(sub_end_[index(i)] - sub_begin_[index(i)])};
  }

  void reset();  // one parameter, 0
  void add_param();
  void add_sub_param();
  void add_digit(int digit);

 private:
  static std::size_t index(int i) { return static_cast<std::size_t>(i); }

  std::array<std::int32_t, kMaxParams> values_{};
  std::array<std::uint8_t, kMaxParams> sub_begin_{};
  std::array<std::uint8_t, kMaxParams> sub_end_{};
  std::array<std::int32_t, kMaxSubParams> subs_{};
  int count_ = 1;
  int sub_count_ = 0;
  bool digit_is_sub_ = false;
  bool reject_digits_ = false;
  bool reject_sub_digits_ = false;
};

// Intermediate and private-marker bytes of a sequence, packed as xterm.js packs them
// (each new byte shifted in from the right): "?" is 0x3F, "?$" is 0x3F24.
using VtCollect = std::uint32_t;

constexpr VtCollect vt_collect(std::string_view bytes) {
  VtCollect out = 0;
  for (char c : bytes) out = (out << 8) | static_cast<unsigned char>(c);
  return out;
}

// What the parser found. Every call but the two print calls ends a "join": a combining
// mark after it starts a cell of its own (see Screen).
class VtHandler {
 public:
  virtual ~VtHandler() = default;
  // Printable ASCII, 0x20..0x7E.
  virtual void print_ascii(std::string_view run) = 0;
  // Printable code points (ASCII or from U+00A0 up).
  virtual void print(std::span<const char32_t> run) = 0;
  // A C0 control or a C1 control (U+0080..U+009F) that is executed.
  virtual void execute(char32_t code) = 0;
  virtual void esc_dispatch(VtCollect collect, char final_byte) = 0;
  virtual void csi_dispatch(const VtParams& params, VtCollect collect, char final_byte) = 0;
  // An OSC string ended: `payload` is its UTF-8 text (number, ';', data). `complete` is
  // false when it was cancelled (CAN, SUB) or outgrew kMaxOscBytes.
  virtual void osc_end(std::string_view payload, bool complete) = 0;
  // A DCS string ended; `complete` as for OSC (kMaxDcsBytes).
  virtual void dcs_end(const VtParams& params, VtCollect collect, char final_byte,
                       std::string_view payload, bool complete) = 0;
};

class VtParser {
 public:
  static constexpr std::size_t kMaxOscBytes = 4096;
  static constexpr std::size_t kMaxDcsBytes = 1024;

  enum class State : std::uint8_t {
    kGround,
    kEscape,
    kEscapeIntermediate,
    kCsiEntry,
    kCsiParam,
    kCsiIntermediate,
    kCsiIgnore,
    kSosPmApcString,
    kOscString,
    kDcsEntry,
    kDcsParam,
    kDcsIgnore,
    kDcsIntermediate,
    kDcsPassthrough,
    kCount,
  };

  explicit VtParser(VtHandler& handler) : handler_(handler) {}

  void feed(std::string_view bytes);
  // Back to the ground state, dropping any sequence or character in progress (RIS).
  void reset();
  State state() const { return state_; }

 private:
  void step(char32_t code);  // one code point through the transition table
  void flush_text();
  void ground_text(const unsigned char*& p, const unsigned char* end);
  void put_string(std::string& buffer, std::size_t limit, bool& overflow, char32_t code);

  VtHandler& handler_;
  State state_ = State::kGround;
  Utf8Decoder utf8_;
  VtParams params_;
  VtCollect collect_ = 0;
  std::string osc_;
  bool osc_overflow_ = false;
  std::string dcs_;
  bool dcs_overflow_ = false;
  VtCollect dcs_collect_ = 0;
  char dcs_final_ = 0;
  VtParams dcs_params_;
  static constexpr std::size_t kTextChunk = 1024;
  std::array<char32_t, kTextChunk> text_{};
  std::size_t text_length_ = 0;
};

}  // namespace wharf::core
