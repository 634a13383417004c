#include "core/utf8.hpp"

namespace wharf::core {

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x110000) {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::size_t utf8_incomplete_tail(std::string_view bytes) {
  // Walk back over at most three continuation bytes to the byte that leads them.
  std::size_t n = bytes.size();
  for (std::size_t back = 1; back <= 4 && back <= n; ++back) {
    auto byte = static_cast<unsigned char>(bytes[n - back]);
    if ((byte & 0xC0) == 0x80) continue;  // a continuation byte
    std::size_t length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
    return byte >= 0xC0 && byte <= 0xF4 && length > back ? back : 0;
  }
  return 0;
}

Utf8Decoder::Step Utf8Decoder::feed(unsigned char byte) {
  if (needed_ != 0) {
    if (byte < lower_ || byte > upper_) {
      needed_ = 0;
      return Step::kRetry;
    }
    code_point_ = (code_point_ << 6) | (byte & 0x3Fu);
    lower_ = 0x80;
    upper_ = 0xBF;
    return --needed_ == 0 ? Step::kChar : Step::kMore;
  }
  if (byte < 0x80) {
    code_point_ = byte;
    return Step::kChar;
  }
  lower_ = 0x80;
  upper_ = 0xBF;
  if (byte >= 0xC2 && byte <= 0xDF) {
    code_point_ = byte & 0x1Fu;
    needed_ = 1;
  } else if (byte >= 0xE0 && byte <= 0xEF) {
    code_point_ = byte & 0x0Fu;
    needed_ = 2;
    if (byte == 0xE0) lower_ = 0xA0;  // shorter forms are overlong
    if (byte == 0xED) upper_ = 0x9F;  // ED A0..BF would be a surrogate
  } else if (byte >= 0xF0 && byte <= 0xF4) {
    code_point_ = byte & 0x07u;
    needed_ = 3;
    if (byte == 0xF0) lower_ = 0x90;
    if (byte == 0xF4) upper_ = 0x8F;  // past U+10FFFF
  } else {
    return Step::kInvalid;  // 80..BF alone, C0, C1 (overlong) and F5..FF
  }
  return Step::kMore;
}

}  // namespace wharf::core
