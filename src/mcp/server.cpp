#include "mcp/server.hpp"

#include <algorithm>

namespace wharf::mcp {
namespace json = boost::json;

namespace {

constexpr std::string_view kStructuredSince = "2025-06-18";

json::object tool_entry(const ToolSpec& tool, std::string_view protocol_version) {
  json::object entry{{"name", tool.name}};
  if (!tool.title.empty()) entry["title"] = tool.title;
  if (!tool.description.empty()) entry["description"] = tool.description;
  entry["inputSchema"] = tool.input_schema;
  // Versions are dates, so they order as strings.
  if (tool.output_schema && protocol_version >= kStructuredSince)
    entry["outputSchema"] = *tool.output_schema;
  json::object annotations;
  // annotations.title is where 2025-03-26 clients look for a display name; later ones
  // prefer the top-level title, so sending both costs nothing.
  if (!tool.title.empty()) annotations["title"] = tool.title;
  annotations["readOnlyHint"] = tool.read_only;
  annotations["destructiveHint"] = tool.destructive;
  annotations["idempotentHint"] = tool.idempotent;
  annotations["openWorldHint"] = tool.open_world;
  entry["annotations"] = std::move(annotations);
  return entry;
}

}  // namespace

bool is_tool_name(std::string_view name) {
  if (name.empty() || name.size() > 128) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

core::Result<std::shared_ptr<const Server>> Server::create(std::vector<ToolSpec> tools,
                                                           ServerInfo info) {
  for (std::size_t i = 0; i < tools.size(); ++i) {
    ToolSpec& tool = tools[i];
    if (!is_tool_name(tool.name))
      return core::Error{"tool name '" + tool.name + "' is not 1-128 of [A-Za-z0-9_.-]"};
    for (std::size_t j = 0; j < i; ++j) {
      if (tools[j].name == tool.name)
        return core::Error{"tool '" + tool.name + "' is listed twice"};
    }
    if (tool.input_schema.empty())
      tool.input_schema = json::object{{"type", "object"}, {"additionalProperties", false}};
    const json::value* type = tool.input_schema.if_contains("type");
    if (type == nullptr || !type->is_string() || type->get_string() != "object")
      return core::Error{"the input schema of tool '" + tool.name + "' must have type \"object\""};
    if (tool.output_schema) {
      const json::value* out = tool.output_schema->if_contains("type");
      if (out == nullptr || !out->is_string() || out->get_string() != "object")
        return core::Error{"the output schema of tool '" + tool.name +
                           "' must have type \"object\""};
    }
  }
  return std::shared_ptr<const Server>(new Server(std::move(tools), std::move(info)));
}

Server::Server(std::vector<ToolSpec> tools, ServerInfo info)
    : tools_(std::move(tools)), info_(std::move(info)) {}

const ToolSpec* Server::find(std::string_view name) const {
  for (const ToolSpec& tool : tools_) {
    if (tool.name == name) return &tool;
  }
  return nullptr;
}

json::object Server::tools_list(std::string_view protocol_version) const {
  json::array list;
  for (const ToolSpec& tool : tools_) list.push_back(tool_entry(tool, protocol_version));
  return json::object{{"tools", std::move(list)}};
}

}  // namespace wharf::mcp
