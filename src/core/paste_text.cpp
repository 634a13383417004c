#include "core/paste_text.hpp"

#include <span>

#include "core/utf8.hpp"
#include "core/vt_parser.hpp"

namespace wharf::core {
namespace {

// What the parser finds in the text: printable characters, TAB and line endings are
// typed, everything else (controls, and every sequence, whole) is left out.
class Typist : public VtHandler {
 public:
  explicit Typist(std::string& bytes) : bytes_(bytes) {}

  std::size_t kept() const { return kept_; }
  std::size_t line_breaks() const { return line_breaks_; }
  // An invalid stretch in text, typed as U+FFFD.
  void replacement() {
    append_utf8(bytes_, kReplacementCharacter);
    after_cr_ = false;
  }

  void print_ascii(std::string_view run) override {
    bytes_ += run;
    kept_ += run.size();
    after_cr_ = false;
  }
  void print(std::span<const char32_t> run) override {
    for (char32_t cp : run) append_utf8(bytes_, static_cast<std::uint32_t>(cp));
    kept_ += run.size();
    after_cr_ = false;
  }
  void execute(char32_t code) override {
    if (code == '\r' || code == '\n') {
      if (!(code == '\n' && after_cr_)) {
        bytes_.push_back('\r');
        ++line_breaks_;
      }
      after_cr_ = code == '\r';  // the LF of a CRLF is part of the Enter already sent
      ++kept_;
      return;
    }
    after_cr_ = false;
    if (code == '\t') {
      bytes_.push_back('\t');
      ++kept_;
    }
  }
  void esc_dispatch(VtCollect, char) override {}
  void csi_dispatch(const VtParams&, VtCollect, char) override {}
  void osc_end(std::string_view, bool) override {}
  void dcs_end(const VtParams&, VtCollect, char, std::string_view, bool) override {}

 private:
  std::string& bytes_;
  std::size_t kept_ = 0;
  std::size_t line_breaks_ = 0;
  bool after_cr_ = false;
};

}  // namespace

PastedText encode_paste(std::string_view text, bool bracketed) {
  PastedText out;
  out.bytes.reserve(text.size() + (bracketed ? kPasteStart.size() + kPasteEnd.size() : 0));
  if (bracketed) out.bytes += kPasteStart;

  Typist typist(out.bytes);
  VtParser parser(typist);
  std::size_t characters = 0;  // code points handed to the parser
  auto valid = [&](std::string_view run) {
    for (char c : run) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    parser.feed(run);
  };
  auto invalid = [&](unsigned char first, std::size_t length) {
    if (length == 1 && first >= 0x80 && first <= 0x9f) {
      // A stray 0x80..0x9F would be an 8-bit C1 control (0x9b is CSI) to a program
      // reading bytes: it goes, like the C1 controls themselves.
      ++out.removed;
    } else if (parser.state() == VtParser::State::kGround) {
      typist.replacement();
      ++out.replaced;
    } else {
      ++out.removed;  // inside a sequence, which goes whole
    }
  };
  Utf8Stream utf8;
  utf8.feed(text, valid, invalid);
  utf8.finish(invalid);  // the text ended inside a character
  // Every character the parser did not type was dropped: controls, sequences (a
  // sequence still open at the end of the text included), U+FEFF.
  out.removed += characters - typist.kept();
  out.line_breaks = typist.line_breaks();

  if (bracketed) out.bytes += kPasteEnd;
  return out;
}

}  // namespace wharf::core
