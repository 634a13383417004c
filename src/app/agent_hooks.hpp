// The agents' own word that they wait for their person or have finished, registered by
// wharf for each session it starts and never in the user's own config files
// (docs/agents.md, "Waiting and finished"):
// - Claude Code: `hooks` in the settings file wharf passes with --settings
//   (Notification -> `wharf notify waiting`, Stop -> `wharf notify finished`);
// - Codex: `-c notify=[wharf, "notify", "finished", "--from-codex"]` (core/catalog.cpp);
// - opencode: a plugin file in the state directory, named in OPENCODE_CONFIG_CONTENT
//   (core/catalog.cpp), that runs `wharf notify finished` on `session.idle` and
//   `wharf notify waiting` when a permission is asked.
// Each hook runs inside the session, so `wharf notify` marks that session; a hook that
// fails says nothing and never holds the agent up.
#pragma once

#include <boost/json/object.hpp>
#include <filesystem>
#include <string>

#include "core/result.hpp"

namespace wharf::app {

// Claude Code's `hooks` object. The commands run through a shell: the path is quoted for
// one, and they always exit 0 (exit 2 from a Stop hook would keep Claude working).
boost::json::object claude_hooks(const std::string& wharf_binary);

// The opencode plugin's source (an ES module) for this wharf binary.
std::string opencode_plugin_source(const std::string& wharf_binary);
// Writes it as <state_dir>/opencode/wharf-notify.js (owner-only); answers its path.
core::Result<std::string> prepare_opencode_plugin(const std::filesystem::path& state_dir,
                                                  const std::string& wharf_binary);

}  // namespace wharf::app
