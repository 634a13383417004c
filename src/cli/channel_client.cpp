#include "cli/channel_client.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

namespace wharf::cli {
namespace {

core::Error errno_error(const std::string& what, int err) {
  return core::Error{what + ": " + std::strerror(err)};
}

}  // namespace

core::Result<ChannelClient> ChannelClient::connect(const std::string& socket_path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (socket_path.empty() || socket_path.size() >= sizeof address.sun_path)
    return core::Error{"the session channel path is empty or too long: " + socket_path};
  std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno_error("cannot create a socket", errno);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) < 0) {
    int err = errno;
    ::close(fd);
    return errno_error("cannot reach the session channel " + socket_path, err);
  }
  return ChannelClient(fd);
}

ChannelClient::ChannelClient(ChannelClient&& other) noexcept
    : fd_(other.fd_), buffer_(std::move(other.buffer_)) {
  other.fd_ = -1;
}

ChannelClient::~ChannelClient() {
  if (fd_ >= 0) ::close(fd_);
}

core::Status ChannelClient::send(const core::ChannelRequest& request, std::span<const int> fds) {
  std::string line = core::serialize_channel_request(request);
  if (line.size() > core::kMaxChannelLineBytes)
    return core::Error{"the request is longer than the channel's 64 KiB"};
  std::size_t sent = 0;
  while (sent < line.size()) {
    iovec iov{line.data() + sent, line.size() - sent};
    msghdr message{};
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    std::vector<char> control;
    if (sent == 0 && !fds.empty()) {
      control.assign(CMSG_SPACE(sizeof(int) * fds.size()), 0);
      message.msg_control = control.data();
      message.msg_controllen = control.size();
      cmsghdr* header = CMSG_FIRSTHDR(&message);
      header->cmsg_level = SOL_SOCKET;
      header->cmsg_type = SCM_RIGHTS;
      header->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(header), fds.data(), sizeof(int) * fds.size());
    }
    ssize_t n = sendmsg(fd_, &message, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno_error("cannot write to the session channel", errno);
    sent += static_cast<std::size_t>(n);
  }
  return core::ok_status();
}

core::Result<core::ChannelReply> ChannelClient::read_reply() {
  for (;;) {
    std::size_t newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline + 1);
      buffer_.erase(0, newline + 1);
      return core::parse_channel_reply(line);
    }
    if (buffer_.size() > core::kMaxChannelLineBytes)
      return core::Error{"the daemon sent a line longer than 64 KiB"};
    std::array<char, 4096> chunk{};
    ssize_t n = read(fd_, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno_error("lost the session channel", errno);
    if (n == 0) return core::Error{"the daemon closed the session channel"};
    buffer_.append(chunk.data(), static_cast<std::size_t>(n));
  }
}

core::Status channel_notify(const std::string& socket_path, core::ChannelNotify notify) {
  auto client = ChannelClient::connect(socket_path);
  if (!client) return client.error();
  if (auto sent = client.value().send(notify); !sent) return sent.error();
  auto reply = client.value().read_reply();
  if (!reply) return reply.error();
  if (std::holds_alternative<core::ChannelOk>(reply.value())) return core::ok_status();
  if (const auto* failure = std::get_if<core::ChannelFailure>(&reply.value()))
    return core::Error{"the daemon refused the notification: " + failure->message};
  return core::Error{"the daemon answered the notification with something else"};
}

}  // namespace wharf::cli
