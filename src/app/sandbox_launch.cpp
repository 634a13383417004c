// Sandboxed spawns (see sandbox_launch.hpp).
#include "app/sandbox_launch.hpp"

#include <filesystem>
#include <system_error>

namespace wharf::app {
namespace fs = std::filesystem;
namespace {

constexpr const char* kSystemRoots[] = {"/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/opt"};

// Where the program lives, when the system baseline does not already show it: the top
// of its node_modules tree for an npm-installed agent (it loads its own files from
// there), else its directory.
std::optional<std::string> program_home(const std::string& program) {
  std::error_code ec;
  fs::path real = fs::canonical(program, ec);
  if (ec) return std::nullopt;
  for (const char* root : kSystemRoots)
    if (core::within(real.string(), root)) return std::nullopt;
  fs::path top;
  for (fs::path p = real.parent_path(); p != p.root_path(); p = p.parent_path())
    if (p.filename() == "node_modules") top = p;
  return (top.empty() ? real.parent_path() : top).string();
}

// A declared path that is not there yet: a directory is made (under the roots resolve.hpp
// allows), a file is left out rather than invented.
bool make_present(const std::string& path, bool writable) {
  std::error_code ec;
  if (fs::exists(path, ec)) return true;
  if (!writable || fs::path(path).extension() == ".json") return false;
  fs::create_directories(path, ec);
  return !ec;
}

void set_env(std::vector<std::string>& env, const std::string& name, const std::string& value) {
  std::erase_if(env, [&](const std::string& e) { return e.starts_with(name + "="); });
  env.push_back(name + "=" + value);
}

}  // namespace

core::Result<pty::SpawnSpec> sandboxed_spawn(const pty::SpawnSpec& spec,
                                             const core::Capabilities& capabilities,
                                             const SandboxSite& site,
                                             const std::string& session_dir) {
  if (!site.bwrap) return site.bwrap.error();
  core::Capabilities effective = capabilities;
  std::erase_if(effective.writable, [](const std::string& p) { return !make_present(p, true); });
  std::erase_if(effective.readable, [](const std::string& p) { return !make_present(p, false); });
  if (auto home = program_home(spec.program)) effective.readable.push_back(*home);

  auto planned = sandbox::plan_sandbox(effective, site.layout, spec.cwd);
  if (!planned) return planned.error();
  sandbox::Plan plan = std::move(planned.value());
  using Kind = sandbox::Mount::Kind;
  // Laid last, over everything the plan hid: what wharf itself puts in the sandbox.
  for (const std::string& file : site.exposed) {
    std::error_code ec;
    if (fs::exists(file, ec)) plan.mounts.push_back({Kind::kReadOnly, file, file});
  }
  plan.mounts.push_back({Kind::kReadOnly, kSandboxWharf, site.wharf_binary});
  plan.mounts.push_back({Kind::kReadOnly, site.wharf_binary, site.wharf_binary});
  plan.mounts.push_back({Kind::kReadOnly, kSandboxSessionDir, session_dir});
  for (const auto& tool : site.guarded) {
    plan.mounts.push_back(
        {Kind::kReadOnly, std::string(kSandboxRunDir) + "/real/" + tool.first, tool.second});
    // The shim over the real tool: read-only, so the program can neither remove nor
    // replace it; a copy of git it brings along is what the network rules are for.
    plan.mounts.push_back({Kind::kReadOnly, tool.second, site.wharf_binary});
  }

  std::vector<std::string> program{spec.program};
  // bubblewrap cannot set argv[0]; a login shell ("-bash") is asked for with -l instead.
  if (!spec.argv.empty() && spec.argv.front().starts_with('-')) program.push_back("-l");
  if (!spec.argv.empty()) program.insert(program.end(), spec.argv.begin() + 1, spec.argv.end());

  pty::SpawnSpec out = spec;
  set_env(out.env, "WHARF_SANDBOX", "1");
  set_env(out.env, "WHARF_CHANNEL", std::string(kSandboxSessionDir) + "/channel.sock");
  if (capabilities.network == core::Network::kAllow) {
    std::string proxy = "http://127.0.0.1:" + std::to_string(kSandboxProxyPort);
    for (const char* name : {"HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"})
      set_env(out.env, name, proxy);
    for (const char* name : {"NO_PROXY", "no_proxy"})
      set_env(out.env, name, "localhost,127.0.0.1,::1");
    std::vector<std::string> relay{kSandboxWharf,
                                   "sandbox-run",
                                   "--proxy-socket",
                                   std::string(kSandboxSessionDir) + "/egress.sock",
                                   "--proxy-port",
                                   std::to_string(kSandboxProxyPort),
                                   "--"};
    program.insert(program.begin(), relay.begin(), relay.end());
  }
  out.argv = sandbox::bwrap_argv(site.bwrap.value(), plan, program);
  out.program = site.bwrap.value();
  return out;
}

}  // namespace wharf::app
