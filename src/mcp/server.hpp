// What wharf's MCP server offers, the same for every connection: its name and version,
// the instructions it gives the model, and its tools. A Server is built once, checked
// once (tool names are unique and follow MCP's naming rule, every input schema is an
// object schema) and then shared read-only by all connections, however many the
// transports open.
#pragma once

#include <boost/json.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace wharf::mcp {

// One tool as tools/list shows it.
struct ToolSpec {
  std::string name;         // 1-128 of [A-Za-z0-9_.-]
  std::string title;        // for people; sent when non-empty
  std::string description;  // for the model
  // A JSON Schema object schema; empty means "no arguments"
  // ({"type":"object","additionalProperties":false}).
  boost::json::object input_schema;
  // When set, structuredContent of every successful result must conform to it; sent to
  // clients of 2025-06-18 and later only (older ones have no structured results).
  std::optional<boost::json::object> output_schema;
  // Annotations (untrusted hints for the client). open_world: the tool reaches beyond
  // wharf's own sessions (run_command runs whatever shell command it is given).
  bool read_only = false;
  bool destructive = false;
  bool idempotent = false;
  bool open_world = false;
};

struct ServerInfo {
  std::string name = "wharf";
  std::string title;  // sent when non-empty
  std::string version;
  std::string instructions;  // sent in the initialize result when non-empty
};

// True for a name MCP allows: 1 to 128 ASCII letters, digits, '_', '-' or '.'.
bool is_tool_name(std::string_view name);

class Server {
 public:
  // Fails, naming the tool, on a bad or repeated name or an input schema whose type is
  // not "object": the tool list is code, so this is found by the first test that builds it.
  static core::Result<std::shared_ptr<const Server>> create(std::vector<ToolSpec> tools,
                                                            ServerInfo info);

  const ServerInfo& info() const { return info_; }
  const std::vector<ToolSpec>& tools() const { return tools_; }
  const ToolSpec* find(std::string_view name) const;

  // The result of tools/list for a client speaking `protocol_version`.
  boost::json::object tools_list(std::string_view protocol_version) const;

 private:
  Server(std::vector<ToolSpec> tools, ServerInfo info);

  std::vector<ToolSpec> tools_;
  ServerInfo info_;
};

}  // namespace wharf::mcp
