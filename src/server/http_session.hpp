// One HTTP connection: reads requests (bounded header and body, timed), asks the router
// what to answer, has the endpoints carry out program routes, and hands a WebSocket
// upgrade over to a WebSocketSession. Keep-alive
// is honoured; any failure ends this connection only.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <memory>
#include <string>

#include "server/connection_slot.hpp"
#include "server/router.hpp"
#include "server/server_context.hpp"
#include "server/server_stream.hpp"

namespace wharf::server {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(boost::asio::ip::tcp::socket socket, ServerContext& context);
  void start();

 private:
  boost::asio::awaitable<void> run();
  // Carries out what the router decided for a program or upload route (api_endpoints.hpp,
  // mcp_endpoint.hpp); a page, a refusal or a WebSocket upgrade needs nothing more.
  boost::asio::awaitable<Response> carry_out(RouteDecision decision, const Request& request);
  // After a refusal: stops sending, then reads and drops what the client still sends (for
  // a bounded time and amount) so that closing does not reset the refusal away.
  boost::asio::awaitable<void> drain();

  ServerStream stream_;  // plain TCP, or TLS after open_tls (tls_handshake.hpp)
  ServerContext& context_;
  ConnectionSlot slot_;
  std::string peer_;  // "ADDRESS:PORT", for the log lines of refusals
};

}  // namespace wharf::server
