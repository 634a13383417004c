// Arbitrary Host and Origin headers: the rules must never crash, and a Host they accept
// must name the bound port and either localhost or the bound address. The whole input as
// a request target: what may be logged of it is one short line without the key.
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/request_policy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto split = input.find('\n');
  std::string_view host = input.substr(0, split);
  std::string_view origin = split == std::string_view::npos ? "" : input.substr(split + 1);
  const wharf::core::ListenAddress listen{.ip = "127.0.0.1", .port = 7373};
  if (wharf::core::host_allowed(host, listen)) {
    auto parsed = wharf::core::parse_host_header(host);
    if (!parsed || parsed->port != 7373) std::abort();
    std::string lowered = parsed->host;
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lowered != "127.0.0.1" && lowered != "localhost") std::abort();
  }
  (void)wharf::core::origin_allowed(origin, host);

  constexpr std::string_view kKey = "00017f80abcdefff1020304050607090";
  std::string logged = wharf::core::loggable_target(input, kKey);
  if (logged.size() > 310 || logged.find(kKey) != std::string::npos ||
      logged.find('\n') != std::string::npos)
    std::abort();
  return 0;
}
