// wharf's MCP server, as both transports offer it (`wharf mcp` on stdio, /mcp over HTTP):
// one tool per operation of src/ops, with the operation's schema, description and
// annotations, and the way an operation's answer becomes a tool result. An operation's
// refusal is a result with isError (the model reads why and can act on it), never a
// JSON-RPC error.
#pragma once

#include <memory>

#include "core/result.hpp"
#include "mcp/connection.hpp"
#include "ops/operation.hpp"

namespace wharf::server {

std::shared_ptr<const mcp::Server> wharf_mcp_server();

mcp::ToolResult tool_result(const ops::Operation& operation, const ops::Answer& answer);
// The same for an answer already rendered elsewhere (the control socket's "text").
mcp::ToolResult tool_result(const core::Result<boost::json::object>& answer, std::string text);

}  // namespace wharf::server
