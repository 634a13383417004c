// How a name from a request or a file appears in an error message: printable ASCII only
// (anything else becomes '?'), and at most `max` bytes with "..." after a cut. A message
// can then neither carry terminal escapes to whoever prints it nor a long secret pasted
// into the wrong field.
#pragma once

#include <string>
#include <string_view>

namespace wharf::core {

inline std::string shown_text(std::string_view text, std::size_t max = 40) {
  std::string out;
  for (char c : text.substr(0, max)) {
    auto u = static_cast<unsigned char>(c);
    out.push_back(u >= 0x20 && u < 0x7f ? c : '?');
  }
  if (text.size() > max) out += "...";
  return out;
}

}  // namespace wharf::core
