#include "app/session_launch.hpp"

#include <filesystem>

#include "app/launch.hpp"
#include "core/shell_integration.hpp"

namespace wharf::app {

namespace {
std::string login_shell_name(const LaunchDefaults& defaults) {
  std::string name = std::filesystem::path(defaults.account.shell).filename().string();
  for (const std::string& candidate : {name, std::string("bash"), std::string("sh")}) {
    auto found = defaults.catalog.choose("shell", candidate);
    if (found) return candidate;
  }
  return "sh";
}
}  // namespace

core::Result<const core::CatalogEntry*> choose_entry(const LaunchDefaults& defaults,
                                                     const StartRequest& request) {
  if (!request.entry.empty()) return defaults.catalog.choose(request.kind, request.entry);
  if (request.kind.empty() && !defaults.default_entry.empty())
    return defaults.catalog.choose("", defaults.default_entry);
  if (request.kind.empty() || request.kind == "shell")
    return defaults.catalog.choose("shell", login_shell_name(defaults));
  return defaults.catalog.choose(request.kind, request.entry);
}

StartRequest start_request(const core::LaunchRequest& launch, core::TerminalSize size,
                           std::string owner) {
  return StartRequest{.kind = launch.kind,
                      .entry = launch.entry,
                      .cwd = launch.cwd,
                      .env = launch.env,
                      .prompt = launch.prompt,
                      .name = launch.name,
                      .size = size,
                      .owner = std::move(owner),
                      .sandbox = launch.sandbox};
}

core::Result<LaunchDecision> decide_launch(const LaunchDefaults& defaults,
                                           const StartRequest& request,
                                           const std::set<std::string>& agents_started) {
  auto chosen = choose_entry(defaults, request);
  if (!chosen) return chosen.error();
  const core::CatalogEntry& entry = *chosen.value();
  auto cwd = choose_directory(defaults.workspace,
                              request.cwd.empty() ? defaults.default_directory : request.cwd);
  if (!cwd) return cwd.error();
  if (auto checked = core::check_env_layer(request.env, core::EnvLayer::kSession); !checked)
    return checked.error();
  // Every door (REST, WebSocket, MCP, the control socket) starts a session here, so this
  // is the one place a request's dangerous names are refused.
  if (auto checked = core::check_request_env_names(request.env, defaults.allowed_env); !checked)
    return checked.error();
  auto repo_env = read_repo_env(defaults.workspace);
  if (!repo_env) return repo_env.error();

  bool resume = false;
  if (entry.kind == core::EntryKind::kAgent && !entry.resume_args.empty() &&
      !agents_started.contains(entry.name)) {
    resume = entry.resume_probe.empty() ||
             (defaults.has_conversation &&
              defaults.has_conversation(entry.resume_probe, defaults.account.home, cwd.value()));
  }
  auto plan =
      core::plan_launch(entry, core::LaunchOptions{.prompt = request.prompt,
                                                   .resume = resume,
                                                   .context_file = defaults.context_file,
                                                   .context_text = defaults.context_text,
                                                   .settings_file = defaults.agent_settings,
                                                   .wharf_binary = defaults.wharf_binary,
                                                   .opencode_plugin = defaults.opencode_plugin});
  if (!plan) return plan.error();
  return LaunchDecision{.entry = &entry,
                        .cwd = std::move(cwd.value()),
                        .repo_env = std::move(repo_env.value()),
                        .plan = std::move(plan.value())};
}

SpawnPlan plan_spawn(const LaunchDefaults& defaults, const StartRequest& request,
                     LaunchDecision& decision, core::SessionId id) {
  // Everything wharf itself sets; each name is in core::kNamesWharfSets.
  core::EnvList wharf_env{{"WHARF_SESSION_ID", std::to_string(id)}};
  if (!defaults.state_dir.empty()) wharf_env.push_back({"WHARF_STATE_DIR", defaults.state_dir});
  // Shell sessions get the prompt and command marks run_command relies on.
  const core::EnvList* user_layers[] = {&defaults.machine_env, &decision.repo_env, &request.env};
  SpawnPlan out;
  out.shell_integration = core::plan_shell_integration(
      *decision.entry, defaults.shell_integration,
      core::layer_environment(defaults.base_env, user_layers), decision.plan, wharf_env);
  // What the launch needs (opencode's plugin), unless a layer of the person's sets it.
  core::EnvList launch_env;
  for (const core::EnvVar& var : decision.plan.env) {
    bool taken = false;
    for (const std::string& inherited : defaults.base_env)
      taken = taken || inherited.starts_with(var.name + "=");
    for (const core::EnvList* layer : user_layers)
      for (const core::EnvVar& mine : *layer) taken = taken || mine.name == var.name;
    if (!taken) launch_env.push_back(var);
  }
  const core::EnvList* layers[] = {&launch_env, &defaults.machine_env, &decision.repo_env,
                                   &request.env, &wharf_env};
  out.spec = pty::SpawnSpec{
      .program = decision.plan.program,
      .argv = decision.plan.argv,
      .env = core::layer_environment(defaults.base_env, layers),
      .cwd = decision.cwd,
      .size = core::clamp_size(request.size.cols, request.size.rows),
  };
  std::set<std::string> names;
  for (const core::EnvList* layer : user_layers)
    for (const core::EnvVar& var : *layer) names.insert(var.name);
  out.env_names.assign(names.begin(), names.end());
  return out;
}

}  // namespace wharf::app
