// Egress proxy requests (see proxy_request.hpp).
#include "egress/proxy_request.hpp"

#include <boost/asio/ip/address.hpp>

namespace wharf::egress {
namespace {

core::Error bad(std::string message) {
  return core::Error{std::move(message), "bad_request"};
}

// "host:port" or "[v6]:port" into its parts; the port is required when `need_port`.
core::Result<ProxyTarget> split_authority(std::string_view authority, std::uint16_t default_port) {
  ProxyTarget target;
  std::string_view host = authority;
  std::string_view port;
  if (authority.starts_with('[')) {
    auto close = authority.find(']');
    if (close == std::string_view::npos) return bad("an IPv6 address without its ']'");
    host = authority.substr(1, close - 1);
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (!rest.starts_with(':')) return bad("junk after the IPv6 address");
      port = rest.substr(1);
    }
  } else if (auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) return bad("no host");
  if (port.empty() && default_port == 0) return bad("CONNECT needs host:port");
  unsigned value = default_port;
  if (!port.empty()) {
    if (port.size() > 5) return bad("the port is a number from 1 to 65535");
    value = 0;
    for (char c : port) {
      if (c < '0' || c > '9') return bad("the port is a number from 1 to 65535");
      value = value * 10 + static_cast<unsigned>(c - '0');
    }
  }
  if (value == 0 || value > 65535) return bad("the port is a number from 1 to 65535");
  target.host = std::string(host);
  target.port = static_cast<std::uint16_t>(value);
  return target;
}

}  // namespace

core::Result<ProxyTarget> parse_proxy_request(std::string_view method, std::string_view target) {
  core::Result<ProxyTarget> judged = bad("no request");
  if (method == "CONNECT") {
    judged = split_authority(target, 0);
    if (judged) judged.value().tunnel = true;
  } else {
    constexpr std::string_view kScheme = "http://";
    if (target.size() < kScheme.size() ||
        !std::equal(kScheme.begin(), kScheme.end(), target.begin(), [](char a, char b) {
          return a == (b >= 'A' && b <= 'Z' ? static_cast<char>(b - 'A' + 'a') : b);
        }))
      return bad("a proxy request names an absolute http:// URL, or uses CONNECT for https");
    std::string_view rest = target.substr(kScheme.size());
    auto slash = rest.find_first_of("/?#");
    std::string_view authority = rest.substr(0, slash);
    if (authority.find('@') != std::string_view::npos) return bad("user information in the URL");
    judged = split_authority(authority, 80);
    if (judged) {
      std::string path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
      if (path.starts_with('?')) path.insert(0, "/");
      if (auto hash = path.find('#'); hash != std::string::npos) path.resize(hash);
      judged.value().origin_form = path;
    }
  }
  if (!judged) return judged;
  const ProxyTarget& t = judged.value();
  for (char c : t.host) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
      return bad("control characters in the host");
  }
  return judged;
}

core::Result<ProxyTarget> judge_proxy_request(std::string_view method, std::string_view target,
                                              const std::vector<core::Endpoint>& allow) {
  auto judged = parse_proxy_request(method, target);
  if (!judged) return judged;
  const ProxyTarget& t = judged.value();
  if (!core::allowed(allow, t.host, t.port))
    return core::Error{
        t.host + ":" + std::to_string(t.port) + " is not on this session's allow-list",
        "not_allowed"};
  return judged;
}

bool dialable_address(std::string_view ip) {
  boost::system::error_code ec;
  auto address = boost::asio::ip::make_address(std::string(ip), ec);
  if (ec) return false;
  if (address.is_loopback() || address.is_unspecified() || address.is_multicast()) return false;
  if (address.is_v4()) {
    auto bytes = address.to_v4().to_bytes();
    if (bytes[0] == 169 && bytes[1] == 254) return false;  // link-local (cloud metadata)
    if (bytes[0] == 0) return false;
    return true;
  }
  auto v6 = address.to_v6();
  if (v6.is_link_local() || v6.is_site_local()) return false;
  if (v6.is_v4_mapped())
    return dialable_address(
        boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).to_string());
  return true;
}

}  // namespace wharf::egress
