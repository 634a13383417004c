// Capabilities: names, allow-list lines and path rules (see capabilities.hpp).
#include "core/capabilities.hpp"

#include <cctype>

namespace wharf::core {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool host_label_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

bool is_host(std::string_view host) {
  if (host.empty() || host.size() > 253 || host.front() == '.' || host.back() == '.') return false;
  std::size_t label = 0;
  for (char c : host) {
    if (c == '.') {
      if (label == 0) return false;
      label = 0;
    } else if (!host_label_char(c) || ++label > 63) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string_view network_name(Network network) {
  switch (network) {
    case Network::kNone:
      return "none";
    case Network::kAllow:
      return "allow";
    case Network::kHost:
      return "host";
  }
  return "none";
}

Result<Network> network_of(std::string_view name) {
  if (name == "none") return Network::kNone;
  if (name == "allow") return Network::kAllow;
  if (name == "host") return Network::kHost;
  return Error{"network is 'none', 'allow' or 'host', not '" + std::string(name) + "'",
               "bad_argument"};
}

Result<Endpoint> endpoint_of(std::string_view text) {
  Endpoint endpoint;
  std::string_view host = text;
  if (auto colon = text.rfind(':'); colon != std::string_view::npos) {
    host = text.substr(0, colon);
    std::string_view port = text.substr(colon + 1);
    unsigned value = 0;
    bool digits = !port.empty() && port.size() <= 5;
    for (char c : port) {
      if (c < '0' || c > '9') digits = false;
      if (digits) value = value * 10 + static_cast<unsigned>(c - '0');
    }
    if (!digits || value == 0 || value > 65535)
      return Error{"'" + std::string(text) + "': the port is a number from 1 to 65535",
                   "bad_argument"};
    endpoint.port = static_cast<std::uint16_t>(value);
  }
  std::string name = lower(host);
  std::string_view checked = name;
  if (checked.starts_with("*.")) checked.remove_prefix(2);
  if (!is_host(checked))
    return Error{"'" + std::string(text) +
                     "' is not a host name (letters, digits, '-' and '.'; '*.' in front "
                     "for every subdomain)",
                 "bad_argument"};
  endpoint.host = std::move(name);
  return endpoint;
}

std::string endpoint_text(const Endpoint& endpoint) {
  return endpoint.host + ":" + std::to_string(endpoint.port);
}

bool allowed(const std::vector<Endpoint>& allow, std::string_view host, std::uint16_t port) {
  std::string name = lower(host);
  while (name.ends_with('.')) name.pop_back();  // "example.com." is the same name
  if (!is_host(name)) return false;
  for (const Endpoint& endpoint : allow) {
    if (endpoint.port != port) continue;
    if (endpoint.host.starts_with("*.")) {
      std::string_view suffix = std::string_view(endpoint.host).substr(1);  // ".example.com"
      if (name.size() > suffix.size() && name.ends_with(suffix)) return true;
    } else if (endpoint.host == name) {
      return true;
    }
  }
  return false;
}

Result<std::string> normal_path(std::string_view path) {
  if (!path.starts_with('/'))
    return Error{"'" + std::string(path) + "' is not an absolute path", "bad_argument"};
  std::vector<std::string_view> parts;
  std::size_t pos = 0;
  while (pos < path.size()) {
    std::size_t next = path.find('/', pos);
    if (next == std::string_view::npos) next = path.size();
    std::string_view part = path.substr(pos, next - pos);
    if (part == "..") return Error{"'" + std::string(path) + "' climbs with '..'", "bad_argument"};
    if (!part.empty() && part != ".") parts.push_back(part);
    pos = next + 1;
  }
  std::string out;
  for (std::string_view part : parts) {
    out += '/';
    out += part;
  }
  return out.empty() ? std::string("/") : out;
}

bool within(std::string_view path, std::string_view root) {
  if (root == "/") return path.starts_with('/');
  if (!path.starts_with(root)) return false;
  return path.size() == root.size() || path[root.size()] == '/';
}

}  // namespace wharf::core
