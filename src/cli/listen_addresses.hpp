// Where `wharf serve` can be reached, for the lines it prints at start. A daemon bound
// to one address is reached there (the wildcard's loopback stands in for "this
// machine"); one bound to a wildcard (0.0.0.0, ::) is reached at every address of every
// interface that is up, so it names each: loopback first (the line scripts and
// `wharf open` read), then the others in the order the kernel lists them. `::` also
// takes IPv4 (Linux's default dual stack), `0.0.0.0` takes IPv4 only. IPv6 link-local
// addresses are left out: a browser cannot open an address with a zone in it.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <string>
#include <vector>

namespace wharf::cli {

// `host` parts of URLs (IPv6 in brackets), loopback first, without repeats.
std::vector<std::string> url_hosts(const boost::asio::ip::address& bound,
                                   const std::vector<boost::asio::ip::address>& interfaces);

// The addresses of the interfaces that are up (getifaddrs); empty if it fails.
std::vector<boost::asio::ip::address> interface_addresses();

}  // namespace wharf::cli
