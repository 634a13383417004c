#include "app/upload_store.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "app/image_decode.hpp"
#include "app/key_file.hpp"
#include "app/state_paths.hpp"
#include "core/upload_kind.hpp"

namespace wharf::app {
namespace fs = std::filesystem;

UploadStore::UploadStore(fs::path directory, std::uint64_t max_bytes, bool any_type)
    : directory_(std::move(directory)), max_bytes_(max_bytes), any_type_(any_type) {}

core::Result<StoredUpload> UploadStore::store(std::string_view content) {
  if (content.size() > max_bytes_)
    return core::Error{"the file is larger than " + std::to_string(max_bytes_ >> 20) + " MiB",
                       "too_large"};
  auto kind = core::sniff_image(content);
  if (!kind && !any_type_)
    return core::Error{"only PNG, JPEG, GIF and WebP images can be uploaded (judged by content)",
                       "unsupported_type"};
  // The first bytes only say what a file claims to be: it is stored as an image only if
  // it decodes whole as one. Where any file is allowed, one that does not is just a file.
  if (kind) {
    if (auto decoded = decode_image(content, *kind); !decoded) {
      if (!any_type_)
        return core::Error{decoded.error().message +
                               "; only whole PNG, JPEG, GIF and WebP "
                               "images can be uploaded",
                           "unsupported_type"};
      kind.reset();
    }
  }
  core::UploadKind chosen = kind.value_or(core::kOtherFile);
  if (auto made = ensure_private_dir(directory_); !made)
    return core::Error{made.error().message, "store_failed"};
  // 16 random bytes as hex, like the key: nothing about the name comes from the client.
  auto random = mint_key();
  if (!random) return core::Error{random.error().message, "store_failed"};
  std::string name = random.value() + std::string(chosen.extension);
  fs::path path = directory_ / name;
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    return core::Error{"cannot store the upload: " + std::string(std::strerror(errno)),
                       "store_failed"};
  std::size_t written = 0;
  while (written < content.size()) {
    ssize_t n = write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = errno;
      close(fd);
      unlink(path.c_str());
      return core::Error{"cannot store the upload: " + std::string(std::strerror(err)),
                         "store_failed"};
    }
    written += static_cast<std::size_t>(n);
  }
  close(fd);
  return StoredUpload{.path = path.string(),
                      .name = name,
                      .type = std::string(chosen.type),
                      .bytes = content.size()};
}

std::size_t UploadStore::sweep(std::chrono::system_clock::duration max_age) {
  std::error_code ec;
  std::size_t removed = 0;
  auto cutoff = std::chrono::system_clock::now() - max_age;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory_, ec)) {
    struct stat st {};
    // lstat: a symlink is looked at as itself, never followed out of the directory.
    if (lstat(entry.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    auto modified = std::chrono::system_clock::from_time_t(st.st_mtime);
    if (modified < cutoff && unlink(entry.path().c_str()) == 0) ++removed;
  }
  return removed;
}

}  // namespace wharf::app
