// UTF-8 encoding of one code point, shared by the screen model and its guard.
#pragma once

#include <cstdint>
#include <string>

namespace wharf::core {

// Appends `cp` encoded as UTF-8; values past U+10FFFF append nothing.
void append_utf8(std::string& out, std::uint32_t cp);

}  // namespace wharf::core
