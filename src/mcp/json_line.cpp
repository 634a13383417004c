#include "mcp/json_line.hpp"

#include "core/utf8.hpp"

namespace wharf::mcp {
namespace json = boost::json;

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

json::object envelope(const json::value& id) {
  return json::object{{"jsonrpc", "2.0"}, {"id", id}};
}

}  // namespace

std::string valid_utf8(std::string text) {
  // core's decoder finds the invalid stretches; most lines have none and are not copied.
  core::Utf8Stream stream;
  std::string out;
  bool repaired = false;
  std::size_t clean = 0;  // text[0, clean) is valid, up to the first invalid stretch
  auto valid = [&](std::string_view run) {
    if (repaired) {
      out += run;
    } else {
      clean += run.size();
    }
  };
  auto invalid = [&](unsigned char, std::size_t) {
    if (!repaired) {
      out.reserve(text.size() + 16);
      out.assign(text, 0, clean);
      repaired = true;
    }
    out += kReplacement;
  };
  stream.feed(text, valid, invalid);
  stream.finish(invalid);
  return repaired ? out : text;
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
