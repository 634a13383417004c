#include "core/terminal_size.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace wharf::core {
namespace {

TEST(TerminalSize, ClampsToOneThroughTheMaxima) {
  EXPECT_EQ(clamp_size(120, 40), (TerminalSize{120, 40}));
  EXPECT_EQ(clamp_size(0, 0), (TerminalSize{2, 1}));  // a wide character needs two columns
  EXPECT_EQ(clamp_size(-5, -1), (TerminalSize{2, 1}));
  EXPECT_EQ(clamp_size(501, 301), (TerminalSize{500, 300}));
  EXPECT_EQ(clamp_size(std::numeric_limits<std::int64_t>::max(),
                       std::numeric_limits<std::int64_t>::min()),
            (TerminalSize{500, 1}));
}

}  // namespace
}  // namespace wharf::core
