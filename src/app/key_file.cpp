#include "app/key_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "core/access_key.hpp"

namespace wharf::app {

core::Result<std::string> mint_key() {
  std::array<std::uint8_t, core::kKeyBytes> bytes{};
  std::size_t filled = 0;
  while (filled < bytes.size()) {
    ssize_t n = getrandom(bytes.data() + filled, bytes.size() - filled, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return core::Error{std::string("cannot read random bytes: ") + std::strerror(errno)};
    }
    filled += static_cast<std::size_t>(n);
  }
  return core::key_from_bytes(bytes);
}

core::Status write_private_file(const std::filesystem::path& path, std::string_view content) {
  std::filesystem::path temp = path;
  temp += ".tmp." + std::to_string(getpid());
  unlink(temp.c_str());
  int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return core::Error{"cannot write " + path.string() + ": " + std::strerror(errno)};
  std::size_t written = 0;
  while (written < content.size()) {
    ssize_t n = write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      close(fd);
      unlink(temp.c_str());
      return core::Error{"cannot write " + path.string() + ": " + std::strerror(err)};
    }
    written += static_cast<std::size_t>(n);
  }
  fchmod(fd, 0600);  // regardless of the umask
  close(fd);
  if (rename(temp.c_str(), path.c_str()) != 0) {
    int err = errno;
    unlink(temp.c_str());
    return core::Error{"cannot write " + path.string() + ": " + std::strerror(err)};
  }
  return core::ok_status();
}

}  // namespace wharf::app
