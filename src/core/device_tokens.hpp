// Paired devices: a browser that traded the key (or a pairing code) for a device token of
// its own, kept in a cookie, so it stays signed in across restarts and key rotations and
// can be revoked alone.
//
// A token is 32 random bytes shown as 64 hex characters. Only its SHA-256 (hex) is ever
// stored: a copy of devices.json lets nobody in. A token is looked up by hashing it and
// comparing the hash with every stored one in constant time, so neither the position of
// a match nor the length of a shared prefix shows in the time taken. Ids are small
// positive integers, never reused (next_id only grows), so `wharf devices revoke 3`
// cannot hit a device paired later.
//
// Pure: the caller supplies the random bytes and the clock (seconds since the epoch);
// app/device_service.hpp reads and writes the file.
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

inline constexpr std::size_t kDeviceTokenBytes = 32;
// A device's last use is written down at most this often: a page load fetches some
// thirty files, and the file need not change for each.
inline constexpr std::int64_t kLastUsedResolutionSeconds = 60;
// More than this many devices is refused: each one costs a hash per request.
inline constexpr std::size_t kMaxDevices = 64;

struct DeviceRecord {
  std::int64_t id = 0;
  std::string name;
  std::string token_hash;      // SHA-256 of the token, 64 lowercase hex characters
  std::int64_t created = 0;    // seconds since the epoch
  std::int64_t last_used = 0;  // seconds since the epoch; 0: never
};

// SHA-256 of `text` as 64 lowercase hex characters.
std::string sha256_hex(std::string_view text);

// Hex of 32 random bytes: the token handed to the browser.
std::string device_token_from_bytes(std::span<const std::uint8_t> bytes);
bool is_well_formed_device_token(std::string_view text);

// "Chrome on Android", "Safari on iPhone", "Firefox on Linux", "browser on unknown":
// enough for a person to tell their devices apart in a list; never more of the header.
std::string device_name_from_user_agent(std::string_view user_agent);
// A name a person gave: control characters dropped, spaces trimmed, cut to 64 bytes
// (on a UTF-8 boundary); empty stays empty.
std::string clean_device_name(std::string_view name);

// The value of cookie `name` in a Cookie header ("a=1; b=2"), if present exactly once.
std::optional<std::string_view> cookie_value(std::string_view header, std::string_view name);

class DeviceRegistry {
 public:
  // Adds a device whose token is `token`; its id is the next free one. Refused past
  // kMaxDevices (code "limit_reached").
  Result<DeviceRecord> add(std::string_view token, std::string name, std::int64_t now);
  // The device `token` belongs to, comparing against every stored hash in constant time.
  std::optional<std::int64_t> find(std::string_view token) const;
  // Records a use; true when the record changed (last use older than the resolution), so
  // the caller saves.
  bool touch(std::int64_t id, std::int64_t now);
  // False when there is no such device.
  bool revoke(std::int64_t id);
  const std::vector<DeviceRecord>& devices() const { return devices_; }
  const DeviceRecord* get(std::int64_t id) const;

  // devices.json: {"next_id": N, "devices": [{id, name, token_sha256, created, last_used}]}.
  boost::json::value to_json() const;
  static Result<DeviceRegistry> from_json(const boost::json::value& value);

 private:
  std::vector<DeviceRecord> devices_;
  std::int64_t next_id_ = 1;
};

}  // namespace wharf::core
