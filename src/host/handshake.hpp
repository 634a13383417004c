// Blocking frame I/O for the two handshakes, each with a deadline: a new host reading its
// spawn request from its socket pair, and a daemon reading a host's first answer. After
// the handshake both sides hand the socket to a FrameLink on their event loop.
#pragma once

#include <chrono>
#include <string_view>

#include "core/host_protocol.hpp"
#include "core/result.hpp"

namespace wharf::host {

// Writes a whole frame; false when the peer is gone (never raises SIGPIPE).
bool write_frame(int fd, core::host::FrameType type, std::string_view payload);

// The next frame from `fd`, read into `reader` (which keeps what follows it). Error
// codes: "gone" (the peer closed), "timeout" (the deadline passed), "protocol" (a frame
// the reader refused), "io" (a system call failed).
core::Result<core::host::Frame> read_frame(int fd, core::host::FrameReader& reader,
                                           std::chrono::steady_clock::time_point deadline);

}  // namespace wharf::host
