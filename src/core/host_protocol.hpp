// The protocol between the daemon and a session host (docs/hosts.md).
//
// Each session lives in its own host process, which owns the PTY, the program's process
// session and the authoritative screen; the daemon talks to it over a Unix stream socket.
// Everything on that socket is a frame: one type byte, a 4-byte little-endian payload
// length, then the payload. Control payloads are JSON objects; output, input and
// snapshots are raw bytes.
//
// A connection begins with the daemon's `hello` (or, on the socket pair a host is born
// with, `spawn`); the host answers with `state` and then a `snapshot` of its screen, and
// from then on streams `output`. A daemon of another protocol version gets `state`
// (which always carries the host's version) and nothing more: it reports the session and
// leaves it running for a daemon that speaks its version.
//
// Parsing never throws and never allocates past kMaxFramePayload: a malformed frame makes
// the reader fail once and for good, and the caller drops the connection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/capabilities.hpp"
#include "core/control_message.hpp"
#include "core/exit_status.hpp"
#include "core/result.hpp"
#include "core/terminal_size.hpp"

namespace wharf::core::host {

// Bumped whenever a frame or a field changes meaning; daemon and host must agree.
inline constexpr int kProtocolVersion = 1;
// Snapshots are the largest frames: 2,000 lines of up to 500 styled columns.
inline constexpr std::size_t kMaxFramePayload = 64u << 20;
inline constexpr std::size_t kFrameHeaderBytes = 5;

enum class FrameType : std::uint8_t {
  kSpawn = 1,      // daemon -> host, first frame on a new host's socket pair (JSON)
  kHello = 2,      // daemon -> host, first frame on a later connection (JSON)
  kState = 3,      // host -> daemon, the answer to spawn/hello (JSON)
  kSnapshot = 4,   // host -> daemon, bytes that recreate the screen
  kOutput = 5,     // host -> daemon, what the program printed
  kInput = 6,      // daemon -> host, bytes for the program
  kResize = 7,     // daemon -> host (JSON)
  kEnd = 8,        // daemon -> host: end the session (SIGHUP, SIGTERM, SIGKILL)
  kFinished = 9,   // host -> daemon: every process is gone (JSON exit status)
  kRecorded = 10,  // daemon -> host: the end is recorded; the host may exit
  kMeta = 11,      // daemon -> host: the session's name or place changed (JSON)
  kRefused = 12,   // host -> daemon: the spawn failed, or the hello was refused (JSON)
  kRelease = 13,   // daemon -> host: the daemon is going away and keeps the session
  kWritten = 14,   // host -> daemon: this many bytes of input reached the program's PTY
};

std::string_view frame_type_name(FrameType type);

struct Frame {
  FrameType type = FrameType::kOutput;
  std::string payload;
};

// Appends one frame to `out`. The payload must be at most kMaxFramePayload.
void append_frame(std::string& out, FrameType type, std::string_view payload);
std::string encode_frame(FrameType type, std::string_view payload);

// Splits a byte stream into frames. Feed what the socket gave, then take frames until
// none is left. An unknown type or an oversized length fails the reader for good.
class FrameReader {
 public:
  void feed(std::string_view bytes);
  std::optional<Frame> next();
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  // Bytes held for a frame not complete yet.
  std::size_t buffered() const { return buffer_.size() - start_; }
  // Those bytes, for a reader that hands the stream on.
  std::string rest() const { return buffer_.substr(start_); }

 private:
  std::string buffer_;
  std::size_t start_ = 0;
  std::string error_;
};

// What a host keeps about its session so that a daemon started later can show it as it
// was: the registry's fields (core/session_registry.hpp) and the store's run.
struct SessionMeta {
  SessionId id = 0;
  std::int64_t run_id = 0;  // the daemon run that started it (the store's key)
  std::string program;      // catalog entry name
  std::string kind = "shell";
  std::string custom_name;
  std::string cwd;
  std::int64_t created_ms = 0;
  std::string creator = "key";
  bool shared_shell = false;
  bool shell_integration = false;
  std::int64_t position = 0;  // place in the tab order (smaller is further left)
  bool keep_screen = true;    // keep the last screen when the session ends
  std::string activity;       // "waiting" or "finished" while unseen; else empty
  Capabilities capabilities;  // what its sandbox enforces (none: not sandboxed)
  friend bool operator==(const SessionMeta&, const SessionMeta&) = default;
};

struct EndingTimes {
  std::int64_t hangup_ms = 300;
  std::int64_t terminate_ms = 2000;
  std::int64_t poll_ms = 50;
  friend bool operator==(const EndingTimes&, const EndingTimes&) = default;
};

struct SpawnRequest {
  int protocol = kProtocolVersion;
  std::string program;
  std::vector<std::string> argv;
  std::vector<std::string> env;
  std::string cwd;
  TerminalSize size;
  EndingTimes ending;
  SessionMeta meta;
  friend bool operator==(const SpawnRequest&, const SpawnRequest&) = default;
};

struct Hello {
  int protocol = kProtocolVersion;
};

struct HostState {
  int protocol = kProtocolVersion;
  std::string version;  // the host's wharf version
  int pid = 0;          // the program's (its process session's leader)
  int host_pid = 0;
  TerminalSize size;
  std::uint64_t bytes_out = 0;
  std::uint64_t bytes_in = 0;
  bool ending = false;  // an end was asked for and is under way
  // Milliseconds since the program last printed, and since anyone typed.
  std::int64_t output_age_ms = 0;
  std::int64_t input_age_ms = 0;
  std::optional<ExitStatus> finished;  // set once every process is gone
  SessionMeta meta;
};

struct Refusal {
  std::string message;
  std::string code;  // "spawn_failed", "protocol"
};

std::string to_json(const SpawnRequest& request);
std::string to_json(const Hello& hello);
std::string to_json(const HostState& state);
std::string to_json(const SessionMeta& meta);
std::string to_json(const ExitStatus& status);
std::string to_json(const TerminalSize& size);
std::string to_json(const Refusal& refusal);

Result<SpawnRequest> parse_spawn(std::string_view json);
Result<Hello> parse_hello(std::string_view json);
Result<HostState> parse_state(std::string_view json);
Result<SessionMeta> parse_meta(std::string_view json);
Result<ExitStatus> parse_exit(std::string_view json);
Result<TerminalSize> parse_size(std::string_view json);
Result<Refusal> parse_refusal(std::string_view json);

// The payload of `written`: a decimal count, so the daemon can bound what it has sent
// that the program has not read yet (app::Session::write_input).
std::string written_payload(std::uint64_t bytes);
std::optional<std::uint64_t> parse_written(std::string_view text);

}  // namespace wharf::core::host
