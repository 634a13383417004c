// Shell integration: the startup files that make the bash and zsh sessions wharf starts
// mark every prompt, command and exit status with OSC 133 (A prompt starts, B the user's
// input starts, C the command's output starts, D;N it ended with status N). With those
// marks `wharf run` and the run_command tool know exactly where a command's output
// begins and ends and how it exited, instead of guessing from the screen.
//
// The files run the user's own startup files first, as the shell would have (a login
// shell's profile, or ~/.bashrc / the user's ZDOTDIR), then add the marks around
// whatever prompt those set up; a prompt that is rebuilt on every line keeps its mark.
// Pure: the daemon writes the files (app/) and plan_shell_integration() rewrites the
// launch of a shell session to use them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/catalog.hpp"
#include "core/env_spec.hpp"

namespace wharf::core {

struct IntegrationFile {
  std::string_view path;  // relative to the integration directory
  std::string_view text;
};

// Every file the integration directory holds.
const std::vector<IntegrationFile>& shell_integration_files();

// For a shell that wharf can integrate (bash, zsh), changes `plan` to start it with the
// files in `directory` and adds what it needs to `env` (the variables wharf sets);
// `user_env` is the environment the session would otherwise get (for the user's own
// ZDOTDIR). Returns false, changing nothing, for any other entry.
bool plan_shell_integration(const CatalogEntry& entry, std::string_view directory,
                            const std::vector<std::string>& user_env, LaunchPlan& plan,
                            EnvList& env);

}  // namespace wharf::core
