// The version wharf reports (`wharf --version`, the server's hello) and the number of
// the browser protocol written down in docs/protocol.md. Bump kProtocolVersion on any
// change a client could notice.
#pragma once

#include <string_view>

namespace wharf::core {

inline constexpr std::string_view kVersion = WHARF_VERSION;
inline constexpr int kProtocolVersion = 2;

}  // namespace wharf::core
