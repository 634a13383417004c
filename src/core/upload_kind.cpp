#include "core/upload_kind.hpp"

namespace wharf::core {

std::optional<UploadKind> sniff_image(std::string_view bytes) {
  using namespace std::string_view_literals;
  if (bytes.starts_with("\x89PNG\r\n\x1a\n"sv)) return UploadKind{"image/png", ".png"};
  if (bytes.starts_with("\xff\xd8\xff"sv)) return UploadKind{"image/jpeg", ".jpg"};
  if (bytes.starts_with("GIF87a"sv) || bytes.starts_with("GIF89a"sv))
    return UploadKind{"image/gif", ".gif"};
  if (bytes.size() >= 12 && bytes.starts_with("RIFF"sv) && bytes.substr(8, 4) == "WEBP"sv)
    return UploadKind{"image/webp", ".webp"};
  return std::nullopt;
}

}  // namespace wharf::core
