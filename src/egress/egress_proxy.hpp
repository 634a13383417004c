// wharf's egress proxy for one sandboxed session: an HTTP proxy on a Unix socket that
// only that session's sandbox can reach (the socket is bound into it, and a relay inside
// turns it into 127.0.0.1:PORT for HTTPS_PROXY). Because each session has its own socket,
// the proxy knows which session asks without any credential.
//
// It takes `CONNECT host:port` and absolute-form plain-HTTP requests, allows only what the
// session's list names (proxy_request.hpp), resolves the name itself (the sandbox has no
// DNS, so names are the only way out), refuses addresses that point back into the
// machine, and then only moves bytes: nothing is read or kept of what flows. Every
// refusal is reported (host, port, why) for the audit store. A request head must arrive
// within kHeadTimeout and fit in kMaxHeadBytes; a dial has kDialTimeout. A tunnel has no
// idle limit: agents hold long streams open.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/capabilities.hpp"
#include "core/result.hpp"

namespace wharf::egress {

namespace asio = boost::asio;

inline constexpr std::size_t kMaxHeadBytes = 16 * 1024;
inline constexpr std::chrono::seconds kHeadTimeout{30};
inline constexpr std::chrono::seconds kDialTimeout{15};

struct Refusal {
  std::string host;  // as asked, cut to 255 bytes
  std::uint16_t port = 0;
  std::string reason;
};

class EgressProxy : public std::enable_shared_from_this<EgressProxy> {
 public:
  using OnRefused = std::function<void(const Refusal&)>;
  using MayDial = std::function<bool(std::string_view ip)>;

  // Binds `socket_path` (mode 0600, replacing a stale socket there).
  static core::Result<std::shared_ptr<EgressProxy>> open(asio::any_io_executor executor,
                                                         const std::string& socket_path,
                                                         std::vector<core::Endpoint> allow,
                                                         OnRefused on_refused,
                                                         MayDial may_dial = {});
  EgressProxy(asio::local::stream_protocol::acceptor acceptor, std::string socket_path,
              std::vector<core::Endpoint> allow, OnRefused on_refused, MayDial may_dial);
  ~EgressProxy();
  EgressProxy(const EgressProxy&) = delete;
  EgressProxy& operator=(const EgressProxy&) = delete;

  void start();
  // Stops accepting and removes the socket; tunnels already open end with their peers.
  void stop();

 private:
  asio::awaitable<void> accept_loop();
  asio::awaitable<void> serve(asio::local::stream_protocol::socket client);
  void refuse(std::string host, std::uint16_t port, std::string reason);

  asio::local::stream_protocol::acceptor acceptor_;
  std::string socket_path_;
  std::vector<core::Endpoint> allow_;
  OnRefused on_refused_;
  MayDial may_dial_;
};

}  // namespace wharf::egress
