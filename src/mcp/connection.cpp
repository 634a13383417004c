#include "mcp/connection.hpp"

#include <algorithm>

namespace wharf::mcp {
namespace json = boost::json;

namespace {

constexpr std::string_view kStructuredSince = "2025-06-18";
// Names and versions echoed into replies or logs are cut to this many bytes, so a long
// one makes neither a long reply nor a long log line.
constexpr std::size_t kMaxEchoedBytes = 128;
// Deeper nesting is a parse error: it bounds the parser's work, and no MCP message
// comes close (tool arguments here are flat).
constexpr std::size_t kMaxDepth = 64;

bool is_valid_id(const json::value& id) {
  return id.is_string() || id.is_int64() || id.is_uint64();
}

bool is_blank(std::string_view message) {
  return message.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

std::string echoed(std::string_view text) {
  std::string_view prefix = utf8_prefix(text, kMaxEchoedBytes);
  return prefix.size() < text.size() ? std::string(prefix) + "..." : std::string(text);
}

Step invalid(std::string reply) {
  return Step{.kind = MessageKind::kInvalid, .reply = std::move(reply)};
}

std::string capped_text(std::string text) {
  if (text.size() <= kMaxToolTextBytes) return text;
  std::size_t total = text.size();
  text.resize(utf8_prefix(text, kMaxToolTextBytes).size());
  text += "\n[wharf: output cut here; " + std::to_string(text.size()) + " of " +
          std::to_string(total) + " bytes shown]";
  return text;
}

json::object call_result(std::string text, const json::object* structured, bool is_error) {
  json::object result{
      {"content", json::array{json::object{{"type", "text"}, {"text", std::move(text)}}}}};
  if (structured != nullptr) result["structuredContent"] = *structured;
  result["isError"] = is_error;
  return result;
}

}  // namespace

bool is_supported_version(std::string_view version) {
  return std::find(kSupportedVersions.begin(), kSupportedVersions.end(), version) !=
         kSupportedVersions.end();
}

Connection::Connection(std::shared_ptr<const Server> server) : server_(std::move(server)) {}

Step Connection::handle(std::string_view message) {
  if (message.size() > kMaxMessageBytes) {
    return invalid(error_response(
        nullptr, kInvalidRequest,
        "message too large: at most " + std::to_string(kMaxMessageBytes) + " bytes"));
  }
  if (is_blank(message)) return Step{};

  boost::system::error_code ec;
  json::parse_options options;
  options.max_depth = kMaxDepth;
  json::value value = json::parse(message, ec, {}, options);
  if (ec) return invalid(error_response(nullptr, kParseError, "Parse error: " + ec.message()));
  if (value.is_array()) {
    return invalid(error_response(nullptr, kInvalidRequest,
                                  "batches are not supported (MCP removed JSON-RPC batching "
                                  "in 2025-06-18): send one message at a time"));
  }
  const json::object* obj = value.if_object();
  if (obj == nullptr)
    return invalid(error_response(nullptr, kInvalidRequest, "a message must be a JSON object"));

  const json::value* method = obj->if_contains("method");
  // wharf sends no requests, so a response is unsolicited; answering it could start a
  // loop of errors between two peers, so it is dropped whatever it looks like.
  if (method == nullptr && (obj->contains("result") || obj->contains("error")))
    return Step{.kind = MessageKind::kResponse};

  const json::value* id = obj->if_contains("id");
  json::value reply_id = id != nullptr && is_valid_id(*id) ? *id : json::value(nullptr);
  const json::value* jsonrpc = obj->if_contains("jsonrpc");
  if (jsonrpc == nullptr || !jsonrpc->is_string() || jsonrpc->get_string() != "2.0")
    return invalid(error_response(reply_id, kInvalidRequest, "'jsonrpc' must be \"2.0\""));
  if (id != nullptr && !is_valid_id(*id)) {
    return invalid(
        error_response(nullptr, kInvalidRequest, "'id' must be a string or an integer (not null)"));
  }
  if (method == nullptr || !method->is_string())
    return invalid(error_response(reply_id, kInvalidRequest, "'method' must be a string"));

  const json::value* params = obj->if_contains("params");
  if (params != nullptr && params->is_null()) params = nullptr;  // null params: none
  Step step;
  if (id == nullptr) {
    step.kind = MessageKind::kNotification;
    notify(method->get_string(), params, step);
    return step;
  }
  step.kind = MessageKind::kRequest;
  step.reply = dispatch(*id, method->get_string(), params, step);
  return step;
}

std::optional<std::string> Connection::dispatch(const json::value& id, std::string_view method,
                                                const json::value* params, Step& step) {
  if (method == "initialize") return initialize(id, params);
  if (method == "ping") return result_response(id, {});
  if (method != "tools/list" && method != "tools/call")
    return error_response(id, kMethodNotFound, "Method not found: " + echoed(method));
  if (!initialized()) {
    return error_response(id, kInvalidRequest,
                          "the connection is not initialized: send initialize first");
  }
  if (params != nullptr && !params->is_object())
    return error_response(id, kInvalidParams, "'params' must be an object");

  if (method == "tools/list") {
    // One page holds every tool, so a cursor (which could only come from a page wharf
    // never sends) changes nothing.
    return result_response(id, server_->tools_list(version_));
  }
  static const json::object kNoParams;
  return call_tool(id, params != nullptr ? params->get_object() : kNoParams, step);
}

std::string Connection::initialize(const json::value& id, const json::value* params) {
  if (initialized()) {
    return error_response(id, kInvalidRequest,
                          "already initialized: initialize is sent once per connection");
  }
  const json::object* p = params != nullptr ? params->if_object() : nullptr;
  const json::value* requested = p != nullptr ? p->if_contains("protocolVersion") : nullptr;
  if (requested == nullptr || !requested->is_string()) {
    return error_response(id, kInvalidParams,
                          "initialize needs params with a string 'protocolVersion'");
  }
  // The client decides whether it can live with the version offered instead of its own.
  std::string_view wanted = requested->get_string();
  version_ = is_supported_version(wanted) ? wanted : kSupportedVersions.front();

  if (const json::value* client = p->if_contains("clientInfo"); client && client->is_object()) {
    for (std::string_view field : {"name", "version"}) {
      const json::value* v = client->get_object().if_contains(field);
      if (v == nullptr || !v->is_string()) continue;
      if (!client_.empty()) client_ += ' ';
      client_ += echoed(v->get_string());
    }
  }

  const ServerInfo& info = server_->info();
  json::object server_info{{"name", info.name}};
  if (!info.title.empty()) server_info["title"] = info.title;
  server_info["version"] = info.version;
  // The tool list is fixed for the daemon's life, so there is no change to announce.
  json::object result{
      {"protocolVersion", version_},
      {"capabilities", json::object{{"tools", json::object{{"listChanged", false}}}}},
      {"serverInfo", std::move(server_info)}};
  if (!info.instructions.empty()) result["instructions"] = info.instructions;
  return result_response(id, std::move(result));
}

std::optional<std::string> Connection::call_tool(const json::value& id, const json::object& params,
                                                 Step& step) {
  const json::value* name = params.if_contains("name");
  if (name == nullptr || !name->is_string())
    return error_response(id, kInvalidParams, "tools/call needs a string 'name'");
  const ToolSpec* tool = server_->find(name->get_string());
  if (tool == nullptr)
    return error_response(id, kInvalidParams, "Unknown tool: " + echoed(name->get_string()));
  ToolCall call{.id = id, .name = tool->name};
  if (const json::value* args = params.if_contains("arguments"); args && !args->is_null()) {
    if (!args->is_object())
      return error_response(id, kInvalidParams, "tools/call 'arguments' must be an object");
    call.arguments = args->get_object();
  }
  step.call = std::move(call);
  return std::nullopt;
}

void Connection::notify(std::string_view method, const json::value* params, Step& step) {
  if (method == "notifications/initialized") {
    if (initialized()) ready_ = true;
    return;
  }
  if (method == "notifications/cancelled") {
    const json::object* p = params != nullptr ? params->if_object() : nullptr;
    const json::value* request = p != nullptr ? p->if_contains("requestId") : nullptr;
    if (request != nullptr && is_valid_id(*request)) step.cancelled = *request;
  }
  // Any other notification (progress, roots changed, ones from later versions) is
  // nothing wharf acts on; notifications are never answered, not even with an error.
}

std::string Connection::finish(const ToolCall& call, const ToolResult& result) const {
  // Clients without structured results, and models shown only the content, get the
  // structured result as JSON text when the tool wrote no text of its own.
  std::string text = result.text.empty() && !result.structured.empty()
                         ? json::serialize(result.structured)
                         : result.text;
  // A failure is text with isError: structuredContent, when a tool declares an output
  // schema, must conform to it, and an error's fields do not (clients validate it).
  bool structured = std::string_view(version_) >= kStructuredSince && !result.is_error;
  std::string line = result_response(
      call.id, call_result(capped_text(std::move(text)), structured ? &result.structured : nullptr,
                           result.is_error));
  if (line.size() <= kMaxReplyBytes) return line;
  return result_response(call.id, call_result("wharf: the result of " + call.name + " was " +
                                                  std::to_string(line.size()) +
                                                  " bytes, too large to send (the limit is " +
                                                  std::to_string(kMaxReplyBytes) + " bytes)",
                                              nullptr, true));
}

bool Connection::adopt_version(std::string_view version) {
  if (!is_supported_version(version)) return false;
  if (initialized()) return version_ == version;
  version_ = version;
  ready_ = true;
  return true;
}

}  // namespace wharf::mcp
