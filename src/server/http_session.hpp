// One HTTP connection: reads requests (bounded header and body, timed), asks the router
// what to answer, and hands a WebSocket upgrade over to a WebSocketSession. Keep-alive
// is honoured; any failure ends this connection only.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <memory>

#include "server/connection_slot.hpp"
#include "server/router.hpp"
#include "server/server_context.hpp"

namespace wharf::server {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(boost::asio::ip::tcp::socket socket, ServerContext& context);
  void start();

 private:
  boost::asio::awaitable<void> run();
  // /api/v1: runs the operation the router read from the request.
  boost::asio::awaitable<Response> run_operation(const OperationCall& call, const Request& request);
  // /api/upload: stores the body in the upload directory (app/upload_store.hpp).
  Response store_upload(const Request& request);
  // /api/stop: names the sessions that end, then asks the daemon to stop.
  Response stop_daemon(const Request& request);
  // /mcp: one JSON-RPC message in, its answer (or 202 for a notification) out.
  boost::asio::awaitable<Response> answer_mcp(const McpPost& post, const Request& request);

  boost::beast::tcp_stream stream_;
  ServerContext& context_;
  ConnectionSlot slot_;
};

}  // namespace wharf::server
