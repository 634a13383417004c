#include "server/mcp_tools.hpp"

#include <cstdlib>

#include "core/version.hpp"

namespace wharf::server {
namespace json = boost::json;

namespace {

constexpr std::string_view kInstructions =
    "wharf runs terminal sessions (shells and coding agents) that a person can watch live in "
    "a browser. Use run_command to run a shell command and get its output and exit code "
    "(in the shared shell unless you name a session); list_sessions, read_screen, "
    "send_text, send_keys and wait_for to work with interactive programs; list_entries "
    "then new_session to start one, end_session to stop it; notify to tell the person you "
    "need them or are done. send_text types text only: Enter is pressed by submit=true or "
    "send_keys Enter. A failed call answers isError with a message and its code in "
    "brackets, e.g. [no_session].";

}  // namespace

std::shared_ptr<const mcp::Server> wharf_mcp_server() {
  static const std::shared_ptr<const mcp::Server> kServer = [] {
    std::vector<mcp::ToolSpec> tools;
    for (const ops::Operation& op : ops::all_operations()) {
      // The operation's own schemas: the same that check its arguments.
      std::optional<json::object> output;
      if (!op.output_schema.empty()) output = ops::output_schema(op);
      tools.push_back(mcp::ToolSpec{.name = std::string(op.name),
                                    .title = std::string(op.title),
                                    .description = std::string(op.description),
                                    .input_schema = ops::input_schema(op),
                                    .output_schema = std::move(output),
                                    .read_only = op.read_only,
                                    .destructive = op.destructive,
                                    .idempotent = op.idempotent,
                                    .open_world = op.open_world});
    }
    auto server = mcp::Server::create(std::move(tools),
                                      mcp::ServerInfo{.name = "wharf",
                                                      .title = "wharf terminal sessions",
                                                      .version = std::string(core::kVersion),
                                                      .instructions = std::string(kInstructions)});
    if (!server) std::abort();  // the tool table is code; its tests catch this first
    return server.value();
  }();
  return kServer;
}

mcp::ToolResult tool_result(const core::Result<json::object>& answer, std::string text) {
  if (!answer) {
    const core::Error& error = answer.error();
    return mcp::ToolResult{
        .structured = {{"code", error.code.empty() ? "refused" : error.code},
                       {"error", error.message}},
        .text =
            "[" + (error.code.empty() ? std::string("refused") : error.code) + "] " + error.message,
        .is_error = true,
    };
  }
  return mcp::ToolResult{.structured = answer.value(), .text = std::move(text)};
}

mcp::ToolResult tool_result(const ops::Operation& operation, const ops::Answer& answer) {
  return tool_result(answer, answer ? ops::answer_text(operation, answer.value()) : "");
}

}  // namespace wharf::server
