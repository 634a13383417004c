// Feeds arbitrary bytes to the control-message parser: it must answer every input with
// a message or a ProtocolError, never crash, keep any resize inside the bounds and any
// decision's answer to a positive id and a note of at most 1000 bytes.
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
  // A decision's answer names a real id and carries a bounded note.
  if (auto* decide = std::get_if<wharf::core::DecideRequest>(&message)) {
    if (decide->id == 0 || decide->note.size() > wharf::core::kMaxDecideNoteBytes) std::abort();
  }
  return 0;
}
