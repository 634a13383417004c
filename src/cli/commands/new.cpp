// `wharf new [--agent NAME | --shell NAME | --action NAME] [--cwd DIR] [--env KEY=VALUE]...
//  [--prompt TEXT] [--name NAME] [--sandbox | --no-sandbox]`: starts a catalog entry as a session
//  and prints its id.
// With no entry named, the daemon's default starts (`wharf agent` moves it).
#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"
#include "core/env_spec.hpp"

namespace wharf::cli {
namespace {

struct NewOptions {
  std::string state_dir, agent, shell, action, cwd, name, prompt;
  std::vector<std::string> env;
  bool sandbox = false, no_sandbox = false;
};

std::function<int()> setup_new(CLI::App& verb) {
  auto o = std::make_shared<NewOptions>();
  add_state_dir_option(verb, o->state_dir);
  auto* agent = verb.add_option("--agent", o->agent, "Agent to start (claude, codex, opencode...)");
  auto* shell = verb.add_option("--shell", o->shell, "Shell to start (bash, zsh, fish, sh...)");
  auto* action = verb.add_option("--action", o->action, "Interactive action from the config");
  agent->excludes(shell)->excludes(action);
  shell->excludes(action);
  verb.add_option("--cwd", o->cwd,
                  "Directory inside the workspace (default: the daemon's default)");
  verb.add_option("--env", o->env, "KEY=VALUE for this session only (repeatable)")
      ->allow_extra_args(false);
  verb.add_option("--prompt", o->prompt, "First message for the agent");
  verb.add_option("--name", o->name, "Tab name (default: what it runs and its id, like `codex 4`)");
  auto* sandbox = verb.add_flag("--sandbox", o->sandbox,
                                "Run this session in a sandbox (docs/sandbox.md), whatever its "
                                "entry says");
  verb.add_flag("--no-sandbox", o->no_sandbox,
                "Run this session without a sandbox: full access to your files and network")
      ->excludes(sandbox);
  verb.footer(R"(Examples:
  wharf new                                  # the default entry (`wharf agent` shows it)
  wharf new --agent claude --prompt 'fix the failing test'
  wharf new --shell bash --cwd src --name build
  wharf new --action dev --env PORT=8080
  wharf new --agent codex --sandbox          # writes only the workspace; its API hosts only)");
  return [o] {
    // Refused here already, so a typo never reaches the daemon; the daemon checks again.
    auto env = core::parse_env_specs(o->env);
    if (!env) {
      std::fprintf(stderr, "wharf: %s\n", env.error().message.c_str());
      return 2;
    }
    boost::json::object env_object;
    for (const core::EnvVar& var : env.value()) env_object[var.name] = var.value;

    std::string cwd = o->cwd;
    // A relative directory means relative to where the command was typed.
    if (!cwd.empty()) cwd = std::filesystem::absolute(cwd).lexically_normal().string();
    boost::json::object request{
        {"cwd", cwd}, {"name", o->name}, {"prompt", o->prompt}, {"env", std::move(env_object)}};
    if (o->sandbox || o->no_sandbox) request["sandbox"] = o->sandbox;
    if (!o->agent.empty()) request["agent"] = o->agent;
    if (!o->shell.empty()) request["shell"] = o->shell;
    if (!o->action.empty()) {
      request["kind"] = "action";
      request["entry"] = o->action;
    }
    auto answer = call_operation(o->state_dir, "new_session", std::move(request));
    if (!answer) return report_failure(answer.error());
    std::printf("%s\n", boost::json::serialize(answer.value().at("result").at("session")).c_str());
    return 0;
  };
}

}  // namespace

const Command kNewCommand{
    .name = "new",
    .summary = "Start a session and print its id",
    .setup = setup_new,
};

}  // namespace wharf::cli
