// One JSON-RPC message as one line of text. Every line wharf's MCP server sends is
// compact JSON with no raw newline (the serializer escapes control characters inside
// strings) and valid UTF-8 (bytes that are not are replaced with U+FFFD after
// serializing, as core's one UTF-8 decoder finds them, core/utf8.hpp), because stdio
// clients split the stream on '\n' and decode it as UTF-8.
// Text that reaches a line from outside (a method name, a tool's output) is cut at a
// code point boundary so that a line stays far below clients' 10 MiB line limit.
#pragma once

#include <boost/json.hpp>
#include <cstddef>
#include <string>
#include <string_view>

namespace wharf::mcp {

// JSON-RPC 2.0 error codes (the spec's own; MCP adds none that this server sends).
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

// `{"jsonrpc":"2.0","id":ID,"result":RESULT}` as one line.
std::string result_response(const boost::json::value& id, boost::json::object result);

// `{"jsonrpc":"2.0","id":ID,"error":{"code":CODE,"message":MESSAGE}}` as one line. `id` is
// null when the request's id could not be read (JSON-RPC 2.0, section 5).
std::string error_response(const boost::json::value& id, int code, std::string_view message);

// Serializes `message` and makes the line valid UTF-8.
std::string to_line(const boost::json::object& message);

// `text` with every ill-formed UTF-8 sequence replaced by U+FFFD (maximal subparts, as
// Unicode recommends), so ASCII bytes, and with them JSON's structure, are never touched.
std::string valid_utf8(std::string text);

// The longest prefix of `text` of at most `max` bytes that does not end inside a UTF-8
// sequence.
std::string_view utf8_prefix(std::string_view text, std::size_t max);

}  // namespace wharf::mcp
