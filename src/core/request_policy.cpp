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

namespace {

// The host of `public_url` ("https://box.example:8443" -> "box.example").
std::optional<HostPort> public_host(const Reach& reach) {
  std::string_view url = reach.public_url;
  auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return std::nullopt;
  return parse_host_header(url.substr(scheme_end + 3));
}

bool names_deliberately(const HostPort& parsed, const Reach& reach) {
  bool listed = std::any_of(reach.allowed_hosts.begin(), reach.allowed_hosts.end(),
                            [&](const std::string& name) { return iequals(name, parsed.host); });
  if (listed) return true;
  auto public_name = public_host(reach);
  return public_name && iequals(public_name->host, parsed.host);
}

}  // namespace

bool deliberately_named(std::string_view host_header, const Reach& reach) {
  auto parsed = parse_host_header(host_header);
  return parsed && names_deliberately(*parsed, reach);
}

HostVerdict judge_host(std::string_view host_header, const ListenAddress& listen,
                       const Reach& reach) {
  auto parsed = parse_host_header(host_header);
  if (!parsed) return HostVerdict::kForbidden;
  // A name the operator listed reaches wharf through something in front of it (a proxy,
  // a tailnet), whose port wharf cannot know.
  if (names_deliberately(*parsed, reach)) return HostVerdict::kAllowed;
  bool localhost = iequals(parsed->host, "localhost");
  auto host_ip = parse_ip(parsed->host);
  if (!localhost && !host_ip) return HostVerdict::kForbidden;  // a name could be rebound to us
  // Browsers omit the port only for the scheme's default; wharf never listens there by
  // itself, but an operator may have told it to.
  std::uint16_t port = parsed->port.value_or(reach.tls ? 443 : 80);
  if (port != listen.port) return HostVerdict::kMisdirected;
  if (localhost) return HostVerdict::kAllowed;
  bool ours = false;
  if (is_wildcard_ip(listen.ip)) {
    ours = !is_wildcard_ip(parsed->host);
  } else {
    auto bound = parse_ip(listen.ip);
    ours = bound && *bound == *host_ip;
  }
  return ours ? HostVerdict::kAllowed : HostVerdict::kMisdirected;
}

bool host_allowed(std::string_view host_header, const ListenAddress& listen, const Reach& reach) {
  return judge_host(host_header, listen, reach) == HostVerdict::kAllowed;
}

bool origin_allowed(std::string_view origin_header, std::string_view host_header,
                    const Reach& reach) {
  if (host_header.empty()) return false;
  auto is_scheme_and_host = [&](std::string_view scheme) {
    return origin_header.size() == scheme.size() + host_header.size() &&
           iequals(origin_header.substr(0, scheme.size()), scheme) &&
           iequals(origin_header.substr(scheme.size()), host_header);
  };
  if (is_scheme_and_host(reach.tls ? "https://" : "http://")) return true;
  // Behind a proxy the page's origin is the public address, whatever Host the proxy sends.
  if (!reach.public_url.empty() && iequals(origin_header, reach.public_url)) return true;
  // A proxy in front of a plain-HTTP wharf ends TLS for a name the operator listed.
  return deliberately_named(host_header, reach) && is_scheme_and_host("https://");
}

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One round of percent-decoding; malformed escapes stay as they are.
std::string percent_decoded(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      int high = hex_value(text[i + 1]);
      int low = hex_value(text[i + 2]);
      if (high >= 0 && low >= 0) {
        out.push_back(static_cast<char>(high * 16 + low));
        i += 2;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

// `k` (wharf's own) or any name with `key` in it (api_key, wharf-key...), in any case.
bool is_key_name(std::string_view name) {
  if (iequals(name, "k")) return true;
  for (std::size_t at = 0; at + 3 <= name.size(); ++at)
    if (iequals(name.substr(at, 3), "key")) return true;
  return false;
}

}  // namespace

std::string loggable_target(std::string_view target, std::string_view key) {
  constexpr std::size_t kMaxLogged = 300;
  constexpr std::string_view kRedacted = "[redacted]";
  // Decoding twice catches a doubly encoded separator (`%253f`); more rounds would only
  // matter to a client that hides the key from itself.
  std::string text = percent_decoded(percent_decoded(target));

  // Parameter values: a name ends at `=`, starts after a separator.
  std::string out;
  out.reserve(text.size());
  std::size_t name_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '?' || c == '&' || c == ';' || c == '#' || c == '/') {
      out.push_back(c);
      name_start = i + 1;
      continue;
    }
    if (c == '=' && is_key_name(std::string_view(text).substr(name_start, i - name_start))) {
      out.push_back(c);
      out += kRedacted;
      std::size_t end = text.find_first_of("?&;#/", i + 1);
      i = (end == std::string::npos ? text.size() : end) - 1;
      continue;
    }
    out.push_back(c);
  }

  // A pairing link's code is a credential until it is used: `/pair/CODE` keeps its path.
  for (std::size_t at = 0; (at = out.find("/pair/", at)) != std::string::npos;) {
    std::size_t start = at + 6;
    std::size_t end = out.find_first_of("?&;#/", start);
    if (end == std::string::npos) end = out.size();
    if (end > start) out.replace(start, end - start, kRedacted);
    at = start;
  }

  // The key itself, wherever it stands (a path segment, a parameter of another name).
  if (!key.empty()) {
    for (std::size_t at = 0; at + key.size() <= out.size();) {
      if (iequals(std::string_view(out).substr(at, key.size()), key)) {
        out.replace(at, key.size(), kRedacted);
        at += kRedacted.size();
      } else {
        ++at;
      }
    }
  }

  // A log line is one line: no control bytes a client could use to forge another.
  for (char& c : out) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) c = '?';
  }
  if (out.size() > kMaxLogged) {
    out.resize(kMaxLogged);
    out += "...";
  }
  return out;
}

}  // namespace wharf::core
