// Arbitrary program output into the screen model, then its snapshot into a fresh model:
// nothing may crash, hang or grow past its bounds (libvterm 0.1.4 did all three; see
// core/emulator_guard.hpp and tests/fuzz/known/), and the copy has the same size, title
// and screen (primary or alternate). Exact cells and cursor are proven on recorded
// streams by the unit tests; random input still finds corners (half-overwritten wide
// characters, origin mode set outside the scroll region) where they differ.
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
  if (a.alternate_screen != b.alternate_screen || a.title != b.title) std::abort();
  return 0;
}
