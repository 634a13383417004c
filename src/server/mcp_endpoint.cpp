#include "server/mcp_endpoint.hpp"

#include "mcp/connection.hpp"
#include "ops/operation.hpp"
#include "server/mcp_tools.hpp"

namespace wharf::server {
namespace asio = boost::asio;

namespace {
// Whether a message is the initialize request (which negotiates the version rather than
// naming one in a header).
bool is_initialize(std::string_view body) {
  boost::system::error_code ec;
  boost::json::value message = boost::json::parse(body, ec);
  if (ec || !message.is_object()) return false;
  const boost::json::value* method = message.get_object().if_contains("method");
  return method != nullptr && method->is_string() && method->get_string() == "initialize";
}
}  // namespace

asio::awaitable<Response> answer_mcp(const McpPost& post, const Request& request,
                                     ServerContext& context) {
  mcp::Connection connection(wharf_mcp_server());
  // A std::string: the two branches' common type is one, and a view of it would dangle.
  std::string version = post.protocol_version.empty() ? "2025-03-26" : post.protocol_version;
  if (!is_initialize(request.body()) && !connection.adopt_version(version))
    co_return json_reply(http::status::bad_request,
                         mcp::error_response(nullptr, mcp::kInvalidRequest,
                                             "unsupported MCP-Protocol-Version: " +
                                                 std::string(version.substr(0, 40))),
                         request);
  mcp::Step step = connection.handle(request.body());
  if (step.call) {
    const ops::Operation* operation = ops::find_operation(step.call->name);
    if (context.sessions == nullptr || operation == nullptr)
      co_return json_reply(
          http::status::ok,
          connection.finish(
              *step.call, tool_result(core::Error{"not ready", "internal"}, "wharf is not ready")),
          request);
    // Each HTTP request is its own Connection, so the client's name (from initialize) is
    // not known here: the audit says "mcp".
    ops::Context caller{*context.sessions,
                        core::Caller{.kind = core::Caller::Kind::kKeyHolder, .via = "mcp"}};
    auto answer = co_await ops::run_operation(step.call->name, caller, step.call->arguments);
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
