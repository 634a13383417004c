#include "mcp/json_line.hpp"

namespace wharf::mcp {
namespace json = boost::json;

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the well-formed UTF-8 sequence starting at `at`, or 0 when it is
// ill-formed; then `*bad` is how many bytes form its maximal subpart (at least 1), the
// bytes one U+FFFD stands for.
std::size_t sequence_length(std::string_view s, std::size_t at, std::size_t* bad) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char lead = byte(at);
  if (lead < 0x80) return 1;
  std::size_t need = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte (Unicode table 3-7)
  if (lead >= 0xC2 && lead <= 0xDF) {
    need = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    need = 2;
    if (lead == 0xE0) lo = 0xA0;  // no overlong forms
    if (lead == 0xED) hi = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    need = 3;
    if (lead == 0xF0) lo = 0x90;
    if (lead == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
  } else {
    *bad = 1;
    return 0;
  }
  for (std::size_t k = 1; k <= need; ++k) {
    std::size_t i = at + k;
    unsigned char min = k == 1 ? lo : 0x80, max = k == 1 ? hi : 0xBF;
    if (i >= s.size() || byte(i) < min || byte(i) > max) {
      *bad = k;
      return 0;
    }
  }
  return need + 1;
}

json::object envelope(const json::value& id) {
  return json::object{{"jsonrpc", "2.0"}, {"id", id}};
}

}  // namespace

std::string valid_utf8(std::string text) {
  std::size_t at = 0, bad = 0;
  while (at < text.size()) {  // most lines are valid: copy nothing until a bad byte
    std::size_t n = sequence_length(text, at, &bad);
    if (n == 0) break;
    at += n;
  }
  if (at == text.size()) return text;
  std::string out(text, 0, at);
  out.reserve(text.size() + 16);
  while (at < text.size()) {
    std::size_t n = sequence_length(text, at, &bad);
    if (n == 0) {
      out += kReplacement;
      at += bad;
    } else {
      out.append(text, at, n);
      at += n;
    }
  }
  return out;
}

std::string_view utf8_prefix(std::string_view text, std::size_t max) {
  if (text.size() <= max) return text;
  std::size_t cut = max;
  // Back up over at most three continuation bytes to the lead byte of the sequence the
  // cut would split; a longer run is ill-formed anyway and valid_utf8 repairs it.
  for (int i = 0; i < 3 && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80; ++i)
    --cut;
  return text.substr(0, cut);
}

std::string to_line(const json::object& message) {
  return valid_utf8(json::serialize(message));
}

std::string result_response(const json::value& id, json::object result) {
  json::object message = envelope(id);
  message["result"] = std::move(result);
  return to_line(message);
}

std::string error_response(const json::value& id, int code, std::string_view message) {
  json::object reply = envelope(id);
  reply["error"] = json::object{{"code", code}, {"message", message}};
  return to_line(reply);
}

}  // namespace wharf::mcp
