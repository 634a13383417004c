#include "cli/listen_addresses.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstring>

namespace wharf::cli {
namespace ip = boost::asio::ip;

namespace {

std::string host_of(const ip::address& address) {
  return address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
}

}  // namespace

std::vector<std::string> url_hosts(const ip::address& bound,
                                   const std::vector<ip::address>& interfaces) {
  if (!bound.is_unspecified()) return {host_of(bound)};
  std::vector<ip::address> chosen;
  auto take = [&](const ip::address& a) {
    if (a.is_v6() && a.to_v6().is_link_local()) return;
    if (a.is_v6() && bound.is_v4()) return;  // 0.0.0.0 takes IPv4 only
    if (std::find(chosen.begin(), chosen.end(), a) == chosen.end()) chosen.push_back(a);
  };
  // Loopback first: the wildcard's own family, then the rest of the list.
  take(bound.is_v6() ? ip::address(ip::address_v6::loopback())
                     : ip::address(ip::address_v4::loopback()));
  for (const auto& a : interfaces)
    if (a.is_loopback()) take(a);
  for (const auto& a : interfaces)
    if (!a.is_loopback()) take(a);
  std::vector<std::string> hosts;
  hosts.reserve(chosen.size());
  for (const auto& a : chosen) hosts.push_back(host_of(a));
  return hosts;
}

std::vector<ip::address> interface_addresses() {
  std::vector<ip::address> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  for (const ifaddrs* i = list; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || (i->ifa_flags & IFF_UP) == 0) continue;
    if (i->ifa_addr->sa_family == AF_INET) {
      sockaddr_in in{};
      std::memcpy(&in, i->ifa_addr, sizeof in);
      out.emplace_back(ip::address_v4(ntohl(in.sin_addr.s_addr)));
    } else if (i->ifa_addr->sa_family == AF_INET6) {
      sockaddr_in6 in6{};
      std::memcpy(&in6, i->ifa_addr, sizeof in6);
      ip::address_v6::bytes_type bytes;
      std::memcpy(bytes.data(), in6.sin6_addr.s6_addr, bytes.size());
      out.emplace_back(ip::address_v6(bytes));
    }
  }
  freeifaddrs(list);
  return out;
}

}  // namespace wharf::cli
