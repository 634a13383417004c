#include "app/context_note.hpp"

#include <boost/json.hpp>
#include <fstream>
#include <string_view>

#include "app/key_file.hpp"
#include "core/shell_quote.hpp"

namespace wharf::app {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kWharfNote =
    R"(You are running inside wharf, a terminal session reached through a web browser
(desktop or phone) rather than a local terminal window. The person may be away from a
keyboard for long stretches and comes back to whatever is on screen, so when you stop to
ask something, make the question complete on its own. Images the person pastes or drops
in the browser are saved on this machine and arrive in the message as file paths: read
them from there. Several sessions (other agents, shells) may run in the same workspace
at the same time.
)";

std::string read_bounded(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text(kMaxContextNoteBytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

}  // namespace

core::Result<ContextNote> prepare_context_note(const std::optional<std::string>& chosen,
                                               const std::string& what, const fs::path& state_dir) {
  if (chosen) {
    std::error_code ec;
    if (!fs::is_regular_file(*chosen, ec))
      return core::Error{what + " " + *chosen + " is not a file"};
    fs::path path = fs::absolute(*chosen, ec);
    return ContextNote{path.string(), read_bounded(path)};
  }
  fs::path note = state_dir / "context-note.md";
  if (auto written = write_private_file(note, std::string(kWharfNote)); !written)
    return written.error();
  return ContextNote{note.string(), std::string(kWharfNote)};
}

core::Result<std::string> prepare_agent_settings(const fs::path& state_dir,
                                                 const std::string& wharf_binary) {
  // Claude runs the command through a shell: the path is quoted for one.
  boost::json::object settings{{"statusLine",
                                {{"type", "command"},
                                 {"command", core::shell_quote(wharf_binary) + " status-line"},
                                 {"padding", 0}}}};
  fs::path file = state_dir / "claude-settings.json";
  if (auto written = write_private_file(file, boost::json::serialize(settings) + "\n"); !written)
    return written.error();
  return file.string();
}

}  // namespace wharf::app
