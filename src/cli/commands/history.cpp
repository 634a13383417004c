// `wharf history [--json] [--limit N]`: past and present sessions, newest first, with how
// each ended (docs/hosts.md): exited, ended, crashed (its host process died without
// saying how the program ended) or interrupted (no daemon re-attached it after a restart).
// A session a later daemon re-attached keeps its first run; the table's RUN shows both
// ("1→3"), --json lists each "reattached" event with the taking run as its detail.
//
// `wharf history ID --screen` (or RUN:ID, as the table's RUN and ID columns name a
// session) prints the final screen kept for that session in STATE_DIR/screens
// (app/final_screens.hpp); ID alone means the newest run's session with that id.
//
// It reads STATE_DIR/wharf.db itself, read-only, instead of asking the daemon: history is
// wanted most when no daemon runs (after a crash, after a stop), and the database's
// write-ahead log lets this reader share the file with a running daemon. It never
// creates, migrates or changes the file; a missing file is a one-line message and exit 1.
//
// The table is for people (local times, durations, KiB, ~ for home); --json is for
// programs (milliseconds since the epoch, exact byte counts, every lifecycle event). What
// the store never holds (input, output, arguments, environment values) cannot show here.
// Names, directories and final screens are printed with control characters replaced, so
// a crafted tab name, directory or screen file cannot drive the terminal that runs
// `wharf history`.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/final_screens.hpp"
#include "app/state_paths.hpp"
#include "cli/commands.hpp"
#include "cli/control_client.hpp"
#include "cli/history_audit.hpp"
#include "store/metadata_store.hpp"

namespace wharf::cli {
namespace {

constexpr std::size_t kDefaultLimit = 50;

struct HistoryOptions {
  std::string state_dir;
  bool as_json = false;
  std::size_t limit = kDefaultLimit;
  std::string session;  // "ID" or "RUN:ID"; only with --screen
  bool screen = false;
};

// A session as the table names it: "ID", or "RUN:ID" for one run's.
struct SessionSpec {
  std::optional<std::int64_t> run_id;
  std::uint64_t session_id = 0;
};

// A positive whole number that fits SQLite's signed 64-bit integers.
std::optional<std::uint64_t> positive_number(std::string_view text) {
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != text.npos) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  for (char c : text) value = value * 10 + static_cast<std::uint64_t>(c - '0');
  if (value == 0) return std::nullopt;
  return value;
}

std::optional<SessionSpec> parse_session_spec(std::string_view text) {
  auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    auto id = positive_number(text);
    if (!id) return std::nullopt;
    return SessionSpec{.run_id = std::nullopt, .session_id = *id};
  }
  auto run = positive_number(text.substr(0, colon));
  auto id = positive_number(text.substr(colon + 1));
  if (!run || !id) return std::nullopt;
  return SessionSpec{.run_id = static_cast<std::int64_t>(*run), .session_id = *id};
}

// The table's "started": local time to the minute.
std::string local_time(std::int64_t ms) {
  std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  localtime_r(&seconds, &tm);
  char text[32];
  if (std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &tm) == 0) return "?";
  return text;
}

// Two units at most ("45s", "3m05s", "2h05m", "3d04h"): how long, not a timestamp.
std::string duration(std::int64_t ms) {
  std::int64_t s = ms < 0 ? 0 : ms / 1000;
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  if (s < 86400) return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
  return fmt::format("{}d{:02}h", s / 86400, s % 86400 / 3600);
}

