#include "core/terminal_size.hpp"

#include <algorithm>

namespace wharf::core {

TerminalSize clamp_size(std::int64_t cols, std::int64_t rows) {
  return TerminalSize{
      .cols = static_cast<std::uint16_t>(std::clamp<std::int64_t>(cols, kMinCols, kMaxCols)),
      .rows = static_cast<std::uint16_t>(std::clamp<std::int64_t>(rows, 1, kMaxRows)),
  };
}

}  // namespace wharf::core
