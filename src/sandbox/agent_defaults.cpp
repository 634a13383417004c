// Built-in agents' sandbox needs (see agent_defaults.hpp). Hosts come from each agent's
// own documentation of its network access: the model API, sign-in, and the service that
// reports the agent's errors and usage, which the agents tolerate losing but stall on.
#include "sandbox/agent_defaults.hpp"

#include <cstdlib>

namespace wharf::sandbox {
namespace {

std::vector<core::Endpoint> endpoints(std::initializer_list<std::string_view> lines) {
  std::vector<core::Endpoint> out;
  for (std::string_view line : lines) {
    auto endpoint = core::endpoint_of(line);
    if (!endpoint) std::abort();  // the table below is ours: a bad line is a bug
    out.push_back(endpoint.value());
  }
  return out;
}

}  // namespace

AgentNeeds agent_needs(std::string_view agent) {
  if (agent == "claude")
    return {endpoints({"api.anthropic.com", "claude.ai", "console.anthropic.com",
                       "statsig.anthropic.com", "sentry.io"}),
            {".claude", ".claude.json", ".config/claude"}};
  if (agent == "codex")
    return {endpoints({"api.openai.com", "chatgpt.com", "auth.openai.com"}), {".codex"}};
  if (agent == "opencode")
    return {
        endpoints({"opencode.ai", "models.dev", "api.anthropic.com", "api.openai.com",
                   "openrouter.ai", "generativelanguage.googleapis.com"}),
        {".config/opencode", ".local/share/opencode", ".local/state/opencode", ".cache/opencode"}};
  if (agent == "gemini")
    return {endpoints({"generativelanguage.googleapis.com", "oauth2.googleapis.com",
                       "accounts.google.com", "cloudcode-pa.googleapis.com"}),
            {".gemini"}};
  if (agent == "cline")
    return {endpoints({"api.cline.bot", "api.anthropic.com", "openrouter.ai"}), {".cline"}};
  return {};
}

}  // namespace wharf::sandbox
