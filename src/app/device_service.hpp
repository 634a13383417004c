// The paired devices of this daemon and the pairing codes that bring new ones in: the
// one owner of STATE_DIR/devices.json (0600, rewritten whole through a temporary file, so
// a crash leaves the old list or the new one). Every door (the page's cookie check, the
// `?k=` trade, /pair/CODE, the devices operations behind the CLI, REST and MCP) goes
// through this object, on the daemon's event-loop thread.
//
// Invariants: tokens exist only in the Set-Cookie that hands them out; the file and the
// memory hold their SHA-256 (core/device_tokens.hpp). A revoked device is forgotten at
// once and the listener told, so its open windows close (WindowListener::on_device_revoked).
// The access key is no part of this: rotating it leaves every device paired.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/device_tokens.hpp"
#include "core/pairing_codes.hpp"
#include "core/result.hpp"

namespace wharf::app {

struct PairedDevice {
  core::DeviceRecord record;
  std::string token;  // for the Set-Cookie, and nowhere else
};

// How /pair/CODE went: a device, or why not (and for a throttle, when to try again).
struct PairingOutcome {
  enum class Kind { kPaired, kBadCode, kThrottled, kFailed };
  Kind kind = Kind::kBadCode;
  std::optional<PairedDevice> device;
  std::int64_t retry_after = 0;
  std::string message;  // kFailed: why
};

class DeviceService {
 public:
  using Clock = std::function<std::int64_t()>;  // seconds since the epoch

  // Reads `file` if it exists; an unreadable or foreign file is an error (the daemon says
  // so and does not start, rather than forget every device silently).
  static core::Result<std::unique_ptr<DeviceService>> open(std::filesystem::path file,
                                                           Clock clock = {});

  // A new device named `name` (cleaned; empty becomes "device"), saved before it returns.
  core::Result<PairedDevice> pair(std::string_view name);
  // The device a cookie's token names, its last use noted (saved at most once a minute).
  std::optional<std::int64_t> authenticate(std::string_view token);
  std::vector<core::DeviceRecord> list() const { return registry_.devices(); }
  // Forgets the device and tells the listener; code "no_device" when there is none.
  core::Status revoke(std::int64_t id);
  void on_revoked(std::function<void(std::int64_t)> listener) { on_revoked_ = std::move(listener); }

  // A one-time code (core/pairing_codes.hpp) and when it expires (seconds since the epoch).
  // `name`, if given, names the device that redeems it.
  core::Result<core::PairingCodes::Issued> create_code(std::string_view name = {});
  // Trades a code for a device named as the code says, else `fallback_name` (from its
  // browser); bad codes count towards the throttle.
  PairingOutcome redeem(std::string_view code_text, std::string_view fallback_name);

  // Where links printed and shown point: public_url if configured, else the listen URL.
  void set_base_url(std::string url) { base_url_ = std::move(url); }
  const std::string& base_url() const { return base_url_; }
  // The TLS certificate's SHA-256 fingerprint when wharf serves https (empty: plain http).
  void set_fingerprint(std::function<std::string()> f) { fingerprint_ = std::move(f); }
  std::string fingerprint() const { return fingerprint_ ? fingerprint_() : std::string(); }

 private:
  DeviceService(std::filesystem::path file, Clock clock);
  core::Status save() const;
  std::int64_t now() const { return clock_(); }

  std::filesystem::path file_;
  Clock clock_;
  core::DeviceRegistry registry_;
  core::PairingCodes codes_;
  core::BadCodeThrottle throttle_;
  std::function<void(std::int64_t)> on_revoked_;
  std::string base_url_;
  std::function<std::string()> fingerprint_;
};

}  // namespace wharf::app
