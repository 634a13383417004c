#include "host/handshake.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace wharf::host {

namespace hp = core::host;

bool write_frame(int fd, hp::FrameType type, std::string_view payload) {
  std::string frame = hp::encode_frame(type, payload);
  std::string_view bytes = frame;
  while (!bytes.empty()) {
    ssize_t n = send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

core::Result<hp::Frame> read_frame(int fd, hp::FrameReader& reader,
                                   std::chrono::steady_clock::time_point deadline) {
  char buffer[16 * 1024];
  for (;;) {
    if (auto frame = reader.next()) return std::move(*frame);
    if (reader.failed()) return core::Error{reader.error(), "protocol"};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) return core::Error{"no answer in time", "timeout"};
    pollfd p{fd, POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno != EINTR) return core::Error{std::strerror(errno), "io"};
    if (ready <= 0) continue;
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return core::Error{"the peer went away", "gone"};
    reader.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
  }
}

}  // namespace wharf::host
