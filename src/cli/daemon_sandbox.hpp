// What `wharf serve` gives sandboxed sessions (docs/sandbox.md): bubblewrap and what it
// found on this machine, worked out once at start; the roots declared paths may lie in;
// whether sessions are sandboxed by default (`[sessions] sandbox`); where each session's
// directory goes (STATE_DIR/sandbox); the state files sessions need to see (wharf's agent
// settings, the context note, the shell integration); the real git and gh the guards
// stand over. A machine without bubblewrap still starts: each sandboxed start is refused
// with the probe's sentence, and the log says so once at start when sandboxes are the default.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "app/session_service.hpp"
#include "core/config.hpp"

namespace wharf::cli {

struct SandboxInputs {
  std::filesystem::path state_dir;
  std::string home;
  std::string workspace;
  std::string wharf_binary;          // empty: unknown (no sandboxed session can start)
  std::vector<std::string> exposed;  // state files to show read-only
  std::string session_path;          // the sessions' PATH, to find git and gh
};

app::SandboxOptions sandbox_options(const core::Config& file, const SandboxInputs& inputs);

}  // namespace wharf::cli
