#include "core/device_tokens.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <boost/json.hpp>

#include "core/access_key.hpp"

namespace wharf::core {
namespace json = boost::json;

std::string sha256_hex(std::string_view text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_Digest(text.data(), text.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1)
    std::abort();  // SHA-256 cannot fail on a working OpenSSL
  return key_from_bytes(std::span<const std::uint8_t>(digest.data(), size));
}

std::string device_token_from_bytes(std::span<const std::uint8_t> bytes) {
  return key_from_bytes(bytes);
}

bool is_well_formed_device_token(std::string_view text) {
  return text.size() == kDeviceTokenBytes * 2 &&
         text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

std::string device_name_from_user_agent(std::string_view ua) {
  auto has = [ua](std::string_view word) { return ua.find(word) != std::string_view::npos; };
  // Order matters: Edge and Opera say Chrome, Chrome says Safari, Android says Linux.
  std::string_view browser = has("Firefox/")                  ? "Firefox"
                             : has("Edg/")                    ? "Edge"
                             : has("OPR/")                    ? "Opera"
                             : has("Chrome/") || has("CriOS") ? "Chrome"
                             : has("Safari/")                 ? "Safari"
                                                              : "browser";
  std::string_view platform = has("iPhone")                         ? "iPhone"
                              : has("iPad")                         ? "iPad"
                              : has("Android")                      ? "Android"
                              : has("CrOS")                         ? "ChromeOS"
                              : has("Windows")                      ? "Windows"
                              : has("Macintosh") || has("Mac OS X") ? "macOS"
                              : has("Linux") || has("X11")          ? "Linux"
                                                                    : "unknown";
  return std::string(browser) + " on " + std::string(platform);
}

std::string clean_device_name(std::string_view name) {
  std::string out;
  for (char c : name)
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) out.push_back(c);
  auto first = out.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  out = out.substr(first, out.find_last_not_of(' ') - first + 1);
  if (out.size() > 64) {
    std::size_t cut = 64;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xc0) == 0x80) --cut;
    out.resize(cut);
  }
  return out;
}

std::optional<std::string_view> cookie_value(std::string_view header, std::string_view name) {
  std::optional<std::string_view> found;
  while (!header.empty()) {
    std::size_t end = header.find(';');
    std::string_view pair = header.substr(0, end);
    header = end == std::string_view::npos ? std::string_view{} : header.substr(end + 1);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    while (!pair.empty() && pair.back() == ' ') pair.remove_suffix(1);
    std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos || pair.substr(0, eq) != name) continue;
    if (found) return std::nullopt;  // twice: which one counts is ambiguous
    std::string_view value = pair.substr(eq + 1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
      value = value.substr(1, value.size() - 2);
    found = value;
  }
  return found;
}

Result<DeviceRecord> DeviceRegistry::add(std::string_view token, std::string name,
                                         std::int64_t now) {
  if (devices_.size() >= kMaxDevices)
    return Error{"there are already " + std::to_string(kMaxDevices) +
                     " paired devices; revoke some first (`wharf devices`)",
                 "limit_reached"};
  DeviceRecord record{.id = next_id_++,
                      .name = std::move(name),
                      .token_hash = sha256_hex(token),
                      .created = now,
                      .last_used = now};
  devices_.push_back(record);
  return record;
}

std::optional<std::int64_t> DeviceRegistry::find(std::string_view token) const {
  if (!is_well_formed_device_token(token)) return std::nullopt;
  std::string hash = sha256_hex(token);
  // Every stored hash is compared, whatever matched: the time depends on the count only.
  std::optional<std::int64_t> match;
  for (const DeviceRecord& device : devices_)
    if (keys_match(device.token_hash, hash) && !match) match = device.id;
  return match;
}

bool DeviceRegistry::touch(std::int64_t id, std::int64_t now) {
  for (DeviceRecord& device : devices_) {
    if (device.id != id) continue;
    if (now - device.last_used < kLastUsedResolutionSeconds) return false;
    device.last_used = now;
    return true;
  }
  return false;
}

bool DeviceRegistry::revoke(std::int64_t id) {
  auto gone = std::remove_if(devices_.begin(), devices_.end(),
                             [id](const DeviceRecord& d) { return d.id == id; });
  if (gone == devices_.end()) return false;
  devices_.erase(gone, devices_.end());
  return true;
}

const DeviceRecord* DeviceRegistry::get(std::int64_t id) const {
  for (const DeviceRecord& device : devices_)
    if (device.id == id) return &device;
  return nullptr;
}

json::value DeviceRegistry::to_json() const {
  json::array list;
  for (const DeviceRecord& d : devices_)
    list.push_back(json::object{{"id", d.id},
                                {"name", d.name},
                                {"token_sha256", d.token_hash},
                                {"created", d.created},
                                {"last_used", d.last_used}});
  return json::object{{"next_id", next_id_}, {"devices", std::move(list)}};
}

Result<DeviceRegistry> DeviceRegistry::from_json(const json::value& value) {
  const Error bad{"devices.json is not what wharf wrote (expected {next_id, devices: [...]})",
                  "bad_file"};
  if (!value.is_object()) return bad;
  const json::object& root = value.get_object();
  const json::value* next = root.if_contains("next_id");
  const json::value* list = root.if_contains("devices");
  if (next == nullptr || !next->is_int64() || list == nullptr || !list->is_array()) return bad;
  DeviceRegistry registry;
  registry.next_id_ = std::max<std::int64_t>(1, next->get_int64());
  for (const json::value& item : list->get_array()) {
    if (!item.is_object()) return bad;
    const json::object& o = item.get_object();
    const json::value* id = o.if_contains("id");
    const json::value* name = o.if_contains("name");
    const json::value* hash = o.if_contains("token_sha256");
    const json::value* created = o.if_contains("created");
    const json::value* used = o.if_contains("last_used");
    if (id == nullptr || !id->is_int64() || id->get_int64() <= 0 || name == nullptr ||
        !name->is_string() || hash == nullptr || !hash->is_string() ||
        !is_well_formed_device_token(hash->get_string()) || created == nullptr ||
        !created->is_int64() || used == nullptr || !used->is_int64())
      return bad;
    registry.devices_.push_back(DeviceRecord{.id = id->get_int64(),
                                             .name = std::string(name->get_string()),
                                             .token_hash = std::string(hash->get_string()),
                                             .created = created->get_int64(),
                                             .last_used = used->get_int64()});
    registry.next_id_ = std::max(registry.next_id_, id->get_int64() + 1);
  }
  return registry;
}

}  // namespace wharf::core
