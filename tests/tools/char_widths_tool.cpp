// Test helper: prints core::char_width for every code point U+0000..U+10FFFF as runs of
// equal width, one per line, "FIRST LAST WIDTH" with the code points in hex. The xterm.js
// agreement test (tests/unit/xterm/char_width.test.mjs) checks every one against the
// page's Unicode 11 addon.
//
//   wharf_char_widths_tool
#include <cstdio>

#include "core/char_width.hpp"

int main() {
  char32_t first = 0;
  int width = wharf::core::char_width(0);
  for (char32_t cp = 1; cp <= 0x110000; ++cp) {
    int next = cp <= 0x10FFFF ? wharf::core::char_width(cp) : -1;  // -1 ends the last run
    if (next == width) continue;
    std::printf("%X %X %d\n", static_cast<unsigned>(first), static_cast<unsigned>(cp - 1), width);
    first = cp;
    width = next;
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}
