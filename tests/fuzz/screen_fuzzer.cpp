// Arbitrary program output into the screen model, then its snapshot into a fresh model:
// nothing may crash or grow past its bounds, and the copy has the same size, cursor
// row and screen (primary or alternate). Exact cell equality is proven on recorded
// streams by the unit tests; here, odd overwrites of half a wide character can still
// differ (kept in tests/fuzz/known/), so cells are not compared.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/screen.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  wharf::core::Screen original({40, 12}, 16 * 1024);
  original.feed(bytes);
  if (original.scrollback_bytes() > 16 * 1024) std::abort();
  (void)original.take_replies();
  wharf::core::Screen replica({40, 12}, 16 * 1024);
  replica.feed(original.snapshot());
  auto a = original.text();
  auto b = replica.text();
  if (a.lines.size() != b.lines.size()) std::abort();
  if (a.cursor.row != b.cursor.row) std::abort();
  if (a.alternate_screen != b.alternate_screen || a.title != b.title) std::abort();
  return 0;
}
