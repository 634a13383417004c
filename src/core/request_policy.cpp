#include "core/request_policy.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>

namespace wharf::core {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// The binary form of an IP literal, so that "::1" and "0:0::1" compare equal.
struct IpBytes {
  int family = 0;
  std::array<unsigned char, 16> bytes{};
  friend bool operator==(const IpBytes&, const IpBytes&) = default;
};

std::optional<IpBytes> parse_ip(std::string_view text) {
  if (text.empty() || text.size() >= INET6_ADDRSTRLEN) return std::nullopt;
  std::string z(text);
  IpBytes out;
  if (inet_pton(AF_INET, z.c_str(), out.bytes.data()) == 1) {
    out.family = AF_INET;
    return out;
  }
  if (inet_pton(AF_INET6, z.c_str(), out.bytes.data()) == 1) {
    out.family = AF_INET6;
    return out;
  }
  return std::nullopt;
}

}  // namespace

std::optional<HostPort> parse_host_header(std::string_view header) {
  if (header.empty()) return std::nullopt;
  HostPort out;
  std::string_view rest;
  if (header.front() == '[') {
    auto close = header.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    out.host = std::string(header.substr(1, close - 1));
    rest = header.substr(close + 1);
    if (!is_ip_literal(out.host) || out.host.find(':') == std::string::npos) return std::nullopt;
  } else {
    auto colon = header.find(':');
    out.host = std::string(header.substr(0, colon));
    rest = colon == std::string_view::npos ? std::string_view{} : header.substr(colon);
    if (out.host.empty()) return std::nullopt;
    for (char c : out.host) {
      auto u = static_cast<unsigned char>(c);
      if (!std::isalnum(u) && c != '.' && c != '-' && c != '_') return std::nullopt;
    }
  }
  if (!rest.empty()) {
    if (rest.front() != ':' || rest.size() < 2 || rest.size() > 6) return std::nullopt;
    std::uint16_t port = 0;
    auto digits = rest.substr(1);
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (ec != std::errc{} || ptr != digits.data() + digits.size()) return std::nullopt;
    out.port = port;
  }
  return out;
}

bool is_ip_literal(std::string_view host) {
  return parse_ip(host).has_value();
}

bool is_loopback_ip(std::string_view ip) {
  auto parsed = parse_ip(ip);
  if (!parsed) return false;
  if (parsed->family == AF_INET) return parsed->bytes[0] == 127;
  static constexpr std::array<unsigned char, 16> kV6Loopback{0, 0, 0, 0, 0, 0, 0, 0,
                                                             0, 0, 0, 0, 0, 0, 0, 1};
  return parsed->bytes == kV6Loopback;
}

bool is_wildcard_ip(std::string_view ip) {
  auto parsed = parse_ip(ip);
  if (!parsed) return false;
  return std::all_of(parsed->bytes.begin(), parsed->bytes.end(),
                     [](unsigned char b) { return b == 0; });
}

bool host_allowed(std::string_view host_header, const ListenAddress& listen) {
  auto parsed = parse_host_header(host_header);
  if (!parsed) return false;
  // Browsers omit the port only for the scheme's default; wharf never assumes one.
  std::uint16_t port = parsed->port.value_or(80);
  if (port != listen.port) return false;
  if (iequals(parsed->host, "localhost")) return true;
  auto host_ip = parse_ip(parsed->host);
  if (!host_ip) return false;  // any other name could be rebound to us
  if (is_wildcard_ip(listen.ip)) return !is_wildcard_ip(parsed->host);
  auto bound = parse_ip(listen.ip);
  return bound && *bound == *host_ip;
}

bool origin_allowed(std::string_view origin_header, std::string_view host_header) {
  constexpr std::string_view kScheme = "http://";
  if (host_header.empty() || origin_header.size() != kScheme.size() + host_header.size())
    return false;
  return iequals(origin_header.substr(0, kScheme.size()), kScheme) &&
         iequals(origin_header.substr(kScheme.size()), host_header);
}

}  // namespace wharf::core
