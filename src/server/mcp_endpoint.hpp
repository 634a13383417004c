// The MCP endpoint, /mcp over Streamable HTTP: one JSON-RPC message per POST, answered
// on its own. wharf gives no Mcp-Session-Id, so a protocol connection (src/mcp) lives for
// one message, and after initialize the client's MCP-Protocol-Version header says which
// version it speaks (absent: 2025-03-26, as the specification says). Tool calls run the
// operations in src/ops as the key holder; the router has already checked key and Origin.
#pragma once

#include <boost/asio/awaitable.hpp>

#include "server/router.hpp"
#include "server/server_context.hpp"

namespace wharf::server {

// The answer to one message: a JSON-RPC reply, 202 for a notification or a response, or
// 400 for an unsupported protocol version or a message that is not JSON-RPC.
boost::asio::awaitable<Response> answer_mcp(const McpPost& post, const Request& request,
                                            ServerContext& context);

}  // namespace wharf::server
