// What an uploaded file is, judged by its first bytes, never by its name: a PNG, JPEG,
// GIF or WebP image, or something else. The server picks the stored file's name (random)
// and its extension (from the kind), so nothing a client sends becomes part of a path.
#pragma once

#include <optional>
#include <string_view>

namespace wharf::core {

struct UploadKind {
  std::string_view type;       // MIME type: "image/png"
  std::string_view extension;  // ".png"
};

// The image kind of `bytes`, if it is one wharf accepts by default.
std::optional<UploadKind> sniff_image(std::string_view bytes);

// For files accepted when any type is allowed.
inline constexpr UploadKind kOtherFile{"application/octet-stream", ".bin"};

}  // namespace wharf::core
