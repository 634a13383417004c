// Feeds arbitrary bytes to the control-message parser: it must answer every input with
// a message or a ProtocolError, never crash, and keep any resize inside the bounds.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/control_message.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto message = wharf::core::parse_client_message(text);
  if (auto* resize = std::get_if<wharf::core::ResizeRequest>(&message)) {
    auto s = resize->size;
    if (s.cols < 1 || s.cols > wharf::core::kMaxCols || s.rows < 1 ||
        s.rows > wharf::core::kMaxRows)
      std::abort();
  }
  return 0;
}
