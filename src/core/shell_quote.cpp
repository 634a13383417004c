#include "core/shell_quote.hpp"

#include <algorithm>

namespace wharf::core {
namespace {

// Characters no POSIX shell, bash or zsh treats specially anywhere in a word. '=' is safe
// only after the first character (a leading NAME=value is an assignment), '~' never
// (expansion at the start or after ':'/'='), '@', '%', '+', ',' and ':' always.
bool plain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || c == '/' || c == ',' || c == ':' || c == '@' || c == '%' ||
         c == '+';
}

}  // namespace

std::string shell_quote(std::string_view word) {
  if (!word.empty() && std::all_of(word.begin(), word.end(), plain)) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

std::string shell_command_line(std::span<const std::string> words) {
  std::string line;
  for (const std::string& word : words) {
    if (!line.empty()) line += ' ';
    line += shell_quote(word);
  }
  return line;
}

}  // namespace wharf::core
