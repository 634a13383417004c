// SHARED FORMAT: the messages of the session channel (docs/sandbox.md, "Guards"), read and
// written by the shim inside a sandbox (cli/guard_shim, `wharf notify`) and by the daemon
// (app/session_channel). Every other part that speaks the channel uses these types.
//
// The channel is a Unix stream socket; each message is one JSON object on one line ending
// in '\n', at most kMaxChannelLineBytes long, and a connection carries one request. The
// client side runs inside the sandbox and is not trusted: parse_channel_request refuses
// anything malformed with an Error naming what is wrong, and never throws. A parsed
// request keeps every bound below, so the daemon needs no further size checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/result.hpp"

namespace wharf::core {

// Longest line, including its '\n'.
inline constexpr std::size_t kMaxChannelLineBytes = 64 * 1024;
inline constexpr std::size_t kMaxChannelArgs = 256;
inline constexpr std::size_t kMaxChannelMessageText = 4096;

// Client -> daemon -------------------------------------------------------------------

// A guarded command (core/guard_rules.hpp) the shim asks the person to approve. Sent with
// SCM_RIGHTS carrying the shim's stdin, stdout and stderr. argv[0] is the program name
// ("git" or "gh"); cwd is absolute.
struct ChannelGuard {
  std::vector<std::string> argv;
  std::string cwd;
};

enum class ChannelNotifyState { waiting, finished };

// `wharf notify` from inside a sandbox.
struct ChannelNotify {
  ChannelNotifyState state = ChannelNotifyState::waiting;
  std::string message;  // may be empty
};

using ChannelRequest = std::variant<ChannelGuard, ChannelNotify>;

// `line` may end in '\n' (one is taken off); it must hold exactly one JSON object.
Result<ChannelRequest> parse_channel_request(std::string_view line);
// The line to send, ending in '\n'.
std::string serialize_channel_request(const ChannelRequest& request);

// Daemon -> client -------------------------------------------------------------------

// The decision is open; the person has expires_in_s seconds to answer it.
struct ChannelPending {
  std::uint64_t id = 0;
  std::int64_t expires_in_s = 0;
};
// The person approved: the daemon runs the real command next, then sends ChannelExited.
struct ChannelApproved {
  std::string by;
};
// How the real command ended: exactly one of code and signal is set.
struct ChannelExited {
  std::optional<int> code;
  std::optional<int> signal;
};
struct ChannelDenied {
  std::string by;
  std::string note;
};
struct ChannelExpired {};
struct ChannelFailure {
  std::string message;
};
// Answer to a notify.
struct ChannelOk {};

using ChannelReply = std::variant<ChannelPending, ChannelApproved, ChannelExited, ChannelDenied,
                                  ChannelExpired, ChannelFailure, ChannelOk>;

Result<ChannelReply> parse_channel_reply(std::string_view line);
std::string serialize_channel_reply(const ChannelReply& reply);

std::string_view notify_state_name(ChannelNotifyState state);

}  // namespace wharf::core
