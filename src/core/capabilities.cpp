// Capabilities: names, allow-list lines and path rules (see capabilities.hpp).
#include "core/capabilities.hpp"

#include <boost/json/array.hpp>
#include <cctype>

#include "core/config.hpp"  // is_host_name, the one host-name rule

namespace wharf::core {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
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
  if (!is_host_name(checked))
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
  if (!is_host_name(name)) return false;        // lower-cased above
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

boost::json::object capabilities_object(const Capabilities& capabilities) {
  boost::json::object out{{"sandboxed", capabilities.sandboxed}};
  if (!capabilities.sandboxed) return out;
  boost::json::array writable, readable, allow;
  for (const std::string& path : capabilities.writable) writable.emplace_back(path);
  for (const std::string& path : capabilities.readable) readable.emplace_back(path);
  for (const Endpoint& endpoint : capabilities.allow) allow.emplace_back(endpoint_text(endpoint));
  out["writable"] = std::move(writable);
  out["readable"] = std::move(readable);
  out["network"] = network_name(capabilities.network);
  out["allow"] = std::move(allow);
  return out;
}

Result<Capabilities> capabilities_from(const boost::json::value& value) {
  const boost::json::object* object = value.if_object();
  if (object == nullptr) return Error{"capabilities: not an object", "bad_field"};
  Capabilities out;
  const boost::json::value* sandboxed = object->if_contains("sandboxed");
  if (sandboxed == nullptr || !sandboxed->is_bool())
    return Error{"capabilities: 'sandboxed' is true or false", "bad_field"};
  out.sandboxed = sandboxed->as_bool();
  if (!out.sandboxed) return out;
  auto paths = [&](const char* key, std::vector<std::string>& into) -> Status {
    const boost::json::value* list = object->if_contains(key);
    if (list == nullptr || !list->is_array())
      return Error{std::string("capabilities: '") + key + "' is a list of paths", "bad_field"};
    for (const boost::json::value& item : list->as_array()) {
      if (!item.is_string())
        return Error{std::string("capabilities: '") + key + "' holds paths", "bad_field"};
      auto normal = normal_path(std::string_view(item.as_string()));
      if (!normal) return normal.error();
      into.push_back(normal.value());
    }
    return std::monostate{};
  };
  if (auto read = paths("writable", out.writable); !read) return read.error();
  if (auto read = paths("readable", out.readable); !read) return read.error();
  const boost::json::value* network = object->if_contains("network");
  if (network == nullptr || !network->is_string())
    return Error{"capabilities: 'network' is none, allow or host", "bad_field"};
  auto named = network_of(std::string_view(network->as_string()));
  if (!named) return named.error();
  out.network = named.value();
  const boost::json::value* allow = object->if_contains("allow");
  if (allow == nullptr || !allow->is_array())
    return Error{"capabilities: 'allow' is a list of host:port lines", "bad_field"};
  for (const boost::json::value& item : allow->as_array()) {
    if (!item.is_string()) return Error{"capabilities: 'allow' holds host:port lines", "bad_field"};
    auto endpoint = endpoint_of(std::string_view(item.as_string()));
    if (!endpoint) return endpoint.error();
    out.allow.push_back(endpoint.value());
  }
  return out;
}

}  // namespace wharf::core
