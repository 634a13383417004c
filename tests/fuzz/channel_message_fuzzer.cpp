// Feeds arbitrary bytes to the session-channel parsers (core/channel_message.hpp): the
// program in a sandbox writes these lines, so every input must yield a request or an
// Error, never a crash, and a parsed request must keep every bound and survive a round
// trip through the serializer unchanged.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/channel_message.hpp"
#include "core/guard_rules.hpp"

namespace core = wharf::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)core::parse_channel_reply(text);
  auto parsed = core::parse_channel_request(text);
  if (!parsed.ok()) return 0;
  std::string line = core::serialize_channel_request(parsed.value());
  if (line.size() > core::kMaxChannelLineBytes + 1024) std::abort();
  auto again = core::parse_channel_request(line);
  if (!again.ok() || core::serialize_channel_request(again.value()) != line) std::abort();
  if (const auto* guard = std::get_if<core::ChannelGuard>(&parsed.value())) {
    if (guard->argv.empty() || guard->argv.size() > core::kMaxChannelArgs) std::abort();
    if (guard->cwd.empty() || guard->cwd.front() != '/') std::abort();
    // The daemon runs the guard rules on what the sandbox sent: they must hold up too.
    for (std::string_view program : {"git", "gh"}) {
      auto verdict = core::check_guard(program, guard->argv);
      if (verdict.argv.empty() || verdict.argv[0] != program) std::abort();
    }
  } else if (std::get<core::ChannelNotify>(parsed.value()).message.size() >
             core::kMaxChannelMessageText) {
    std::abort();
  }
  return 0;
}
