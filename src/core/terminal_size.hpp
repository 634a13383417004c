// A terminal's size in character cells. Every size that reaches a PTY passes through
// clamp_size, so no client can ask for a zero-sized or absurdly large terminal.
#pragma once

#include <cstdint>

namespace wharf::core {

struct TerminalSize {
  std::uint16_t cols = 80;
  std::uint16_t rows = 24;
  friend bool operator==(const TerminalSize&, const TerminalSize&) = default;
};

// Two columns at least, as xterm.js requires: a wide character must fit in a row.
inline constexpr std::uint16_t kMinCols = 2;
inline constexpr std::uint16_t kMaxCols = 500;
inline constexpr std::uint16_t kMaxRows = 300;

TerminalSize clamp_size(std::int64_t cols, std::int64_t rows);

}  // namespace wharf::core
