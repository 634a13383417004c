// Which requests may reach wharf at all, decided from headers alone.
//
// Host rule (DNS rebinding): a hostile web page can point a name it controls at
// 127.0.0.1, so a request is served only when its Host names the port wharf bound and
// either `localhost` or an IP literal wharf listens on. An IP literal cannot be rebound,
// so when wharf listens on a wildcard address any literal with the right port is fine.
// A refusal says which kind it is: a name that could be rebound (or a Host that is
// missing or malformed) is forbidden; `localhost` or an IP literal that is simply not
// this server (another port, another address) is a misdirected request (HTTP 421).
//
// Names reached deliberately (docs/remote.md): behind a reverse proxy or a tailnet,
// requests carry a name wharf cannot check against its own addresses. A name the
// operator listed in `allowed_hosts`, or the host of `public_url`, is accepted with any
// port (or none): the name is what the operator vouched for, and a proxy may keep or
// drop the public port. Every other name is still refused as a possible rebinding.
//
// Origin rule (cross-site WebSocket hijacking): browsers send Origin on WebSocket
// handshakes and do not apply the same-origin policy to them, so the handshake must carry
// the page's own origin: wharf's scheme (`https://` when it speaks TLS itself, else
// `http://`) + the (already checked) Host; or exactly `public_url`; or, for a
// deliberately named Host, `https://` + that Host (a proxy in front ends TLS).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wharf::core {

struct ListenAddress {
  std::string ip;  // textual address as bound, e.g. "127.0.0.1", "::1", "0.0.0.0"
  std::uint16_t port = 0;
};

// How people reach wharf beyond the address it binds.
struct Reach {
  bool tls = false;        // wharf itself speaks HTTPS on its port
  std::string public_url;  // "http(s)://host[:port]" without a trailing slash, or empty
  std::vector<std::string> allowed_hosts;  // lowercased host names
};

struct HostPort {
  std::string host;  // without brackets for IPv6
  std::optional<std::uint16_t> port;
};

// Parses `host[:port]` / `[v6]:port`; nullopt when malformed.
std::optional<HostPort> parse_host_header(std::string_view header);

bool is_ip_literal(std::string_view host);
bool is_loopback_ip(std::string_view ip);
bool is_wildcard_ip(std::string_view ip);

enum class HostVerdict { kAllowed, kForbidden, kMisdirected };

HostVerdict judge_host(std::string_view host_header, const ListenAddress& listen,
                       const Reach& reach = {});
bool host_allowed(std::string_view host_header, const ListenAddress& listen,
                  const Reach& reach = {});
// Whether the Host names wharf through `allowed_hosts` or `public_url` (any port).
bool deliberately_named(std::string_view host_header, const Reach& reach);
bool origin_allowed(std::string_view origin_header, std::string_view host_header,
                    const Reach& reach = {});

// A request target as it may be written to a log: percent-escapes decoded (so `%3fk=`
// reads as `?k=`), the value of every parameter named `k` or with `key` in its name (any
// case, after `?`, `&`, `;`, `#` or `/`) replaced by `[redacted]`, every occurrence of `key`
// itself (any case) replaced too, control bytes shown as `?`, and the whole cut to a few
// hundred bytes. Whatever form a client chose to send the key in, it never reaches a log.
std::string loggable_target(std::string_view target, std::string_view key);

}  // namespace wharf::core
