// Effective capabilities (see resolve.hpp).
#include "sandbox/resolve.hpp"

#include <algorithm>

#include "sandbox/agent_defaults.hpp"

namespace wharf::sandbox {
namespace {

void add_unique(std::vector<std::string>& paths, const std::string& path) {
  if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(path);
}

std::string shown_roots(const std::vector<std::string>& roots) {
  std::string out;
  for (const std::string& root : roots) out += (out.empty() ? "" : ", ") + root;
  return out;
}

}  // namespace

core::Result<std::string> expand_path(const std::string& path, const std::string& home) {
  std::string full = path;
  if (path == "~" || path.starts_with("~/")) {
    if (home.empty()) return core::Error{"'" + path + "': HOME is not known", "bad_config"};
    full = home + path.substr(1);
  }
  auto normal = core::normal_path(full);
  if (!normal) return core::Error{normal.error().message, "bad_config"};
  if (normal.value() == "/")
    return core::Error{"'" + path + "' is the whole machine; name directories", "bad_config"};
  return normal.value();
}

core::Result<core::Capabilities> resolve_capabilities(const core::CatalogEntry& entry,
                                                      const ResolveContext& context,
                                                      std::optional<bool> requested) {
  const core::SandboxDeclaration& declared = entry.sandbox;
  core::Capabilities out;
  out.sandboxed = requested.value_or(declared.enabled.value_or(context.default_on));
  std::string where = std::string(core::kind_name(entry.kind)) + " " + entry.name;

  std::vector<std::string> roots;
  for (const std::string& root : context.roots) {
    auto expanded = expand_path(root, context.home);
    if (!expanded) return core::Error{"[sandbox] roots: " + expanded.error().message, "bad_config"};
    roots.push_back(expanded.value());
  }
  if (roots.empty()) {
    if (!context.home.empty()) roots.push_back(context.home);
    if (!context.workspace.empty()) add_unique(roots, context.workspace);
  }

  auto take = [&](const std::vector<std::string>& paths, std::vector<std::string>& into,
                  const char* what) -> core::Status {
    for (const std::string& path : paths) {
      auto expanded = expand_path(path, context.home);
      if (!expanded)
        return core::Error{where + ": " + what + " " + expanded.error().message, "bad_config"};
      bool inside = std::any_of(roots.begin(), roots.end(), [&](const std::string& r) {
        return core::within(expanded.value(), r);
      });
      if (!inside)
        return core::Error{where + ": " + what + " path " + expanded.value() +
                               " is outside what wharf lets an entry declare (" +
                               shown_roots(roots) + "; widen it with [sandbox] roots)",
                           "not_permitted"};
      add_unique(into, expanded.value());
    }
    return std::monostate{};
  };

  AgentNeeds needs = entry.kind == core::EntryKind::kAgent && entry.builtin
                         ? agent_needs(entry.name)
                         : AgentNeeds{};
  if (declared.writable) {
    if (auto taken = take(*declared.writable, out.writable, "writable"); !taken)
      return taken.error();
  } else {
    if (!context.workspace.empty()) out.writable.push_back(context.workspace);
    for (const std::string& relative : needs.home_paths)
      if (!context.home.empty()) add_unique(out.writable, context.home + "/" + relative);
  }
  if (declared.readable) {
    if (auto taken = take(*declared.readable, out.readable, "readable"); !taken)
      return taken.error();
  }

  // An allow list with no network named means `allow`; an agent wharf knows reaches its
  // own hosts; anything else has no network.
  std::string network = declared.network.value_or(
      !declared.allow.empty()                                         ? "allow"
      : entry.kind == core::EntryKind::kAgent && !needs.hosts.empty() ? "agent"
                                                                      : "none");
  if (network == "host") {
    out.network = core::Network::kHost;
  } else if (network == "none") {
    if (!declared.allow.empty())
      return core::Error{where + ": 'allow' lists hosts but network is \"none\"", "bad_config"};
    out.network = core::Network::kNone;
  } else {
    out.network = core::Network::kAllow;
    if (network == "agent") {
      if (needs.hosts.empty())
        return core::Error{where +
                               ": network = \"agent\" needs one of wharf's built-in agents; "
                               "list the hosts with network = \"allow\" and allow = [...]",
                           "bad_config"};
      out.allow = needs.hosts;
    }
    for (const std::string& line : declared.allow) {
      auto endpoint = core::endpoint_of(line);
      if (!endpoint)
        return core::Error{where + ": allow: " + endpoint.error().message, "bad_config"};
      if (std::find(out.allow.begin(), out.allow.end(), endpoint.value()) == out.allow.end())
        out.allow.push_back(endpoint.value());
    }
  }
  if (!out.sandboxed) {
    // Not sandboxed: nothing is enforced, so nothing is claimed.
    return core::Capabilities{};
  }
  return out;
}

}  // namespace wharf::sandbox
