// The text-frame messages of the browser protocol (docs/protocol.md): parsing what a
// client sends, and building what the server sends. Parsing never throws: any input
// yields either a message or a ProtocolError naming a stable code, so a bad client gets
// an answer and its session goes on.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "core/exit_status.hpp"
#include "core/terminal_size.hpp"

namespace wharf::core {

// Largest message (text or binary) a client may send; larger closes with 1009.
inline constexpr std::size_t kMaxClientMessageBytes = 64 * 1024;

struct ResizeRequest {
  TerminalSize size;
};
struct PingRequest {};
struct EndRequest {};

struct ProtocolError {
  std::string code;  // bad_json, bad_message, unknown_type, bad_field
  std::string message;
};

using ClientMessage = std::variant<ResizeRequest, PingRequest, EndRequest, ProtocolError>;

ClientMessage parse_client_message(std::string_view text);

using SessionId = std::uint64_t;

std::string hello_message();
std::string ready_message(SessionId session, int pid, TerminalSize size);
std::string size_message(TerminalSize size);
std::string exit_message(SessionId session, const ExitStatus& status);
std::string pong_message();
std::string error_message(std::string_view code, std::string_view message);

}  // namespace wharf::core
