// The upload directory: where images pasted into the composer land so that a session's
// program can read them. Files are created owner-only, under names the server makes
// (random hex plus the extension of the kind their content shows), with O_EXCL and
// O_NOFOLLOW, so a client's file name never becomes a path and nothing outside the
// directory is ever written. The sweep removes regular files older than a week from
// this directory only (no recursion, no symlinks followed).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace wharf::app {

inline constexpr std::uint64_t kDefaultUploadMaxBytes = 20ull * 1024 * 1024;
inline constexpr auto kUploadMaxAge = std::chrono::hours(24 * 7);

struct StoredUpload {
  std::string path;  // absolute
  std::string name;  // the file's name in the directory
  std::string type;  // MIME type
  std::uint64_t bytes = 0;
};

class UploadStore {
 public:
  UploadStore(std::filesystem::path directory, std::uint64_t max_bytes, bool any_type);

  std::uint64_t max_bytes() const { return max_bytes_; }
  const std::filesystem::path& directory() const { return directory_; }

  // Error codes: "too_large", "unsupported_type", "store_failed".
  core::Result<StoredUpload> store(std::string_view content);
  // Removes files older than `max_age`; returns how many.
  std::size_t sweep(std::chrono::system_clock::duration max_age = kUploadMaxAge);

 private:
  std::filesystem::path directory_;
  std::uint64_t max_bytes_;
  bool any_type_;
};

}  // namespace wharf::app
