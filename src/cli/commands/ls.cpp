// `wharf ls [--json]`: the live sessions, in tab order. The table shows what each session
// runs (its catalog entry and kind) and keeps its columns aligned: widths follow the
// content, measured in terminal cells, and a name or directory longer than its column's
// limit is cut with an ellipsis. Control characters in names and directories are shown
// as '?', so a crafted name cannot drive the terminal running `wharf ls`.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"
#include "core/char_width.hpp"

namespace wharf::cli {
namespace {

constexpr std::size_t kMaxNameCells = 24;
constexpr std::size_t kMaxRunsCells = 20;
constexpr std::size_t kMaxCwdCells = 48;

std::string field(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return "-";
  if (v->is_string()) return std::string(v->get_string());
  return boost::json::serialize(*v);
}

// One UTF-8 character of `text` at `i`: its code point and its length in bytes (an
// invalid byte is one character of its own).
std::pair<char32_t, std::size_t> next_char(std::string_view text, std::size_t i) {
  auto lead = static_cast<unsigned char>(text[i]);
  std::size_t length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (i + length > text.size()) length = 1;
  char32_t cp = length == 1 ? lead : lead & (0x7fu >> length);
  for (std::size_t k = 1; k < length; ++k)
    cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3fu);
  return {cp, length};
}

// A cell of the table: controls (C0, DEL, C1) become '?', and the text is cut to
// `max_cells` terminal cells, its last one an ellipsis when something was cut.
struct Cell {
  std::string text;
  std::size_t cells = 0;
};

Cell make_cell(std::string_view text, std::size_t max_cells) {
  std::vector<std::pair<std::string, std::size_t>> chars;
  std::size_t total = 0;
  for (std::size_t i = 0; i < text.size();) {
    auto [cp, length] = next_char(text, i);
    bool control = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
    std::string shown = control ? "?" : std::string(text.substr(i, length));
    std::size_t width = control ? 1 : static_cast<std::size_t>(core::char_width(cp));
    chars.emplace_back(std::move(shown), width);
    total += width;
    i += length;
  }
  Cell cell;
  if (total <= max_cells) {
    for (auto& [shown, width] : chars) cell.text += shown;
    cell.cells = total;
    return cell;
  }
  for (auto& [shown, width] : chars) {
    if (cell.cells + width + 1 > max_cells) break;
    cell.text += shown;
    cell.cells += width;
  }
  cell.text += "…";
  cell.cells += 1;
  return cell;
}

std::function<int()> setup_ls(CLI::App& verb) {
  auto state_dir = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  add_state_dir_option(verb, *state_dir);
  verb.add_flag("--json", *as_json, "One JSON array, one object per session");
  verb.footer(R"(Columns: ID and NAME (either names the session in other verbs), RUNS (the
catalog entry and its kind), STATUS, PID, DRIVER (the window typing into it), SANDBOX
("no", or its network: "none", "allow N" hosts, "host"; docs/sandbox.md) and CWD.

Examples:
  wharf ls
  wharf ls --json | jq '.[] | select(.kind == "agent") | .id')");
  return [state_dir, as_json] {
    auto answer = call_operation(*state_dir, "list_sessions", {});
    if (!answer) return report_failure(answer.error());
    const auto& sessions = answer.value().at("result").at("sessions").as_array();
    if (*as_json) {
      std::printf("%s\n", boost::json::serialize(sessions).c_str());
      return 0;
    }
    std::vector<std::vector<Cell>> rows;
    rows.push_back({make_cell("ID", 8), make_cell("NAME", 8), make_cell("RUNS", 8),
                    make_cell("STATUS", 8), make_cell("PID", 8), make_cell("DRIVER", 8),
                    make_cell("SANDBOX", 8), make_cell("CWD", 8)});
    for (const auto& row : sessions) {
      const auto& o = row.as_object();
      std::string runs = field(o, "entry");
      if (std::string kind = field(o, "kind"); kind != "-") runs += " (" + kind + ")";
      std::string sandbox = "no";
      if (const auto* caps = o.if_contains("capabilities");
          caps != nullptr && caps->is_object() && caps->as_object().contains("network")) {
        const auto& c = caps->as_object();
        sandbox = field(c, "network");
        if (sandbox == "allow" && c.at("allow").is_array())
          sandbox += " " + std::to_string(c.at("allow").as_array().size());
      }
      rows.push_back({make_cell(field(o, "id"), 20), make_cell(field(o, "name"), kMaxNameCells),
                      make_cell(runs, kMaxRunsCells), make_cell(field(o, "status"), 12),
                      make_cell(field(o, "pid"), 12), make_cell(field(o, "driver"), 12),
                      make_cell(sandbox, 12), make_cell(field(o, "cwd"), kMaxCwdCells)});
    }
    std::vector<std::size_t> widths(rows.front().size(), 0);
    for (const auto& row : rows)
      for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].cells);
    for (const auto& row : rows) {
      std::string line;
      for (std::size_t i = 0; i < row.size(); ++i) {
        line += row[i].text;
        if (i + 1 < row.size()) line.append(widths[i] - row[i].cells + 2, ' ');
      }
      std::printf("%s\n", line.c_str());
    }
    return 0;
  };
}

}  // namespace

const Command kLsCommand{
    .name = "ls",
    .summary = "List the live sessions",
    .setup = setup_ls,
};

}  // namespace wharf::cli
