#include "core/paste_text.hpp"

#include "core/utf8.hpp"

namespace wharf::core {
namespace {

bool is_dropped_control(std::uint32_t cp) {
  return (cp < 0x20 && cp != '\t') || (cp >= 0x7f && cp <= 0x9f);
}

}  // namespace

PastedText encode_paste(std::string_view text, bool bracketed) {
  PastedText out;
  out.bytes.reserve(text.size() + (bracketed ? kPasteStart.size() + kPasteEnd.size() : 0));
  if (bracketed) out.bytes += kPasteStart;

  Utf8Decoder decoder;
  bool after_cr = false;  // the LF of a CRLF is part of the Enter already sent
  auto replace = [&] {
    append_utf8(out.bytes, kReplacementCharacter);
    ++out.replaced;
    after_cr = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto byte = static_cast<unsigned char>(text[i]);
    switch (decoder.feed(byte)) {
      case Utf8Decoder::Step::kMore:
        continue;
      case Utf8Decoder::Step::kRetry:
        replace();
        --i;  // the byte that broke the sequence starts afresh
        continue;
      case Utf8Decoder::Step::kInvalid:
        // A stray 0x80..0x9F would be an 8-bit C1 control (0x9b is CSI) to a program
        // reading bytes: it goes, like the C1 controls themselves.
        if (byte >= 0x80 && byte <= 0x9f) {
          ++out.removed;
          after_cr = false;
        } else {
          replace();
        }
        continue;
      case Utf8Decoder::Step::kChar:
        break;
    }
    std::uint32_t cp = decoder.code_point();
    if (cp == '\r' || cp == '\n') {
      if (!(cp == '\n' && after_cr)) out.bytes.push_back('\r');
      after_cr = cp == '\r';
      continue;
    }
    after_cr = false;
    if (is_dropped_control(cp)) {
      ++out.removed;
      continue;
    }
    append_utf8(out.bytes, cp);
  }
  if (decoder.pending()) replace();  // the text ended inside a character

  if (bracketed) out.bytes += kPasteEnd;
  return out;
}

}  // namespace wharf::core
