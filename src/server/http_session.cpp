#include "server/http_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>
#include <chrono>
#include <optional>

#include "app/upload_store.hpp"
#include "core/request_policy.hpp"
#include "server/api_endpoints.hpp"
#include "server/mcp_endpoint.hpp"
#include "server/router.hpp"
#include "server/tls_handshake.hpp"
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

// After a refusal sent before the request was read whole, what the client still sends is
// read and dropped for a moment: closing with unread bytes would reset the connection,
// and the client could lose the refusal before reading it.
constexpr auto kDrainTime = std::chrono::seconds(2);
constexpr std::uint64_t kDrainLimit = 32 * 1024 * 1024;

// Programs may send larger bodies (text to type, MCP messages) than a page ever does, but
// only once their header showed the key, in any form it is accepted in (holds_key):
// nobody else makes wharf hold a large body.
std::uint64_t body_limit_for(const Request& header, const ServerContext& context) {
  std::string_view target = header.target();
  bool program_route = target.starts_with("/api/v1/") || target.starts_with("/mcp");
  bool upload_route = target.starts_with("/api/upload") && context.uploads != nullptr;
  if (!holds_key(header, context)) return kBodyLimit;
  if (upload_route) return context.uploads->max_bytes();
  return program_route ? kProgramBodyLimit : kBodyLimit;
}

// The header is read before the route and the key are known, and the parser already
// checks Content-Length against its limit at the header's end: it gets the largest limit
// any request could have, and the request's own is applied right after.
std::uint64_t largest_body_limit(const ServerContext& context) {
  return std::max(kProgramBodyLimit,
                  context.uploads != nullptr ? context.uploads->max_bytes() : kBodyLimit);
}
// The `error.code` of a JSON refusal ({"error":{"code":...}}), or "" for any other body.
std::string refusal_code(const Response& response) {
  boost::system::error_code ec;
  auto parsed = boost::json::parse(response.body(), ec);
  if (ec || !parsed.is_object()) return "";
  const auto* error = parsed.as_object().if_contains("error");
  if (error == nullptr || !error->is_object()) return "";
  const auto* code = error->as_object().if_contains("code");
  if (code == nullptr || !code->is_string()) return "";
  return std::string(code->as_string());
}

}  // namespace

HttpSession::HttpSession(asio::ip::tcp::socket socket, ServerContext& context)
    : stream_(std::move(socket)), context_(context), slot_(context) {
  boost::system::error_code ec;
  auto endpoint = stream_.socket().remote_endpoint(ec);
  peer_ = ec ? "an unknown peer"
             : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

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
  // On a TLS port every connection shakes hands first (or is told to use https://).
  if (context_.tls_context != nullptr && !co_await open_tls(stream_, buffer, context_, peer_))
    co_return;
  for (bool first = true;; first = false) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(kHeaderLimit);
    parser.body_limit(largest_body_limit(context_));
    stream_.expires_after(first ? kFirstRequestTimeout : kKeepAliveTimeout);
    auto [header_ec, header_n] = co_await http::async_read_header(
        stream_, buffer, parser, asio::as_tuple(asio::use_awaitable));
    boost::system::error_code read_ec = header_ec;
    std::uint64_t body_limit = kBodyLimit;
    if (!read_ec) {
      body_limit = body_limit_for(parser.get(), context_);
      if (parser.content_length().value_or(0) > body_limit) {
        read_ec = http::error::body_limit;  // refused on its header: nothing of it is read
      } else {
        parser.body_limit(body_limit);
        auto [body_ec, body_n] =
            co_await http::async_read(stream_, buffer, parser, asio::as_tuple(asio::use_awaitable));
        read_ec = body_ec;
      }
    }
    if (read_ec) {
      // Refusals made before a request was read whole are JSON (whichever route it was
      // for: the target may not even have been read) and end the connection.
      std::optional<Response> refusal;
      if (read_ec == http::error::header_limit) {
        refusal = error_reply(
            http::status::request_header_fields_too_large, "headers_too_large",
            "the request's header is over " + std::to_string(kHeaderLimit) + " bytes", 11, false);
      } else if (read_ec == http::error::body_limit) {
        refusal = error_reply(http::status::payload_too_large, "too_large",
                              "the request's body is over " + std::to_string(body_limit) +
                                  " bytes, the limit for this request (without the key, "
                                  "any request may send 64 KiB)",
                              parser.get().version(), false);
      } else if (read_ec != http::error::end_of_stream && read_ec != beast::error::timeout &&
                 read_ec != asio::error::connection_reset && read_ec != asio::error::eof) {
        refusal =
            error_reply(http::status::bad_request, "bad_request", "malformed request", 11, false);
      }
      if (refusal) {
        spdlog::info("request from {} refused ({}): {}", peer_, refusal->result_int(),
                     read_ec.message());
        auto [write_ec, write_n] =
            co_await http::async_write(stream_, *refusal, asio::as_tuple(asio::use_awaitable));
        if (!write_ec) co_await drain();
      }
      break;
    }

    Request request = parser.release();
    RouteDecision decision = route_request(request, context_);
    if (auto* upgrade = std::get_if<UpgradeToWebSocket>(&decision)) {
      spdlog::debug("websocket upgrade {}", core::loggable_target(request.target(), context_.key));
      stream_.expires_never();  // the WebSocket sets its own timeouts
      auto window = std::make_shared<WebSocketSession>(std::move(stream_), context_);
      window->set_device(upgrade->device);
      window->start(std::move(request), upgrade->size);
      co_return;
    }

    Response response = co_await carry_out(std::move(decision), request);
    // A page load fetches some thirty files; those that went fine are debug detail, while
    // API calls and every refusal stay in the info log.
    bool routine_file =
        request.method() == http::verb::get && response.result_int() < 400 &&
        !std::string_view(request.target().data(), request.target().size()).starts_with("/api/");
    if (response.result_int() >= 400) {
      // A refusal says why and to whom: its JSON code, or its status alone for a page.
      spdlog::info("{} {} -> {} {} (from {})", std::string_view(request.method_string()),
                   core::loggable_target(request.target(), context_.key), response.result_int(),
                   refusal_code(response), peer_);
    } else {
      spdlog::log(routine_file ? spdlog::level::debug : spdlog::level::info, "{} {} -> {}",
                  std::string_view(request.method_string()),
                  core::loggable_target(request.target(), context_.key), response.result_int());
    }
    bool keep_alive = response.keep_alive();
    auto [write_ec, write_n] =
        co_await http::async_write(stream_, response, asio::as_tuple(asio::use_awaitable));
    if (write_ec || !keep_alive) break;
  }
  boost::system::error_code ignored;
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

asio::awaitable<void> HttpSession::drain() {
  boost::system::error_code ignored;
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  stream_.expires_after(kDrainTime);
  std::array<char, 16 * 1024> sink{};
  std::uint64_t drained = 0;
  while (drained < kDrainLimit) {
    auto [ec, n] =
        co_await stream_.async_read_some(asio::buffer(sink), asio::as_tuple(asio::use_awaitable));
    if (ec) break;
    drained += n;
  }
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
