// Whether an uploaded image really is one: decoded to the last pixel by the image
// library of its kind (libpng, libjpeg-turbo, giflib, libwebp), not judged by its first
// bytes alone, so a PNG header followed by a shell script, a truncated file or an image
// with something appended after its end is refused. The kind comes from
// core::sniff_image(); this says whether the whole file is that kind and nothing else.
//
// Sizes are checked from the header before any pixel buffer is allocated (kMaxImageSide,
// kMaxImagePixels per frame, kMaxDecodedPixels over every frame of an animation), so a
// small file that claims a huge canvas costs nothing. Rows are decoded one at a time
// where the library allows (PNG, JPEG, GIF); WebP decodes a frame at a time.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/result.hpp"
#include "core/upload_kind.hpp"

namespace wharf::app {

inline constexpr std::uint32_t kMaxImageSide = 16384;
inline constexpr std::uint64_t kMaxImagePixels = 40'000'000;     // one frame, 40 MP
inline constexpr std::uint64_t kMaxDecodedPixels = 120'000'000;  // every frame together

struct ImageFacts {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t frames = 1;
};

// Decodes all of `bytes` as `kind` (from core::sniff_image). Errors carry code
// "bad_image" and say what was wrong ("the PNG is cut short", "... has N bytes after its
// end"...), never a library's raw text alone.
core::Result<ImageFacts> decode_image(std::string_view bytes, const core::UploadKind& kind);

}  // namespace wharf::app
