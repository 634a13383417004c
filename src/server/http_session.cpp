#include "server/http_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http.hpp>
#include <chrono>

#include "app/upload_store.hpp"
#include "core/access_key.hpp"
#include "server/api_endpoints.hpp"
#include "server/mcp_endpoint.hpp"
#include "server/router.hpp"
#include "server/websocket_session.hpp"

namespace wharf::server {
namespace asio = boost::asio;
namespace beast = boost::beast;

namespace {
// A new connection must send its first request (a page load or a WebSocket handshake)
// promptly; a kept-alive connection may sit idle longer before its next request.
constexpr auto kFirstRequestTimeout = std::chrono::seconds(5);
constexpr auto kKeepAliveTimeout = std::chrono::seconds(30);
constexpr std::uint32_t kHeaderLimit = 16 * 1024;
constexpr std::uint64_t kBodyLimit = 64 * 1024;
constexpr std::uint64_t kProgramBodyLimit = 1024 * 1024;

// Programs may send larger bodies (text to type, MCP messages) than a page ever does, but
// only once their header showed the key: nobody else makes wharf hold a large body.
std::uint64_t body_limit_for(const http::request_parser<http::string_body>& parser,
                             const std::string& key, const app::UploadStore* uploads) {
  const auto& header = parser.get();
  std::string_view target = header.target();
  bool program_route = target.starts_with("/api/v1/") || target.starts_with("/mcp");
  bool upload_route = target.starts_with("/api/upload") && uploads != nullptr;
  auto given = header.find(kKeyHeader);
  if (given == header.end() || !core::keys_match(key, given->value())) return kBodyLimit;
  if (upload_route) return uploads->max_bytes();
  return program_route ? kProgramBodyLimit : kBodyLimit;
}

// Logs the path without its query: the query may carry the key.
std::string_view loggable_path(std::string_view target) {
  return target.substr(0, target.find('?'));
}
}  // namespace

HttpSession::HttpSession(asio::ip::tcp::socket socket, ServerContext& context)
    : stream_(std::move(socket)), context_(context), slot_(context) {}

void HttpSession::start() {
  asio::co_spawn(
      stream_.get_executor(), [self = shared_from_this()] { return self->run(); },
      [](std::exception_ptr error) {
        // Exceptions stop at the connection: log and drop only this client.
        if (!error) return;
        try {
          std::rethrow_exception(error);
        } catch (const std::exception& e) {
          spdlog::warn("http connection failed: {}", e.what());
        }
      });
}

asio::awaitable<void> HttpSession::run() {
  beast::flat_buffer buffer;
  for (bool first = true;; first = false) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(kHeaderLimit);
    parser.body_limit(kBodyLimit);
    stream_.expires_after(first ? kFirstRequestTimeout : kKeepAliveTimeout);
    auto [header_ec, header_n] = co_await http::async_read_header(
        stream_, buffer, parser, asio::as_tuple(asio::use_awaitable));
    boost::system::error_code read_ec = header_ec;
    if (!read_ec) {
      parser.body_limit(body_limit_for(parser, context_.key, context_.uploads));
      auto [body_ec, body_n] =
          co_await http::async_read(stream_, buffer, parser, asio::as_tuple(asio::use_awaitable));
      read_ec = body_ec;
    }
    if (read_ec) {
      if (read_ec == http::error::header_limit || read_ec == http::error::body_limit) {
        auto res =
            plain_response(http::status::payload_too_large, "request too large\n", 11, false);
        co_await http::async_write(stream_, res, asio::as_tuple(asio::use_awaitable));
      } else if (read_ec != http::error::end_of_stream && read_ec != beast::error::timeout &&
                 read_ec != asio::error::connection_reset && read_ec != asio::error::eof) {
        auto res = plain_response(http::status::bad_request, "malformed request\n", 11, false);
        co_await http::async_write(stream_, res, asio::as_tuple(asio::use_awaitable));
      }
      break;
    }

    Request request = parser.release();
    RouteDecision decision = route_request(request, context_);
    if (auto* upgrade = std::get_if<UpgradeToWebSocket>(&decision)) {
      spdlog::debug("websocket upgrade {}", loggable_path(request.target()));
      stream_.expires_never();  // the WebSocket sets its own timeouts
      std::make_shared<WebSocketSession>(stream_.release_socket(), context_)
          ->start(std::move(request), upgrade->size);
      co_return;
    }

    Response response = co_await carry_out(std::move(decision), request);
    spdlog::info("{} {} -> {}", std::string_view(request.method_string()),
                 loggable_path(request.target()), response.result_int());
    bool keep_alive = response.keep_alive();
    auto [write_ec, write_n] =
        co_await http::async_write(stream_, response, asio::as_tuple(asio::use_awaitable));
    if (write_ec || !keep_alive) break;
  }
  boost::system::error_code ignored;
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

asio::awaitable<Response> HttpSession::carry_out(RouteDecision decision, const Request& request) {
  if (auto* response = std::get_if<Response>(&decision)) co_return std::move(*response);
  if (std::get_if<StopDaemon>(&decision))
    co_return stop_daemon(request, context_, stream_.get_executor());
  if (std::get_if<UploadFile>(&decision)) co_return store_upload(request, context_);
  // An operation may take as long as its own timeout says (run_command, wait_for).
  stream_.expires_never();
  // (Two statements, not a conditional expression: GCC 12 miscompiles co_await in one.)
  Response response;
  if (auto* call = std::get_if<OperationCall>(&decision))
    response = co_await run_api_operation(*call, request, context_);
  else
    response = co_await answer_mcp(std::get<McpPost>(decision), request, context_);
  stream_.expires_after(kKeepAliveTimeout);
  co_return response;
}

}  // namespace wharf::server
