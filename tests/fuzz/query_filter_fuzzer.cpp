// Arbitrary program output through the query filter of `wharf attach`, whole and cut at
// places the first byte chooses: the filter only ever removes bytes, and how output is
// cut into feeds (PTY reads, WebSocket frames) never changes what the terminal sees.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/query_filter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t step = data[0] % 16 + 1;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);

  wharf::core::QueryFilter whole;
  std::string at_once;
  whole.filter(bytes, at_once);
  if (at_once.size() > bytes.size()) std::abort();

  wharf::core::QueryFilter cut;
  std::string in_pieces;
  for (std::size_t at = 0; at < bytes.size(); at += step)
    cut.filter(bytes.substr(at, step), in_pieces);
  if (in_pieces != at_once || cut.alternate_screen() != whole.alternate_screen()) std::abort();
  return 0;
}
