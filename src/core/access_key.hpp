// The access key: 16 random bytes shown as 32 lowercase hex characters. Whoever holds it
// may use every session, so it is compared in constant time (the time taken depends only
// on the length of what the client sent, never on how much of it matched).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace wharf::core {

inline constexpr std::size_t kKeyBytes = 16;

// Hex-encodes random bytes into the key's printed form.
std::string key_from_bytes(std::span<const std::uint8_t> bytes);

// True when `text` looks like a key wharf could have minted (for WHARF_KEY).
bool is_well_formed_key(std::string_view text);

// Constant-time equality: every byte of the candidate is always examined.
bool keys_match(std::string_view expected, std::string_view candidate);

}  // namespace wharf::core
