// The default entry and directory a person chose while a daemon ran (`wharf agent`,
// `wharf cwd`, POST /api/agent, POST /api/cwd), kept in the state dir so the next daemon
// starts new sessions the same way. One small JSON file, {"entry":"agent:claude",
// "cwd":"apps/api"}, written whole (temporary file renamed over it, mode 0600).
//
// Invariants: a missing file is "nothing chosen yet", never an error; an unreadable or
// malformed file is reported and otherwise ignored (the daemon starts with the config's
// defaults); a value is only ever what SessionService accepted, but it is checked again
// when applied, since the catalog or the workspace may have changed in between.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "core/result.hpp"

namespace wharf::app {

struct SavedDefaults {
  std::optional<std::string> entry;  // "kind:name", as SessionService keeps it
  std::optional<std::string> cwd;    // relative to the workspace; "" is the workspace
};

// Nothing chosen yet when the file does not exist; an error for a file that is there but
// cannot be read or is not the JSON object written by save_defaults().
core::Result<SavedDefaults> load_defaults(const std::filesystem::path& file);
core::Status save_defaults(const std::filesystem::path& file, const SavedDefaults& defaults);

}  // namespace wharf::app
