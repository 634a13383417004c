// What the router may ask about paired devices (app/device_service.hpp), as plain hooks in
// the ServerContext: the router stays pure (its unit tests and fuzzer set none, and then
// no cookie opens anything and /pair/ is 404), while the daemon wires them to its one
// DeviceService.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace wharf::server {

struct DeviceGrant {
  enum class Kind { kPaired, kBadCode, kThrottled, kFailed };
  Kind kind = Kind::kBadCode;
  std::string token;             // kPaired: for the Set-Cookie only
  std::int64_t retry_after = 0;  // kThrottled: seconds
  std::string message;           // kFailed: why
};

struct DeviceHooks {
  // The device a cookie's token names (its last use noted), or nullopt.
  std::function<std::optional<std::int64_t>(std::string_view token)> find;
  // A new device named `name`, for the `?k=` trade (kPaired or kFailed).
  std::function<DeviceGrant(std::string_view name)> pair;
  // A pairing code traded for a device named `name` unless the code names it.
  std::function<DeviceGrant(std::string_view code, std::string_view name)> redeem;
};

}  // namespace wharf::server
