// A stand-in for systemd's notification socket in tests: binds a unix datagram socket
// at the path given, prints "listening" once bound, then every datagram received on a
// line of its own (newlines inside one shown as '|'), until SIGTERM or 120 s pass.
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: notify_listener SOCKET_PATH\n");
    return 2;
  }
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (std::strlen(argv[1]) >= sizeof(address.sun_path)) {
    std::fprintf(stderr, "notify_listener: the path is too long\n");
    return 2;
  }
  std::strncpy(address.sun_path, argv[1], sizeof(address.sun_path) - 1);
  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    std::perror("notify_listener");
    return 1;
  }
  std::printf("listening\n");
  std::fflush(stdout);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  char buffer[4096];
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd ready{.fd = fd, .events = POLLIN, .revents = 0};
    if (poll(&ready, 1, 1000) <= 0) continue;
    ssize_t got = recv(fd, buffer, sizeof(buffer), 0);
    if (got <= 0) continue;
    std::string message(buffer, static_cast<std::size_t>(got));
    for (char& c : message)
      if (c == '\n') c = '|';
    std::printf("%s\n", message.c_str());
    std::fflush(stdout);
  }
  unlink(argv[1]);
  return 0;
}
