// Where the daemon keeps its files. The state dir holds what outlives a run (key file,
// database, uploads); the runtime dir holds what only makes sense while the daemon runs
// (its socket, the current URL). `--state-dir` puts both in one place, which is what
// tests and second instances want.
#pragma once

#include <filesystem>
#include <optional>

#include "core/result.hpp"

namespace wharf::app {

struct StatePaths {
  std::filesystem::path state_dir;
  std::filesystem::path runtime_dir;

  std::filesystem::path key_file() const { return state_dir / "key"; }
  std::filesystem::path url_file() const { return runtime_dir / "url"; }
  // The SHA-256 of the certificate an HTTPS daemon serves, for `wharf attach` to pin.
  std::filesystem::path fingerprint_file() const { return runtime_dir / "tls-fingerprint"; }
  std::filesystem::path socket_file() const { return runtime_dir / "wharf.sock"; }
  std::filesystem::path database_file() const { return state_dir / "wharf.db"; }
  // Final screens of ended sessions (app/final_screens.hpp).
  std::filesystem::path screens_dir() const { return state_dir / "screens"; }
  // The default entry and directory chosen while a daemon ran (app/saved_defaults.hpp).
  std::filesystem::path defaults_file() const { return state_dir / "defaults.json"; }
};

// Defaults: $XDG_STATE_HOME/wharf or ~/.local/state/wharf; runtime under
// $XDG_RUNTIME_DIR/wharf when that is set.
StatePaths resolve_state_paths(const std::optional<std::filesystem::path>& explicit_dir);

// Creates the directory (and parents) owner-only, or checks an existing one is ours.
core::Status ensure_private_dir(const std::filesystem::path& dir);

}  // namespace wharf::app
