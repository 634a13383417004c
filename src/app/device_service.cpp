#include "app/device_service.hpp"

#include <spdlog/spdlog.h>
#include <sys/random.h>

#include <array>
#include <boost/json.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "app/key_file.hpp"

namespace wharf::app {
namespace {

core::Status fill_random(std::span<std::uint8_t> bytes) {
  std::size_t filled = 0;
  while (filled < bytes.size()) {
    ssize_t n = getrandom(bytes.data() + filled, bytes.size() - filled, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return core::Error{std::string("cannot read random bytes: ") + std::strerror(errno),
                         "internal"};
    }
    filled += static_cast<std::size_t>(n);
  }
  return core::ok_status();
}

std::int64_t system_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

DeviceService::DeviceService(std::filesystem::path file, Clock clock)
    : file_(std::move(file)), clock_(clock ? std::move(clock) : Clock(system_seconds)) {}

core::Result<std::unique_ptr<DeviceService>> DeviceService::open(std::filesystem::path file,
                                                                 Clock clock) {
  std::unique_ptr<DeviceService> service(new DeviceService(std::move(file), std::move(clock)));
  std::error_code ec;
  if (!std::filesystem::exists(service->file_, ec)) return service;
  std::ifstream in(service->file_);
  std::stringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) return core::Error{"cannot read " + service->file_.string(), "bad_file"};
  boost::system::error_code parse_ec;
  auto value = boost::json::parse(text.str(), parse_ec);
  if (parse_ec)
    return core::Error{service->file_.string() + " is not JSON: " + parse_ec.message() +
                           " (move it away to start with no paired devices)",
                       "bad_file"};
  auto registry = core::DeviceRegistry::from_json(value);
  if (!registry)
    return core::Error{service->file_.string() + ": " + registry.error().message, "bad_file"};
  service->registry_ = std::move(registry.value());
  return service;
}

core::Status DeviceService::save() const {
  return write_private_file(file_, boost::json::serialize(registry_.to_json()) + "\n");
}

core::Result<PairedDevice> DeviceService::pair(std::string_view name) {
  std::array<std::uint8_t, core::kDeviceTokenBytes> bytes{};
  if (auto filled = fill_random(bytes); !filled) return filled.error();
  std::string token = core::device_token_from_bytes(bytes);
  std::string clean = core::clean_device_name(name);
  auto added = registry_.add(token, clean.empty() ? "device" : clean, now());
  if (!added) return added.error();
  if (auto saved = save(); !saved) {
    registry_.revoke(added.value().id);  // not written down: not paired
    return core::Error{saved.error().message, "internal"};
  }
  spdlog::info("device {} paired ({})", added.value().id, added.value().name);
  return PairedDevice{std::move(added.value()), std::move(token)};
}

std::optional<std::int64_t> DeviceService::authenticate(std::string_view token) {
  auto id = registry_.find(token);
  if (id && registry_.touch(*id, now())) {
    if (auto saved = save(); !saved) spdlog::warn("devices: {}", saved.error().message);
  }
  return id;
}

core::Status DeviceService::revoke(std::int64_t id) {
  if (!registry_.revoke(id))
    return core::Error{"no paired device has id " + std::to_string(id) + " (see `wharf devices`)",
                       "no_device"};
  if (auto saved = save(); !saved) return core::Error{saved.error().message, "internal"};
  spdlog::info("device {} revoked", id);
  if (on_revoked_) on_revoked_(id);
  return core::ok_status();
}

core::Result<core::PairingCodes::Issued> DeviceService::create_code(std::string_view name) {
  // Rejection sampling skips a few bytes; 64 leave a 10-letter code all but certain.
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::array<std::uint8_t, 64> bytes{};
    if (auto filled = fill_random(bytes); !filled) return filled.error();
    if (auto code = core::pairing_code_from_bytes(bytes))
      return codes_.add(*code, now(), core::clean_device_name(name));
  }
  return core::Error{"cannot make a pairing code", "internal"};
}

PairingOutcome DeviceService::redeem(std::string_view code_text, std::string_view fallback_name) {
  std::int64_t at = now();
  if (throttle_.throttled(at))
    return PairingOutcome{.kind = PairingOutcome::Kind::kThrottled,
                          .retry_after = throttle_.retry_after(at)};
  auto code = core::normalize_pairing_code(code_text);
  auto issued = code ? codes_.redeem(*code, at) : std::nullopt;
  if (!issued) {
    throttle_.record_bad(at);
    spdlog::info("a pairing link was refused (used, expired or unknown)");
    return PairingOutcome{.kind = PairingOutcome::Kind::kBadCode};
  }
  auto paired = pair(issued->name.empty() ? fallback_name : std::string_view(issued->name));
  if (!paired)
    return PairingOutcome{.kind = PairingOutcome::Kind::kFailed, .message = paired.error().message};
  return PairingOutcome{.kind = PairingOutcome::Kind::kPaired, .device = std::move(paired.value())};
}

}  // namespace wharf::app
