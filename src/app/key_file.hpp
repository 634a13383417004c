// Minting the access key and writing the small owner-only files that carry it.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace wharf::app {

// 16 bytes from the kernel's random source, as hex.
core::Result<std::string> mint_key();

// Writes `content` to `path` with mode 0600 from the moment the file exists (a
// temporary created 0600 and renamed over the target, so no reader ever sees a
// half-written or wider-open file).
core::Status write_private_file(const std::filesystem::path& path, std::string_view content);

}  // namespace wharf::app
