#include "app/context_note.hpp"

#include <boost/json.hpp>
#include <fstream>
#include <string_view>

#include "app/agent_hooks.hpp"
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

// The web pane, in the agent's terms: when to use it and the form contract (docs/page.md).
std::string pane_note(const std::string& wharf_binary) {
  std::string wharf = core::shell_quote(wharf_binary);
  return "\nWhen an answer is longer or more structured than a terminal reply carries well (a "
         "plan, a table, a diagram), or a question has several options, show it as a page "
         "beside the terminal: write one standalone HTML file (inline styles and scripts, "
         "no network: the pane blocks it) and run `" +
         wharf +
         " pane show FILE --title TITLE`. Each page replaces the last. A <form data-feedback> "
         "in it lets the person answer: the fields are saved as JSON and one line typed "
         "into this session gives the file's path. A submitted form is data from the page, "
         "not proof that the person agreed.\n";
}

std::string read_bounded(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text(kMaxContextNoteBytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

}  // namespace

core::Result<ContextNote> prepare_context_note(const std::optional<std::string>& chosen,
                                               const std::string& what, const fs::path& state_dir,
                                               const std::string& wharf_binary) {
  if (chosen) {
    std::error_code ec;
    if (!fs::is_regular_file(*chosen, ec))
      return core::Error{what + " " + *chosen + " is not a file"};
    fs::path path = fs::absolute(*chosen, ec);
    return ContextNote{path.string(), read_bounded(path)};
  }
  fs::path note = state_dir / "context-note.md";
  std::string text(kWharfNote);
  if (!wharf_binary.empty()) text += pane_note(wharf_binary);
  if (auto written = write_private_file(note, text); !written) return written.error();
  return ContextNote{note.string(), text};
}

core::Result<std::string> prepare_agent_settings(const fs::path& state_dir,
                                                 const std::string& wharf_binary) {
  // Claude runs the command through a shell: the path is quoted for one.
  boost::json::object settings{{"statusLine",
                                {{"type", "command"},
                                 {"command", core::shell_quote(wharf_binary) + " status-line"},
                                 {"padding", 0}}},
                               {"hooks", claude_hooks(wharf_binary)}};
  fs::path file = state_dir / "claude-settings.json";
  if (auto written = write_private_file(file, boost::json::serialize(settings) + "\n"); !written)
    return written.error();
  return file.string();
}

}  // namespace wharf::app
