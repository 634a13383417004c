// A sandboxed session's outside parts (see session_sandbox.hpp).
#include "app/session_sandbox.hpp"

#include <sys/stat.h>

namespace wharf::app {
namespace fs = std::filesystem;

core::Result<std::unique_ptr<SessionSandbox>> SessionSandbox::open(
    boost::asio::any_io_executor executor, fs::path dir, core::SessionId id,
    const core::Capabilities& capabilities, egress::EgressProxy::OnRefused on_refused,
    SessionChannelHooks hooks) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || ::chmod(dir.c_str(), 0700) != 0)
    return core::Error{"cannot make the sandbox's directory " + dir.string() + ": " +
                           (ec ? ec.message() : std::string(std::strerror(errno))),
                       "start_failed"};
  std::unique_ptr<SessionSandbox> out(new SessionSandbox(dir));
  if (capabilities.network == core::Network::kAllow) {
    auto proxy = egress::EgressProxy::open(executor, (dir / "egress.sock").string(),
                                           capabilities.allow, std::move(on_refused));
    if (!proxy) return core::Error{"egress proxy: " + proxy.error().message, "start_failed"};
    out->proxy_ = std::move(proxy.value());
    out->proxy_->start();
  }
  auto channel = SessionChannel::open(executor, dir / "channel.sock", id, std::move(hooks));
  if (!channel) return core::Error{"session channel: " + channel.error().message, "start_failed"};
  out->channel_ = std::move(channel.value());
  return out;
}

SessionSandbox::~SessionSandbox() {
  if (proxy_) proxy_->stop();
  channel_.reset();
  std::error_code ec;
  if (remove_dir_) fs::remove_all(dir_, ec);
}

}  // namespace wharf::app
