// Sandbox options at start (see daemon_sandbox.hpp).
#include "cli/daemon_sandbox.hpp"

#include <spdlog/spdlog.h>

#include "app/launch.hpp"
#include "sandbox/probe.hpp"

namespace wharf::cli {

app::SandboxOptions sandbox_options(const core::Config& file, const SandboxInputs& inputs) {
  app::SandboxOptions out;
  out.site.bwrap = sandbox::find_bwrap();
  if (inputs.wharf_binary.empty())
    out.site.bwrap =
        core::Error{"wharf cannot find its own binary to put in the sandbox", "no_sandbox"};
  out.site.layout = sandbox::probe_layout(inputs.home, inputs.state_dir.string());
  out.site.wharf_binary = inputs.wharf_binary;
  for (const std::string& file_path : inputs.exposed)
    if (!file_path.empty()) out.site.exposed.push_back(file_path);
  for (const char* tool : {"git", "gh"}) {
    if (auto found = app::find_program(tool, inputs.session_path)) {
      std::error_code ec;
      auto real = std::filesystem::canonical(*found, ec);
      out.site.guarded.emplace_back(tool, ec ? *found : real.string());
    }
  }
  out.resolve = sandbox::ResolveContext{.home = inputs.home,
                                        .workspace = inputs.workspace,
                                        .roots = file.sandbox.roots,
                                        .default_on = file.sandbox_default.value_or(false)};
  out.sessions_dir = inputs.state_dir / "sandbox";
  if (out.resolve.default_on && !out.site.bwrap)
    spdlog::warn("sessions are sandboxed by default, but none can start: {}",
                 out.site.bwrap.error().message);
  return out;
}

}  // namespace wharf::cli