// "812 B", "12.3 KiB", "4.0 MiB".
std::string human_bytes(std::uint64_t bytes) {
  if (bytes < 1024) return fmt::format("{} B", bytes);
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024.0;
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

// "SIGHUP"; a number the C library cannot name stays a number.
std::string signal_name(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  if (abbrev == nullptr) return fmt::format("signal {}", signal);
  return fmt::format("SIG{}", abbrev);
}

// "exited 3", "ended SIGTERM", "running", "interrupted", "crashed".
std::string status_cell(const store::SessionRow& row) {
  if (row.exit_code) return fmt::format("{} {}", row.status, *row.exit_code);
  if (row.signal) return fmt::format("{} {}", row.status, signal_name(*row.signal));
  return row.status;
}

bool is_live(const store::SessionRow& row) {
  return row.status == "running" || row.status == "ending";
}

// The home directory as "~", so the column shows what differs between sessions.
std::string short_path(const std::string& path) {
  const char* home = std::getenv("HOME");
  if (home == nullptr || home[0] != '/' || std::strcmp(home, "/") == 0) return path;
  std::string prefix = home;
  while (prefix.size() > 1 && prefix.back() == '/') prefix.pop_back();
  if (path == prefix) return "~";
  if (path.starts_with(prefix + "/")) return "~" + path.substr(prefix.size());
  return path;
}

// C0 controls, DEL and the UTF-8 encodings of C1 controls (U+0080..U+009F, which a
// terminal may take as CSI or OSC) become '?'; line feeds too, unless `keep_lines` (a
// screen's lines, which move the cursor only down).
std::string printable(std::string_view text, bool keep_lines = false) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto byte = static_cast<unsigned char>(text[i]);
    if (keep_lines && byte == '\n') {
      out += '\n';
    } else if (byte < 0x20 || byte == 0x7f) {
      out += '?';
    } else if (byte == 0xc2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      out += '?';
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

// Whether a terminal gives code point `cp` two cells: East Asian wide and fullwidth
// forms, and emoji. Approximate (no locale tables), which is enough to line up a table.
bool is_wide(char32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp != 0x303f) ||
         (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
         (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
         (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
         (cp >= 0x1f680 && cp <= 0x1f6ff) || (cp >= 0x1f900 && cp <= 0x1faff) ||
         (cp >= 0x20000 && cp <= 0x3fffd);
}

// Columns are padded by terminal cells, not bytes, so a name like "émoji 🚢" does not
// shift the rest of its line.
std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size();) {
    auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = lead < 0x80    ? 1
                         : lead >= 0xf0 ? 4
                         : lead >= 0xe0 ? 3
                         : lead >= 0xc0 ? 2
                                        : 1;
    if (i + length > text.size()) length = 1;
    char32_t cp = length == 1 ? lead : lead & (0x7fu >> length);
    for (std::size_t k = 1; k < length; ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3fu);
    }
    width += is_wide(cp) ? 2u : 1u;
    i += length;
  }
  return width;
}

boost::json::object to_json(const store::SessionHistory& history) {
  const store::SessionRow& row = history.session;
  boost::json::array env_names;
  for (const std::string& name : row.env_names) env_names.emplace_back(name);
  boost::json::array events;
  for (const store::SessionEvent& event : history.events) {
    boost::json::value detail = nullptr;
    // "renamed": "" too (the default name); "reattached": the run that took it over.
    if (event.event == "renamed" || event.event == "reattached") detail = event.detail;
    events.push_back(
        boost::json::object{{"at", event.at_ms}, {"event", event.event}, {"detail", detail}});
  }
  auto optional = [](const auto& value) -> boost::json::value {
    if (!value) return nullptr;
    return *value;
  };
  return boost::json::object{
      {"run", row.run_id},
      {"id", row.session_id},
      {"name", row.name},
      {"entry", row.entry},
      {"kind", row.kind},
      {"program", row.program},
      {"cwd", row.cwd},
      {"env_names", std::move(env_names)},
      // The same names as `wharf ls --json` and list_sessions: who started it is the
      // creator, and every time is milliseconds since the epoch.
      {"creator", row.owner},
      {"status", row.status},
      {"created", row.created_at_ms},
      {"ended", optional(row.ended_at_ms)},
      {"exit_code", optional(row.exit_code)},
      {"signal", optional(row.signal)},
      {"bytes_out", row.bytes_out},
      {"bytes_in", row.bytes_in},
      {"scrollback_truncated", row.scrollback_truncated},
      {"events", std::move(events)},
  };
}

void print_table(const std::vector<store::SessionHistory>& history) {
  std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  std::vector<std::vector<std::string>> lines;
  lines.push_back({"RUN", "ID", "NAME", "ENTRY", "STATUS", "STARTED", "DURATION", "OUTPUT", "CWD"});
  for (const store::SessionHistory& h : history) {
    const store::SessionRow& row = h.session;
    // A session re-attached by later daemons shows the run that started it and the last
    // that took it over: its id is the first run's, and it lived into the last one.
    std::string run = std::to_string(row.run_id);
    auto last_takeover = std::find_if(h.events.rbegin(), h.events.rend(),
                                      [](const auto& e) { return e.event == "reattached"; });
    if (last_takeover != h.events.rend()) run += "→" + printable(last_takeover->detail);
    std::string entry = row.entry.empty() ? row.kind : row.entry + "/" + row.kind;
    // A live session has run until now; one interrupted by a daemon that died without
    // recording its stop has no known end.
    std::optional<std::int64_t> end = row.ended_at_ms;
    if (!end && is_live(row)) end = now_ms;
    std::string took = end ? duration(*end - row.created_at_ms) : "-";
    // Byte counts are recorded when a session finishes (a crashed one's are what the
    // daemon relayed); before that, or when the daemon died first, there are none.
    bool counted = row.status == "exited" || row.status == "ended" || row.status == "crashed";
    std::string output = counted ? human_bytes(row.bytes_out) : "-";
    if (row.scrollback_truncated) output += " (truncated)";
    lines.push_back({run, std::to_string(row.session_id), printable(row.name), printable(entry),
                     status_cell(row), local_time(row.created_at_ms), took, output,
                     printable(short_path(row.cwd))});
  }
  std::vector<std::size_t> widths(lines.front().size(), 0);
  for (const auto& line : lines) {
    for (std::size_t i = 0; i < line.size(); ++i) {
      widths[i] = std::max(widths[i], display_width(line[i]));
    }
  }
  for (const auto& line : lines) {
    std::string text;
    for (std::size_t i = 0; i < line.size(); ++i) {
      text += line[i];
      if (i + 1 == line.size()) break;  // the last column is not padded
      text.append(widths[i] - display_width(line[i]) + 2, ' ');
    }
    std::printf("%s\n", text.c_str());
  }
}

// `wharf history ID --screen`: the session's kept final screen on stdout, or why there
// is none (exit 1).
int print_screen(const app::StatePaths& paths, const store::MetadataStore& store,
                 const std::string& spec_text) {
  auto spec = parse_session_spec(spec_text);
  if (!spec) return report_failure(core::Error{"'" + spec_text + "' is not a session"});
  auto found = store.find_session(spec->session_id, spec->run_id);
  if (!found) return report_failure(found.error());
  if (!found.value()) {
    return report_failure(
        core::Error{"no session " + spec_text + " in the history (`wharf history` lists them)"});
  }
  const store::SessionRow& row = *found.value();
  auto text = app::FinalScreens(paths.screens_dir()).load(row.run_id, row.session_id);
  if (!text) {
    if (text.error().code != "not_found") return report_failure(text.error());
    std::string message = "no final screen kept for session " + spec_text;
    if (is_live(row)) message += ": it is still running";
    return report_failure(core::Error{message});
  }
  std::string out = printable(text.value(), /*keep_lines=*/true);
  if (!out.empty() && out.back() != '\n') out += '\n';
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

std::function<int()> setup_history(CLI::App& verb) {
  auto o = std::make_shared<HistoryOptions>();
  add_state_dir_option(verb, o->state_dir);
  auto* json = verb.add_flag("--json", o->as_json,
                             "One JSON array, one object per session with its lifecycle events");
  verb.add_option("--limit", o->limit, "At most this many sessions, newest first")
      ->default_val(kDefaultLimit)
      ->check(whole_number(1, 1'000'000));
  auto* session =
      verb.add_option("session", o->session,
                      "With --screen: the session, as ID (the newest run's) or RUN:ID")
          ->check(CLI::Validator(
              [](const std::string& value) -> std::string {
                if (parse_session_spec(value)) return {};
                return "'" + value +
                       "' is not a session (ID or RUN:ID, positive numbers as `wharf history` "
                       "prints them)";
              },
              "ID|RUN:ID"));
  auto* screen = verb.add_flag("--screen", o->screen,
                               "Print the final screen kept for the session when it ended");
  screen->needs(session)->excludes(json);
  session->needs(screen);
  verb.footer(R"(Examples:
  wharf history
  wharf history --limit 10 --json
  wharf history 3 --screen        (or RUN:ID, as the table's RUN and ID columns show))");
  return [o] {
    auto paths = app::resolve_state_paths(
        o->state_dir.empty() ? std::nullopt : std::optional<std::filesystem::path>(o->state_dir));
    auto store = store::MetadataStore::open_read_only(paths.database_file());
    if (!store) return report_failure(store.error());
    if (o->screen) return print_screen(paths, store.value(), o->session);
    auto history = store.value().sessions_with_events(o->limit);
    if (!history) return report_failure(history.error());

    if (o->as_json) {
      boost::json::array out;
      for (const store::SessionHistory& h : history.value()) {
        boost::json::object row = to_json(h);
        auto audited = add_audit(row, store.value(), h.session.run_id, h.session.session_id);
        if (!audited) return report_failure(audited.error());
        out.emplace_back(std::move(row));
      }
      std::printf("%s\n", boost::json::serialize(out).c_str());
      return 0;
    }
    if (history.value().empty()) {
      std::printf("no sessions recorded yet in %s\n", paths.database_file().c_str());
      return 0;
    }
    print_table(history.value());
    return 0;
  };
}

}  // namespace

const Command kHistoryCommand{
    .name = "history",
    .summary = "List past and present sessions, newest first",
    .setup = setup_history,
};

}  // namespace wharf::cli
