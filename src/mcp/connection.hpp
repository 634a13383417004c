// One client's MCP conversation, as protocol logic: a transport hands it each message it
// receives (one stdio line, one HTTP POST body) and gets back what to send and which
// tool to run. Connection never blocks, never does I/O and never throws on any input
// (short of running out of memory): malformed input gets the JSON-RPC error it deserves,
// and a notification or a client's response never gets a reply.
//
// The lifecycle is the handshake one of MCP 2024-11-05 to 2025-11-25: `initialize`
// (answered once, with the client's version when wharf speaks it, else the newest one),
// then anything. Until `initialize` only `ping` is answered. The client's
// notifications/initialized is recorded (ready()) but not waited for, as the SDKs'
// servers do, so a client that sends tools/list right after the initialize result is
// served.
//
// Tool calls run outside: handle() returns the call, the transport runs it (possibly
// while handling further messages, so calls may finish in any order) and finish() turns
// its result into the response line. Every line is compact JSON, valid UTF-8, with no
// raw newline and at most kMaxReplyBytes long.
#pragma once

#include <array>
#include <boost/json.hpp>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/json_line.hpp"
#include "mcp/server.hpp"

namespace wharf::mcp {

// Newest first: an unknown version is answered with the first.
inline constexpr std::array<std::string_view, 4> kSupportedVersions{"2025-11-25", "2025-06-18",
                                                                    "2025-03-26", "2024-11-05"};
// A larger message is refused (-32600) without being parsed.
inline constexpr std::size_t kMaxMessageBytes = 1024 * 1024;
// A tool's text is cut to this many bytes, with a note saying so.
inline constexpr std::size_t kMaxToolTextBytes = 256 * 1024;
// A tool result whose line would be longer (a huge structured result) is replaced by an
// error result: clients refuse lines past 10 MiB and would drop the connection.
inline constexpr std::size_t kMaxReplyBytes = 4 * 1024 * 1024;

bool is_supported_version(std::string_view version);

// A tool's outcome. A failure the model should see and react to (a bad argument value,
// no such session, a timeout) is a result with is_error, not a JSON-RPC error.
struct ToolResult {
  boost::json::object structured;  // structuredContent (2025-06-18 and later)
  std::string text;                // the text block; empty means the structured JSON
  bool is_error = false;
};

// A tools/call the transport must run and then answer with Connection::finish().
struct ToolCall {
  boost::json::value id;  // the request's id, a string or an integer
  std::string name;       // a tool of the Server
  boost::json::object arguments;
};

// What a message was, so that the HTTP transport can pick a status: a request is
// answered (200, the reply or the call's result), a notification or a client's response
// is accepted (202, no body), an invalid message is refused (400, the reply if any).
enum class MessageKind { kRequest, kNotification, kResponse, kInvalid };

struct Step {
  MessageKind kind = MessageKind::kInvalid;
  std::optional<std::string> reply;  // one line to send now (no trailing newline)
  std::optional<ToolCall> call;      // or a tool to run, then finish()
  // notifications/cancelled named this request id: its call's result will not be read,
  // so the transport may stop the call and must not send its result.
  std::optional<boost::json::value> cancelled;
};

class Connection {
 public:
  explicit Connection(std::shared_ptr<const Server> server);

  // One JSON-RPC message. A blank message (only whitespace) is nothing: no reply.
  Step handle(std::string_view message);

  // The response line for `call` (from this connection's handle()) with `result`.
  std::string finish(const ToolCall& call, const ToolResult& result) const;

  // Treats the connection as initialized at `version` without an initialize request:
  // for a transport that starts a Connection per HTTP request and knows the version from
  // the MCP-Protocol-Version header. False (and nothing changes) when wharf does not
  // speak `version` or the connection was initialized at another one.
  bool adopt_version(std::string_view version);

  const std::string& protocol_version() const { return version_; }  // empty before initialize
  bool initialized() const { return !version_.empty(); }
  bool ready() const { return ready_; }  // notifications/initialized received
  // The client's clientInfo "name version" from initialize, for logs; may be empty.
  const std::string& client() const { return client_; }

 private:
  // Each returns the reply line, or nothing when it handed a call to `step`.
  std::optional<std::string> dispatch(const boost::json::value& id, std::string_view method,
                                      const boost::json::value* params, Step& step);
  std::string initialize(const boost::json::value& id, const boost::json::value* params);
  std::optional<std::string> call_tool(const boost::json::value& id,
                                       const boost::json::object& params, Step& step);
  void notify(std::string_view method, const boost::json::value* params, Step& step);

  std::shared_ptr<const Server> server_;
  std::string version_;
  std::string client_;
  bool ready_ = false;
};

}  // namespace wharf::mcp
