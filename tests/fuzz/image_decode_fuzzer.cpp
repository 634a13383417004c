// Feeds arbitrary bytes to the upload decoder (app/image_decode.hpp): the real image
// libraries (libpng, libjpeg-turbo, giflib, libwebp) behind wharf's own checks. The
// kind comes from the bytes as in the upload path, so the mutations of the seed images
// in tests/fuzz/seeds/image_decode reach every decoder. No crash, leak or sanitizer
// report; an accepted image is within the size caps.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "app/image_decode.hpp"
#include "core/upload_kind.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto kind = wharf::core::sniff_image(bytes);
  if (!kind) return 0;
  auto decoded = wharf::app::decode_image(bytes, *kind);
  if (!decoded) {
    if (decoded.error().code != "bad_image") std::abort();
    return 0;
  }
  const auto& facts = decoded.value();
  if (facts.width == 0 || facts.height == 0 || facts.width > wharf::app::kMaxImageSide ||
      facts.height > wharf::app::kMaxImageSide || facts.frames == 0)
    std::abort();
  return 0;
}
