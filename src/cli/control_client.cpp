#include "cli/control_client.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "app/state_paths.hpp"

namespace wharf::cli {

core::Result<boost::json::object> call_daemon(const std::string& state_dir,
                                              boost::json::object request) {
  auto paths = app::resolve_state_paths(
      state_dir.empty() ? std::nullopt : std::optional<std::filesystem::path>(state_dir));
  std::string path = paths.socket_file().string();
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) return core::Error{"socket path too long: " + path};
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return core::Error{std::string("cannot create a socket: ") + std::strerror(errno)};
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    int err = errno;
    close(fd);
    return core::Error{"no running wharf daemon at " + path + " (" + std::strerror(err) +
                       "); start one with `wharf serve`"};
  }
  std::string line = boost::json::serialize(request) + "\n";
  std::size_t sent = 0;
  bool cut_off = false;
  while (sent < line.size()) {
    // MSG_NOSIGNAL: a daemon that refused this peer and closed is an answer to read
    // below, not a SIGPIPE that kills wharf with "Broken pipe".
    ssize_t n = send(fd, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      cut_off = true;
      break;
    }
    sent += static_cast<std::size_t>(n);
  }
  std::string answer;
  char buf[65536];
  while (answer.find('\n') == std::string::npos) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    answer.append(buf, static_cast<std::size_t>(n));
  }
  close(fd);
  if (cut_off && answer.empty()) return core::Error{"the daemon closed the connection"};
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(answer, ec);
  if (ec || !value.is_object()) return core::Error{"the daemon sent an answer wharf cannot read"};
  boost::json::object& obj = value.get_object();
  if (const auto* ok = obj.if_contains("ok"); ok && ok->is_bool() && ok->get_bool()) return obj;
  const auto* error = obj.if_contains("error");
  const auto* code = obj.if_contains("code");
  return core::Error{error && error->is_string() ? std::string(error->get_string()) : "failed",
                     code && code->is_string() ? std::string(code->get_string()) : ""};
}

core::Result<boost::json::object> call_operation(const std::string& state_dir,
                                                 std::string_view name, boost::json::object args) {
  return call_daemon(state_dir, {{"op", name}, {"args", std::move(args)}});
}

int report_failure(const core::Error& error) {
  std::fprintf(stderr, "wharf: %s\n", error.message.c_str());
  // A command line that named nothing usable is a usage error, as CLI11's own are.
  return error.code == "usage" ? 2 : 1;
}

}  // namespace wharf::cli
