// Feeds arbitrary bytes, cut at arbitrary places, to the daemon-host frame reader and
// every parser of a frame's JSON (core/host_protocol.hpp): the daemon reads what a host
// sends and a host what any process of the user's may send to its socket. The reader must
// never hold more than one frame plus one piece, and whatever a parser accepts must
// encode and parse back to itself.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/host_protocol.hpp"

namespace {

using namespace wharf::core::host;

template <class T, class Parse>
void round_trip(const T& value, Parse parse) {
  auto again = parse(to_json(value));
  if (!again) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  std::size_t cut = data[0];
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);

  FrameReader reader;
  std::size_t at = 0;
  while (at < bytes.size()) {
    std::size_t n = std::min(bytes.size() - at, cut + 1);
    reader.feed(bytes.substr(at, n));
    at += n;
    while (auto frame = reader.next()) {
      if (frame->payload.size() > kMaxFramePayload) std::abort();
      std::string again = encode_frame(frame->type, frame->payload);
      if (again.size() != kFrameHeaderBytes + frame->payload.size()) std::abort();
    }
    if (reader.buffered() > bytes.size()) std::abort();
  }

  // Each JSON parser on the bytes as they are.
  if (auto spawn = parse_spawn(bytes)) {
    auto again = parse_spawn(to_json(spawn.value()));
    if (!again || !(again.value() == spawn.value())) std::abort();
  }
  if (auto state = parse_state(bytes)) round_trip(state.value(), parse_state);
  if (auto meta = parse_meta(bytes)) {
    auto again = parse_meta(to_json(meta.value()));
    if (!again || !(again.value() == meta.value())) std::abort();
  }
  if (auto status = parse_exit(bytes)) {
    auto again = parse_exit(to_json(status.value()));
    if (!again || !(again.value() == status.value())) std::abort();
  }
  if (auto size_ = parse_size(bytes)) round_trip(size_.value(), parse_size);
  if (auto n = parse_written(bytes)) {
    if (parse_written(written_payload(*n)) != n) std::abort();
  }
  (void)parse_hello(bytes);
  (void)parse_refusal(bytes);
  return 0;
}
