// The cryptography of Web Push, on OpenSSL 3: the daemon's VAPID key pair (RFC 8292),
// the signed token that names wharf to a push service, and the aes128gcm encryption of a
// message for one browser (RFC 8291, on RFC 8188's content coding).
//
// Why app and not core: the arithmetic is pure, but it is OpenSSL's, and a fresh sender
// key and salt per message come from the system's random source; core stays free of
// both (it is fuzzed and unit-tested with plain values alone).
//
// Invariants: the VAPID key pair is made once and kept in STATE_DIR/vapid.json (mode 0600,
// written whole); a browser's subscription is bound to its public key, so it is never
// replaced silently: a file that is there but unreadable is an error, not a new key.
// Every message gets its own ephemeral sender key and salt (fixed ones only through
// PushKeysForTest, for RFC 8291's test vector). An encrypted body is one record of at most
// kPushRecordSize bytes, padding delimiter 0x02, so a message longer than
// kMaxPushPlaintext is refused, never split.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace wharf::app {

inline constexpr std::uint32_t kPushRecordSize = 4096;
// 4096 bytes of body at most (what push services take): the 86-byte header, the
// 16-byte tag and the delimiter leave this much for the message.
inline constexpr std::size_t kMaxPushPlaintext = 4096 - 86 - 16 - 1;

// A P-256 key pair as bytes: the private scalar, and the public point uncompressed
// (0x04 || X || Y), as applicationServerKey and the aes128gcm header carry it.
struct P256KeyPair {
  std::array<std::uint8_t, 32> private_key{};
  std::array<std::uint8_t, 65> public_key{};
};

core::Result<P256KeyPair> generate_p256_key_pair();
// The pair from its bytes, checked: the point is on the curve and belongs to the scalar.
core::Result<P256KeyPair> p256_key_pair(std::span<const std::uint8_t> private_key,
                                        std::span<const std::uint8_t> public_key);

// STATE_DIR/vapid.json: {"private": B64URL, "public": B64URL}. Made (0600) when absent.
core::Result<P256KeyPair> load_or_create_vapid_keys(const std::filesystem::path& file);

// RFC 8292's JWT: ES256 over {"typ":"JWT","alg":"ES256"} and {"aud", "exp", "sub"}.
core::Result<std::string> vapid_token(const P256KeyPair& keys, std::string_view audience,
                                      std::string_view subject, std::int64_t expires_at);
// The Authorization header's value: "vapid t=TOKEN, k=PUBLIC_KEY".
std::string vapid_authorization(const P256KeyPair& keys, std::string_view token);
// Whether `token`'s ES256 signature holds for `public_key` (what a push service checks;
// the tests use it).
bool verify_es256_token(std::span<const std::uint8_t> public_key, std::string_view token);

// RFC 8291 section 5's inputs that are random in real use, fixed for the test vector.
struct PushKeysForTest {
  P256KeyPair sender;
  std::array<std::uint8_t, 16> salt{};
};

// The aes128gcm body for one browser (its p256dh point and auth secret). Errors:
// "too_large" over kMaxPushPlaintext, "bad_argument" for a key that is not a P-256 point.
core::Result<std::string> encrypt_push_message(std::string_view plaintext,
                                               std::span<const std::uint8_t> ua_public,
                                               std::span<const std::uint8_t> auth_secret,
                                               const PushKeysForTest* fixed = nullptr);

}  // namespace wharf::app
