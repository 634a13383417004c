// The sandbox side of the session channel (core/channel_message.hpp): a blocking client
// for the one request a connection carries, used by the git/gh shim (cli/guard_shim.hpp)
// and by `wharf notify` inside a sandbox. Plain POSIX sockets, no event loop: the shim is
// a short-lived process that does nothing else while it waits.
#pragma once

#include <span>
#include <string>

#include "core/channel_message.hpp"
#include "core/result.hpp"

namespace wharf::cli {

class ChannelClient {
 public:
  static core::Result<ChannelClient> connect(const std::string& socket_path);
  ChannelClient(ChannelClient&& other) noexcept;
  ChannelClient& operator=(ChannelClient&&) = delete;
  ChannelClient(const ChannelClient&) = delete;
  ~ChannelClient();

  // Sends one request line; `fds` ride along with its first byte (SCM_RIGHTS).
  core::Status send(const core::ChannelRequest& request, std::span<const int> fds = {});
  // Blocks for the next reply line; an Error when the daemon closed the connection or
  // sent something that is not a reply.
  core::Result<core::ChannelReply> read_reply();

 private:
  explicit ChannelClient(int fd) : fd_(fd) {}
  int fd_ = -1;
  std::string buffer_;
};

// `wharf notify STATE` from inside a sandbox: sends the notify and waits for the ok.
core::Status channel_notify(const std::string& socket_path, core::ChannelNotify notify);

}  // namespace wharf::cli
