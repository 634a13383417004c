#include "server/http_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http.hpp>
#include <chrono>

#include "app/upload_store.hpp"
#include "core/access_key.hpp"
#include "mcp/connection.hpp"
#include "ops/operation.hpp"
#include "server/mcp_tools.hpp"
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

// Whether an MCP message is the initialize request (which negotiates the version rather
// than naming one in a header).
bool is_initialize(std::string_view body) {
  boost::system::error_code ec;
  boost::json::value message = boost::json::parse(body, ec);
  if (ec || !message.is_object()) return false;
  const boost::json::value* method = message.get_object().if_contains("method");
  return method != nullptr && method->is_string() && method->get_string() == "initialize";
}

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

    if (auto* call = std::get_if<OperationCall>(&decision)) {
      decision = co_await run_operation(*call, request);
    } else if (std::get_if<McpPost>(&decision)) {
      decision = co_await answer_mcp(std::get<McpPost>(decision), request);
    } else if (std::get_if<StopDaemon>(&decision)) {
      decision = stop_daemon(request);
    } else if (std::get_if<UploadFile>(&decision)) {
      decision = store_upload(request);
    }
    auto& response = std::get<Response>(decision);
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

Response HttpSession::store_upload(const Request& request) {
  if (context_.uploads == nullptr)
    return json_reply(http::status::not_found,
                      R"({"ok":false,"code":"refused","error":"uploads are off"})"
                      "\n",
                      request);
  auto stored = context_.uploads->store(request.body());
  if (!stored) {
    const core::Error& error = stored.error();
    http::status status = error.code == "too_large"          ? http::status::payload_too_large
                          : error.code == "unsupported_type" ? http::status::unsupported_media_type
                                                             : http::status::internal_server_error;
    boost::json::object body{{"ok", false}, {"code", error.code}, {"error", error.message}};
    return json_reply(status, boost::json::serialize(body) + "\n", request);
  }
  spdlog::info("upload stored: {} ({} bytes, {})", stored.value().name, stored.value().bytes,
               stored.value().type);
  return operation_response(boost::json::object{{"path", stored.value().path},
                                                {"name", stored.value().name},
                                                {"bytes", stored.value().bytes},
                                                {"type", stored.value().type}},
                            request);
}

Response HttpSession::stop_daemon(const Request& request) {
  if (!context_.request_stop || context_.sessions == nullptr)
    return operation_response(core::Error{"this wharf cannot be stopped from here", "refused"},
                              request);
  boost::json::array names;
  for (const core::SessionEntry* e : context_.sessions->registry().entries())
    names.push_back(boost::json::string(e->name()));
  spdlog::info("stop requested over HTTP: ending {} session(s)", names.size());
  // After this answer is on its way: the stop begins on a later turn of the loop.
  asio::post(stream_.get_executor(), context_.request_stop);
  return operation_response(boost::json::object{{"sessions", std::move(names)}}, request);
}

asio::awaitable<Response> HttpSession::run_operation(const OperationCall& call,
                                                     const Request& request) {
  if (context_.sessions == nullptr)
    co_return operation_response(core::Error{"not ready", "internal"}, request);
  // An operation may take as long as its own timeout says (run_command, wait_for).
  stream_.expires_never();
  // Whoever holds the key may use every session (core/ownership.hpp).
  ops::Context context{*context_.sessions, core::Caller{.kind = core::Caller::Kind::kKeyHolder}};
  auto answer = co_await ops::run_operation(call.name, context, call.args);
  stream_.expires_after(kKeepAliveTimeout);
  co_return operation_response(answer, request);
}

// Each POST is answered on its own (wharf gives no Mcp-Session-Id): a Connection lives
// for one message, and after initialize the client's MCP-Protocol-Version header says
// which version it speaks (absent: 2025-03-26, as the specification says).
asio::awaitable<Response> HttpSession::answer_mcp(const McpPost& post, const Request& request) {
  mcp::Connection connection(wharf_mcp_server());
  // A std::string: the two branches' common type is one, and a view of it would dangle.
  std::string version = post.protocol_version.empty() ? "2025-03-26" : post.protocol_version;
  bool initializing = is_initialize(request.body());
  if (!initializing && !connection.adopt_version(version))
    co_return json_reply(http::status::bad_request,
                         mcp::error_response(nullptr, mcp::kInvalidRequest,
                                             "unsupported MCP-Protocol-Version: " +
                                                 std::string(version.substr(0, 40))),
                         request);
  mcp::Step step = connection.handle(request.body());
  if (step.call) {
    const ops::Operation* operation = ops::find_operation(step.call->name);
    stream_.expires_never();
    ops::Context context{*context_.sessions, core::Caller{.kind = core::Caller::Kind::kKeyHolder}};
    auto answer = co_await ops::run_operation(step.call->name, context, step.call->arguments);
    stream_.expires_after(kKeepAliveTimeout);
    co_return json_reply(http::status::ok,
                         connection.finish(*step.call, tool_result(*operation, answer)), request);
  }
  if (step.kind == mcp::MessageKind::kNotification || step.kind == mcp::MessageKind::kResponse) {
    Response accepted = json_reply(http::status::accepted, "", request);
    accepted.erase(http::field::content_type);
    co_return accepted;
  }
  co_return json_reply(
      step.kind == mcp::MessageKind::kInvalid ? http::status::bad_request : http::status::ok,
      step.reply.value_or(""), request);
}

}  // namespace wharf::server
