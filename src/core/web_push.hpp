// The plain-value side of Web Push (RFC 8030, 8291, 8292): base64url, and a browser's
// PushSubscription read and checked before wharf keeps it or sends to it. The keys and
// the encryption themselves call OpenSSL and live in app/web_push_crypto.hpp.
//
// Invariants: a subscription that parse_push_subscription() accepts has an endpoint wharf
// may POST to (https://, or http:// to a loopback address, which only tests use: a push
// service is always https), a p256dh key of 65 bytes in uncompressed form (0x04 first;
// whether the point is on the curve is the crypto's check) and an auth secret of exactly
// 16 bytes. Nothing here logs or keeps the endpoint beyond the returned value: the
// endpoint is a capability (whoever holds it may push to that browser).
#pragma once

#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace wharf::core {

inline constexpr std::size_t kPushPublicKeyBytes = 65;  // 0x04 || X || Y on P-256
inline constexpr std::size_t kPushAuthBytes = 16;
inline constexpr std::size_t kMaxPushEndpointBytes = 2048;

// RFC 4648 section 5, without padding.
std::string base64url_encode(std::span<const std::uint8_t> bytes);
std::string base64url_encode(std::string_view bytes);
// Accepts the URL-safe alphabet with or without '=' padding; nullopt for anything else.
std::optional<std::vector<std::uint8_t>> base64url_decode(std::string_view text);

struct PushSubscription {
  std::string endpoint;
  std::vector<std::uint8_t> p256dh;  // kPushPublicKeyBytes
  std::vector<std::uint8_t> auth;    // kPushAuthBytes
};

// The JSON a browser's PushSubscription.toJSON() gives: {"endpoint": URL, "keys":
// {"p256dh": B64URL, "auth": B64URL}} (other members, like expirationTime, are ignored).
// Errors carry the code "bad_argument" and say which part is wrong.
Result<PushSubscription> parse_push_subscription(const boost::json::value& value);

// Whether wharf may send to this endpoint: https://HOST[:PORT]/..., or http:// to
// 127.0.0.0/8, [::1] or localhost. No user info, no spaces or control characters.
Status check_push_endpoint(std::string_view endpoint);

// The endpoint's origin (RFC 6454: scheme, lower-case host, the port unless it is the
// scheme's default), which a VAPID token names as its audience (RFC 8292 section 2).
// Only for an endpoint check_push_endpoint() accepted.
std::string push_audience(std::string_view endpoint);

}  // namespace wharf::core
