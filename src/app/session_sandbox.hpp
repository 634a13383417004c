// The parts of a sandboxed session that live outside its sandbox, for as long as the
// session does: its directory under the state dir (bound read-only at /run/wharf/session),
// the egress proxy listening there when its network is an allow list, and the session
// channel its guards and `wharf notify` talk to. Made before the program starts (the
// sockets must be there when it first connects) and again when a restarted daemon takes
// the session over; destroying it closes both sockets, and removes the directory once the
// session has ended.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <filesystem>
#include <memory>

#include "app/session_channel.hpp"
#include "core/capabilities.hpp"
#include "core/result.hpp"
#include "core/session_registry.hpp"
#include "egress/egress_proxy.hpp"

namespace wharf::app {

class SessionSandbox {
 public:
  static core::Result<std::unique_ptr<SessionSandbox>> open(
      boost::asio::any_io_executor executor, std::filesystem::path dir, core::SessionId id,
      const core::Capabilities& capabilities, egress::EgressProxy::OnRefused on_refused,
      SessionChannelHooks hooks);
  ~SessionSandbox();
  SessionSandbox(const SessionSandbox&) = delete;
  SessionSandbox& operator=(const SessionSandbox&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  // The session ended: the directory goes with the sockets. Without this (a daemon that
  // stops and leaves its sessions running), the directory stays: the sandbox holds it
  // bound, and the next daemon's sockets must appear in that very directory.
  void ended() { remove_dir_ = true; }

 private:
  explicit SessionSandbox(std::filesystem::path dir) : dir_(std::move(dir)) {}

  std::filesystem::path dir_;
  bool remove_dir_ = false;
  std::shared_ptr<egress::EgressProxy> proxy_;
  std::unique_ptr<SessionChannel> channel_;
};

}  // namespace wharf::app
