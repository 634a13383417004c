// Arbitrary bytes into VtParser alone, with a handler that checks what the parser promises
// its handlers (core/vt_parser.hpp): parameters within their caps (1..kMaxParams, values
// 0..kMaxParamValue, sub-parameters -1..kMaxParamValue and at most kMaxSubParams of them),
// print runs of printable code points only (ASCII 0x20..0x7E, or U+00A0..U+10FFFF without
// U+FEFF and surrogates), controls only C0 or C1, final bytes in their ranges, string
// payloads valid UTF-8 within kMaxOscBytes / kMaxDcsBytes. And a sequence may be split at
// any byte: fed one byte at a time, the input gives the same events (text runs merged) as
// fed whole.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/utf8.hpp"
#include "core/vt_parser.hpp"

namespace {

using wharf::core::VtCollect;
using wharf::core::VtParams;
using wharf::core::VtParser;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "vt_parser_fuzzer: %s\n", what);
  std::abort();
}

bool printable(char32_t c) {
  if (c >= 0x20 && c < 0x7F) return true;
  return c >= 0xA0 && c <= 0x10FFFF && c != 0xFEFF && (c < 0xD800 || c > 0xDFFF);
}

// Intermediate bytes (0x20..0x2F) and private markers (0x3C..0x3F), at most 4 of them
// recorded (older ones shifted out).
void check_collect(VtCollect collect) {
  for (int i = 0; i < 4; ++i) {
    unsigned b = (collect >> (8 * i)) & 0xFFu;
    if (b != 0 && (b < 0x20 || b > 0x3F)) fail("collected a byte outside 0x20..0x3F");
  }
}

void check_params(const VtParams& p) {
  if (p.size() < 1 || p.size() > VtParams::kMaxParams) fail("parameter count out of range");
  std::size_t subs = 0;
  for (int i = 0; i < p.size(); ++i) {
    if (p[i] < 0) fail("negative parameter");
    for (std::int32_t s : p.subs(i))
      if (s < -1) fail("sub-parameter below -1");
    subs += p.subs(i).size();
  }
  if (subs > static_cast<std::size_t>(VtParams::kMaxSubParams)) fail("too many sub-parameters");
  if (p[p.size()] != 0 || p[VtParams::kMaxParams + 5] != 0) fail("parameter past the end not 0");
}

bool valid_utf8(std::string_view s) {
  wharf::core::Utf8Decoder d;
  for (char ch : s) {
    auto step = d.feed(static_cast<unsigned char>(ch));
    if (step == wharf::core::Utf8Decoder::Step::kInvalid ||
        step == wharf::core::Utf8Decoder::Step::kRetry)
      return false;
  }
  return !d.pending();
}

// Records every event as text (consecutive print runs merged into one) and checks it.
class Recorder final : public wharf::core::VtHandler {
 public:
  std::vector<std::u32string> events;

  void print_ascii(std::string_view run) override {
    if (run.empty()) fail("empty ASCII run");
    for (char c : run)
      if (c < 0x20 || c > 0x7E) fail("non-printable byte in an ASCII run");
    for (char c : run) text().push_back(static_cast<unsigned char>(c));
  }
  void print(std::span<const char32_t> run) override {
    if (run.empty()) fail("empty run");
    for (char32_t c : run)
      if (!printable(c)) fail("non-printable code point in a run");
    text().append(run.begin(), run.end());
  }
  void execute(char32_t code) override {
    if (!(code < 0x20 || (code >= 0x80 && code <= 0x9F))) fail("executed a non-control");
    push(U"X", {code});
  }
  void esc_dispatch(VtCollect collect, char final_byte) override {
    check_collect(collect);
    if (final_byte < 0x30 || final_byte > 0x7E) fail("ESC final byte out of range");
    push(U"E", {collect, static_cast<char32_t>(final_byte)});
  }
  void csi_dispatch(const VtParams& params, VtCollect collect, char final_byte) override {
    check_params(params);
    check_collect(collect);
    if (final_byte < 0x40 || final_byte > 0x7E) fail("CSI final byte out of range");
    push(U"C", params_of(params, collect, final_byte));
  }
  void osc_end(std::string_view payload, bool complete) override {
    if (payload.size() > VtParser::kMaxOscBytes) fail("OSC payload past its cap");
    if (!valid_utf8(payload)) fail("OSC payload not UTF-8");
    for (char c : payload)
      if (static_cast<unsigned char>(c) < 0x20) fail("control in an OSC payload");
    std::u32string e = U"O";
    e.push_back(complete ? 1 : 0);
    for (char c : payload) e.push_back(static_cast<unsigned char>(c));
    events.push_back(std::move(e));
  }
  void dcs_end(const VtParams& params, VtCollect collect, char final_byte, std::string_view payload,
               bool complete) override {
    check_params(params);
    check_collect(collect);
    if (final_byte < 0x40 || final_byte > 0x7E) fail("DCS final byte out of range");
    if (payload.size() > VtParser::kMaxDcsBytes) fail("DCS payload past its cap");
    if (!valid_utf8(payload)) fail("DCS payload not UTF-8");
    std::u32string e = U"D" + params_of(params, collect, final_byte);
    e.push_back(complete ? 1 : 0);
    for (char c : payload) e.push_back(static_cast<unsigned char>(c));
    events.push_back(std::move(e));
  }
  void clear() {
    events.clear();
    in_text_ = false;
  }

 private:
  bool in_text_ = false;

  std::u32string& text() {
    if (!in_text_) events.push_back(U"T");
    in_text_ = true;
    return events.back();
  }
  void push(std::u32string kind, std::u32string body) {
    in_text_ = false;
    events.push_back(kind + body);
  }
  static std::u32string params_of(const VtParams& p, VtCollect collect, char final_byte) {
    std::u32string out{collect, static_cast<char32_t>(final_byte)};
    for (int i = 0; i < p.size(); ++i) {
      out.push_back(static_cast<char32_t>(p[i]));
      out.push_back(U'[');
      for (std::int32_t s : p.subs(i)) out.push_back(static_cast<char32_t>(s));
      out.push_back(U']');
    }
    return out;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Recorder whole;
  VtParser a(whole);
  a.feed(bytes);

  Recorder split;
  VtParser b(split);
  for (std::size_t i = 0; i < size; ++i) b.feed(bytes.substr(i, 1));
  if (a.state() != b.state()) fail("state depends on where the input was cut");
  if (whole.events != split.events) fail("events depend on where the input was cut");

  // After a reset the parser is back in the ground state: plain text prints as itself.
  a.reset();
  if (a.state() != VtParser::State::kGround) fail("reset left a state");
  whole.clear();
  a.feed("ok");
  if (whole.events.size() != 1 || whole.events[0] != U"Tok") fail("text after reset");
  return 0;
}
