#include "core/web_push.hpp"

#include <algorithm>
#include <array>
#include <boost/json/object.hpp>
#include <cctype>

namespace wharf::core {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct EndpointParts {
  std::string scheme;  // "https" or "http", lower case
  std::string host;    // lower case; an IPv6 literal keeps its brackets
  std::string port;    // "" when none was written
};

std::optional<EndpointParts> split_endpoint(std::string_view url) {
  EndpointParts parts;
  std::size_t colon = url.find("://");
  if (colon == std::string_view::npos) return std::nullopt;
  parts.scheme = lower(url.substr(0, colon));
  std::string_view rest = url.substr(colon + 3);
  std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;
  std::string_view host = authority;
  std::string_view port;
  if (authority.front() == '[') {
    std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return std::nullopt;
      port = after.substr(1);
    }
  } else if (std::size_t c = authority.rfind(':'); c != std::string_view::npos) {
    host = authority.substr(0, c);
    port = authority.substr(c + 1);
  }
  if (host.empty() || host == "[]") return std::nullopt;
  if (!port.empty()) {
    if (port.size() > 5 ||
        !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    if (std::stoul(std::string(port)) > 65535) return std::nullopt;
  }
  parts.host = lower(host);
  parts.port = std::string(port);
  return parts;
}

bool is_loopback_host(std::string_view host) {
  if (host == "localhost" || host == "[::1]") return true;
  if (!host.starts_with("127.")) return false;
  return std::all_of(host.begin(), host.end(), [](char c) {
    return c == '.' || std::isdigit(static_cast<unsigned char>(c));
  });
}

Result<std::vector<std::uint8_t>> key_field(const boost::json::object& keys, std::string_view name,
                                            std::size_t size) {
  const boost::json::value* value = keys.if_contains(name);
  if (value == nullptr || !value->is_string())
    return Error{"keys." + std::string(name) + " must be a base64url string", "bad_argument"};
  auto bytes = base64url_decode(value->get_string());
  if (!bytes || bytes->size() != size)
    return Error{
        "keys." + std::string(name) + " must be " + std::to_string(size) + " bytes in base64url",
        "bad_argument"};
  return std::move(*bytes);
}

}  // namespace

std::string base64url_encode(std::span<const std::uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() * 4 + 2) / 3);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    std::uint32_t n =
        (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  std::size_t left = bytes.size() - i;
  if (left > 0) {
    std::uint32_t n = std::uint32_t{bytes[i]} << 16;
    if (left == 2) n |= std::uint32_t{bytes[i + 1]} << 8;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    if (left == 2) out += kAlphabet[(n >> 6) & 63];
  }
  return out;
}

std::string base64url_encode(std::string_view bytes) {
  return base64url_encode(
      std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

std::optional<std::vector<std::uint8_t>> base64url_decode(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) return std::nullopt;
  std::vector<std::uint8_t> out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    int v = sextet(c);
    if (v < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<std::uint8_t>((bits >> count) & 0xff));
    }
  }
  // The bits left over must be zero, so that each byte string has one spelling.
  if ((bits & ((1u << count) - 1)) != 0) return std::nullopt;
  return out;
}

Status check_push_endpoint(std::string_view endpoint) {
  if (endpoint.empty() || endpoint.size() > kMaxPushEndpointBytes)
    return Error{"endpoint must be a URL of at most 2048 bytes", "bad_argument"};
  for (char c : endpoint)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
      return Error{"endpoint must not contain spaces or control characters", "bad_argument"};
  auto parts = split_endpoint(endpoint);
  if (!parts) return Error{"endpoint is not an http(s) URL with a host", "bad_argument"};
  if (parts->scheme == "https") return ok_status();
  if (parts->scheme == "http" && is_loopback_host(parts->host)) return ok_status();
  return Error{"endpoint must be https:// (plain http only to this machine, for tests)",
               "bad_argument"};
}

std::string push_audience(std::string_view endpoint) {
  auto parts = split_endpoint(endpoint);
  if (!parts) return "";
  std::string origin = parts->scheme + "://" + parts->host;
  bool default_port = (parts->scheme == "https" && parts->port == "443") ||
                      (parts->scheme == "http" && parts->port == "80");
  if (!parts->port.empty() && !default_port) origin += ":" + parts->port;
  return origin;
}

Result<PushSubscription> parse_push_subscription(const boost::json::value& value) {
  if (!value.is_object()) return Error{"a push subscription is a JSON object", "bad_argument"};
  const boost::json::object& obj = value.get_object();
  const boost::json::value* endpoint = obj.if_contains("endpoint");
  if (endpoint == nullptr || !endpoint->is_string())
    return Error{"endpoint must be a string", "bad_argument"};
  PushSubscription sub;
  sub.endpoint = std::string(endpoint->get_string());
  if (auto checked = check_push_endpoint(sub.endpoint); !checked) return checked.error();
  const boost::json::value* keys = obj.if_contains("keys");
  if (keys == nullptr || !keys->is_object())
    return Error{"keys must be an object with p256dh and auth", "bad_argument"};
  auto p256dh = key_field(keys->get_object(), "p256dh", kPushPublicKeyBytes);
  if (!p256dh) return p256dh.error();
  if (p256dh.value().front() != 0x04)
    return Error{"keys.p256dh must be an uncompressed P-256 point", "bad_argument"};
  auto auth = key_field(keys->get_object(), "auth", kPushAuthBytes);
  if (!auth) return auth.error();
  sub.p256dh = std::move(p256dh.value());
  sub.auth = std::move(auth.value());
  return sub;
}

}  // namespace wharf::core
