#include "host/host_launch.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "host/handshake.hpp"

namespace wharf::host {

namespace hp = core::host;
namespace fs = std::filesystem;

namespace {

constexpr int kAnswerWaitMs = 10000;

core::Error errno_error(const std::string& what) {
  return core::Error{what + ": " + std::strerror(errno), "start_failed"};
}

// Reads the host's first answer: `state` then `snapshot`, or `refused`.
core::Result<HostConnection> read_answer(int fd) {
  HostConnection out;
  out.fd = fd;
  hp::FrameReader reader;
  bool have_state = false;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kAnswerWaitMs);
  for (;;) {
    auto frame = read_frame(fd, reader, deadline);
    if (!frame) {
      const std::string& code = frame.error().code;
      if (code == "timeout")
        return core::Error{"the session host did not answer in time", "start_failed"};
      if (code == "gone")
        return core::Error{"the session host went away before answering", "start_failed"};
      if (code == "io")
        return core::Error{"waiting for the session host: " + frame.error().message,
                           "start_failed"};
      return core::Error{"the session host: " + frame.error().message, "protocol"};
    }
    if (frame.value().type == hp::FrameType::kRefused) {
      auto refusal = hp::parse_refusal(frame.value().payload);
      if (!refusal) return core::Error{"the session host refused: " + refusal.error().message};
      return core::Error{refusal.value().message, refusal.value().code};
    }
    if (!have_state) {
      if (frame.value().type != hp::FrameType::kState)
        return core::Error{"the session host answered out of turn", "protocol"};
      auto state = hp::parse_state(frame.value().payload);
      if (!state)
        return core::Error{"the session host's state: " + state.error().message, "protocol"};
      if (state.value().protocol != hp::kProtocolVersion) {
        return core::Error{"its host is wharf " + state.value().version + " (host protocol " +
                               std::to_string(state.value().protocol) + "; this wharf speaks " +
                               std::to_string(hp::kProtocolVersion) + ")",
                           "protocol"};
      }
      out.state = std::move(state.value());
      have_state = true;
      continue;
    }
    if (frame.value().type != hp::FrameType::kSnapshot)
      return core::Error{"the session host sent no snapshot", "protocol"};
    out.snapshot = std::move(frame.value().payload);
    // Whatever followed the snapshot is live output the link delivers next.
    out.leftover = reader.rest();
    return out;
  }
}

}  // namespace

core::Result<HostConnection> launch_host(const hp::SpawnRequest& request,
                                         const fs::path& socket_path, const std::string& title) {
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
    return errno_error("socketpair");
  // Everything the child needs is built before fork: after it, only async-signal-safe
  // calls until exec.
  std::string self = "/proc/self/exe";
  std::string socket_text = socket_path.string();
  std::vector<std::string> args{title, "host", "--socket", socket_text};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t middle = fork();
  if (middle < 0) {
    int err = errno;
    close(pair[0]);
    close(pair[1]);
    errno = err;
    return errno_error("fork");
  }
  if (middle == 0) {
    // A process session of its own, then a second fork so the host is nobody's child:
    // the daemon's death or its terminal's signals never reach it.
    setsid();
    pid_t host = fork();
    if (host != 0) _exit(host < 0 ? 1 : 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
    int null_fd = open("/dev/null", O_RDWR);
    if (null_fd >= 0) {
      dup2(null_fd, 0);
      dup2(null_fd, 1);
      dup2(null_fd, 2);
    }
    if (dup2(pair[1], 3) < 0) _exit(127);
    close_range(4, ~0U, 0);
    execv(self.c_str(), argv.data());
    _exit(127);
  }
  close(pair[1]);
  int status = 0;
  while (waitpid(middle, &status, 0) < 0 && errno == EINTR) {
  }
  if (!write_frame(pair[0], hp::FrameType::kSpawn, hp::to_json(request))) {
    close(pair[0]);
    return core::Error{"the session host did not start", "start_failed"};
  }
  auto answer = read_answer(pair[0]);
  if (!answer) close(pair[0]);
  return answer;
}

core::Result<HostConnection> connect_host(const fs::path& socket_path) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno_error("socket");
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::string path = socket_path.string();
  if (path.size() >= sizeof address.sun_path) {
    close(fd);
    return core::Error{"the socket path is too long: " + path, "unreachable"};
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    return core::Error{"no host answers at " + path, "unreachable"};
  }
  if (!write_frame(fd, hp::FrameType::kHello, hp::to_json(hp::Hello{}))) {
    close(fd);
    return core::Error{"the host at " + path + " hung up", "unreachable"};
  }
  auto answer = read_answer(fd);
  if (!answer) close(fd);
  return answer;
}

std::vector<std::pair<std::uint64_t, fs::path>> host_sockets(const fs::path& dir) {
  std::vector<std::pair<std::uint64_t, fs::path>> out;
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(dir, ec)) {
    std::string name = item.path().filename().string();
    if (!name.ends_with(".sock")) continue;
    std::string stem = name.substr(0, name.size() - 5);
    if (stem.empty() || stem.size() > 18 ||
        stem.find_first_not_of("0123456789") != std::string::npos)
      continue;
    out.emplace_back(std::stoull(stem), item.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace wharf::host
