// `wharf mcp`: an MCP server on stdin/stdout (JSON-RPC 2.0, one message per line) for an
// agent to drive wharf's sessions. The protocol is src/mcp's; each tool call becomes one
// operation on the daemon over its Unix socket, so the daemon knows who is calling (a
// `wharf mcp` started by an agent inside session A is session A: core/ownership.hpp).
//
// Calls run side by side on their own threads (a wait_for must not hold up a
// list_sessions); replies are written whole, one line each, under one lock. stdout
// carries only MCP; anything else goes to stderr. At end of input, calls still running
// are finished and answered before exiting.
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"
#include "core/caller_labels.hpp"
#include "mcp/connection.hpp"
#include "server/mcp_tools.hpp"

namespace wharf::cli {
namespace {

class StdioServer {
 public:
  explicit StdioServer(std::string state_dir)
      : state_dir_(std::move(state_dir)), connection_(server::wharf_mcp_server()) {}

  int run() {
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      mcp::Step step;
      {
        std::lock_guard lock(mutex_);
        step = connection_.handle(line);
        if (step.cancelled) cancelled_.insert(boost::json::serialize(*step.cancelled));
      }
      if (step.reply) write(*step.reply);
      if (step.call) calls_.emplace_back([this, call = std::move(*step.call)] { answer(call); });
    }
    for (std::thread& call : calls_) call.join();
    return 0;
  }

 private:
  void answer(const mcp::ToolCall& call) {
    std::string via;
    {
      std::lock_guard lock(mutex_);
      via = core::mcp_via(connection_.client());
    }
    // `via` names this MCP client in the audit (who typed, who answered a decision).
    auto answer =
        call_daemon(state_dir_, {{"op", call.name}, {"args", call.arguments}, {"via", via}});
    mcp::ToolResult result;
    if (answer) {
      boost::json::object& fields = answer.value();
      std::string text(fields.at("text").as_string());
      result = server::tool_result(std::move(fields.at("result").as_object()), std::move(text));
    } else {
      result = server::tool_result(answer.error(), "");
    }
    std::string line;
    {
      std::lock_guard lock(mutex_);
      // A request the client cancelled gets no answer (it stopped listening for one).
      if (cancelled_.contains(boost::json::serialize(call.id))) return;
      line = connection_.finish(call, result);
    }
    write(line);
  }

  void write(const std::string& line) {
    std::lock_guard lock(write_mutex_);
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  }

  std::string state_dir_;
  std::mutex mutex_;  // the connection and the cancelled set
  std::mutex write_mutex_;
  mcp::Connection connection_;
  std::set<std::string> cancelled_;
  std::vector<std::thread> calls_;
};

std::function<int()> setup_mcp(CLI::App& verb) {
  auto state_dir = std::make_shared<std::string>();
  add_state_dir_option(verb, *state_dir);
  verb.footer(
      "Add it to an agent's MCP servers, e.g. `claude mcp add wharf -- wharf mcp`. Tools: "
      "list_entries, list_sessions, new_session, end_session, read_screen, send_keys, "
      "send_text, run_command, wait_for, notify (docs/api.md, docs/mcp.md).");
  return [state_dir] {
    StdioServer server(*state_dir);
    return server.run();
  };
}

}  // namespace

const Command kMcpCommand{
    .name = "mcp",
    .summary = "Serve wharf's tools to an agent over MCP on stdin/stdout",
    .setup = setup_mcp,
};

}  // namespace wharf::cli
