// Feeds arbitrary bytes to the key-name encoder: the first byte picks the terminal modes,
// the rest splits into names at spaces (runs of them) and at every NUL (so empty names
// occur too). Whatever happens must obey what send_keys relies on: a call is all or
// nothing; accepted names each encode alone to non-empty bytes that concatenate to the
// whole; the modes change bytes, never acceptance; a refusal has code "bad_key" and a
// short, printable message.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/key_names.hpp"

namespace {

using namespace wharf::core;

std::vector<std::string> split(std::string_view text) {
  std::vector<std::string> names;
  std::string current;
  bool open = false;  // a name is under way (possibly empty, after a NUL)
  for (char c : text) {
    if (c == ' ' || c == '\0') {
      if (open || !current.empty() || c == '\0') names.push_back(current);
      current.clear();
      open = c == '\0';
      continue;
    }
    current.push_back(c);
    open = true;
  }
  if (open || !current.empty()) names.push_back(current);
  return names;
}

void check_refusal(const Error& error) {
  if (error.code != "bad_key" || error.message.empty() || error.message.size() > 400) std::abort();
  for (char c : error.message) {
    if (c < 0x20 || c > 0x7e) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  KeyModes modes{.application_cursor = (data[0] & 1) != 0,
                 .application_keypad = (data[0] & 2) != 0};
  std::vector<std::string> names =
      split(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));

  auto all = encode_keys(names, modes);
  auto flipped = encode_keys(names, KeyModes{.application_cursor = !modes.application_cursor,
                                             .application_keypad = !modes.application_keypad});
  if (all.ok() != flipped.ok()) std::abort();
  if (!all) {
    check_refusal(all.error());
    if (names.empty() || names.size() > kMaxKeyNames) return 0;
    bool one_refused = false;
    for (const std::string& name : names) {
      auto alone = encode_keys(std::vector<std::string>{name}, modes);
      if (!alone) {
        check_refusal(alone.error());
        one_refused = true;
      }
    }
    if (!one_refused) std::abort();  // refused as a whole, but every name was fine
    return 0;
  }
  if (all.value().empty() || names.empty() || names.size() > kMaxKeyNames) std::abort();
  std::string joined;
  for (const std::string& name : names) {
    if (name.empty() || name.size() > kMaxKeyNameBytes) std::abort();
    auto alone = encode_keys(std::vector<std::string>{name}, modes);
    if (!alone || alone.value().empty()) std::abort();
    joined += alone.value();
  }
  if (joined != all.value()) std::abort();
  return 0;
}
