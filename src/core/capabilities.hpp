// What a session may do, as its catalog entry (or one create request) declares it and as
// the page, `wharf ls --json` and the API show it: whether it runs in a sandbox, which
// paths it may write and read, and where its network may go. Declared, not inferred:
// the sandbox is built from this and nothing else, so what is shown is what is enforced.
//
// Paths are absolute and normalised (no `..`, no trailing '/'); `~` and the workspace
// are resolved by the caller before a Capabilities is built.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace wharf::core {

enum class Network {
  kNone,   // its own network namespace with only loopback
  kAllow,  // only the hosts in `allow`, through wharf's egress proxy
  kHost,   // the machine's network, unrestricted (must be asked for by name)
};

std::string_view network_name(Network network);
Result<Network> network_of(std::string_view name);

// One allow-list line: a host name (or `*.example.com` for its subdomains) and a port.
struct Endpoint {
  std::string host;  // lower case
  std::uint16_t port = 443;
  friend bool operator==(const Endpoint&, const Endpoint&) = default;
};

// "api.anthropic.com", "api.anthropic.com:443", "*.githubusercontent.com:443".
Result<Endpoint> endpoint_of(std::string_view text);
std::string endpoint_text(const Endpoint& endpoint);
// Whether a CONNECT to host:port is on the list (case-insensitive; a wildcard matches
// subdomains only, never the bare name or a name that merely ends the same way).
bool allowed(const std::vector<Endpoint>& allow, std::string_view host, std::uint16_t port);

struct Capabilities {
  bool sandboxed = false;
  std::vector<std::string> writable;  // bound read-write
  std::vector<std::string> readable;  // bound read-only, besides the system baseline
  Network network = Network::kNone;
  std::vector<Endpoint> allow;  // with kAllow
  friend bool operator==(const Capabilities&, const Capabilities&) = default;
};

// The JSON every door shows (`capabilities` in session lists and catalog entries): with
// sandboxed false, only that field, since nothing is enforced; else the paths, the
// network and the allow list as "host:port" lines. The host keeps the same text in its
// metadata, so a daemon that takes a session over rebuilds it with capabilities_from().
boost::json::object capabilities_object(const Capabilities& capabilities);
Result<Capabilities> capabilities_from(const boost::json::value& value);

// A path as capabilities hold it: absolute, no `.`/`..` parts, no doubled or trailing
// '/'. Returns the normalised form or an error naming the path.
Result<std::string> normal_path(std::string_view path);
// Whether `path` is `root` or lies under it (both normal).
bool within(std::string_view path, std::string_view root);

}  // namespace wharf::core
