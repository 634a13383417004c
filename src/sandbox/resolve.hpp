// A session's effective capabilities: what its catalog entry declares, filled in with
// wharf's defaults for its kind, then checked against what the operator allows. One
// function, used for the launcher's preview of an entry and for the session itself, so
// what the page shows before a start is what the sandbox enforces after it.
//
// Defaults when an entry declares nothing: writable is the workspace; an agent also
// writes the home paths where it keeps its sign-in and history (agent_defaults.hpp);
// network is `agent` for agents (their API hosts, through the egress proxy) and `none`
// for shells and actions. Whether it is sandboxed at all: the request's word, else the
// entry's, else `[sessions] sandbox`.
//
// Refused: a path outside the allowed roots (HOME and the workspace unless `[sandbox]
// roots` says otherwise), a relative path, `/`, an allow line that is no host:port,
// `network = "agent"` for an agent wharf has no list for.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/capabilities.hpp"
#include "core/catalog.hpp"
#include "core/result.hpp"

namespace wharf::sandbox {

struct ResolveContext {
  std::string home;                // the account's HOME, normal
  std::string workspace;           // the workspace root, normal
  std::vector<std::string> roots;  // as configured (`~` allowed); empty: home and workspace
  bool default_on = false;         // [sessions] sandbox
};

core::Result<core::Capabilities> resolve_capabilities(const core::CatalogEntry& entry,
                                                      const ResolveContext& context,
                                                      std::optional<bool> requested);

// `~` and `~/x` against HOME, then normalised; an error names the path.
core::Result<std::string> expand_path(const std::string& path, const std::string& home);

}  // namespace wharf::sandbox
