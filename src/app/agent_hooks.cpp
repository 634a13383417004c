#include "app/agent_hooks.hpp"

#include <boost/json.hpp>

#include "app/key_file.hpp"
#include "app/state_paths.hpp"
#include "core/shell_quote.hpp"

namespace wharf::app {
namespace {

boost::json::array one_command(const std::string& command) {
  return boost::json::array{boost::json::object{
      {"hooks",
       boost::json::array{boost::json::object{{"type", "command"}, {"command", command}}}}}};
}

}  // namespace

boost::json::object claude_hooks(const std::string& wharf_binary) {
  std::string wharf = core::shell_quote(wharf_binary);
  auto notify = [&](std::string_view state) {
    return wharf + " notify " + std::string(state) + " >/dev/null 2>&1 || true";
  };
  return boost::json::object{
      {"Notification", one_command(notify("waiting"))},
      {"Stop", one_command(notify("finished"))},
  };
}

std::string opencode_plugin_source(const std::string& wharf_binary) {
  // The binary's path as a JS string literal (JSON's string syntax is JavaScript's).
  std::string wharf = boost::json::serialize(boost::json::value(wharf_binary));
  return "// Written by wharf for the opencode sessions it starts (docs/agents.md). It tells\n"
         "// wharf when opencode waits for you or has finished; nothing else.\n"
         "import { spawn } from 'node:child_process';\n"
         "\n"
         "const WHARF = " +
         wharf +
         ";\n"
         "\n"
         "function tell(state) {\n"
         "  try {\n"
         "    const child = spawn(WHARF, ['notify', state], { stdio: 'ignore', detached: false "
         "});\n"
         "    child.on('error', () => {});\n"
         "  } catch { /* wharf is gone: nothing to tell */ }\n"
         "}\n"
         "\n"
         "export const WharfNotify = async () => ({\n"
         "  event: async ({ event }) => {\n"
         "    if (event?.type === 'session.idle') tell('finished');\n"
         "    else if (event?.type === 'permission.asked' || event?.type === 'permission.updated')"
         " tell('waiting');\n"
         "  },\n"
         "});\n";
}

core::Result<std::string> prepare_opencode_plugin(const std::filesystem::path& state_dir,
                                                  const std::string& wharf_binary) {
  std::filesystem::path dir = state_dir / "opencode";
  if (auto made = ensure_private_dir(dir); !made) return made.error();
  std::filesystem::path file = dir / "wharf-notify.js";
  if (auto written = write_private_file(file, opencode_plugin_source(wharf_binary)); !written)
    return written.error();
  return file.string();
}

}  // namespace wharf::app
