#include "app/conversation_probe.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <system_error>
#include <vector>

#include "core/utf8.hpp"

namespace wharf::app {
namespace fs = std::filesystem;

namespace {

// Bounds on what one probe may touch, whatever the stores hold.
constexpr std::size_t kMaxEntriesPerListing = 4096;  // names looked at in one folder
constexpr std::size_t kMaxFilesRead = 256;           // Codex rollouts opened
constexpr std::size_t kMaxListings = 512;            // Codex date folders listed
constexpr std::size_t kMaxFirstLineBytes = 64 * 1024;
constexpr std::size_t kClaudeMaxDirNameLength = 200;  // Claude Code's own cut-off
constexpr int kSqliteBusyTimeoutMs = 100;             // opencode may be writing; don't wait

// The directory as the agent will see it from getcwd(): symlinks and `..` resolved. A
// directory that cannot be resolved is compared as written, minus a trailing '/'.
std::string resolved_directory(const fs::path& directory) {
  std::error_code ec;
  fs::path resolved = fs::canonical(directory, ec);
  if (ec) {
    resolved = directory.lexically_normal();
    if (!resolved.has_filename() && resolved.has_parent_path() &&
        resolved != resolved.root_path()) {
      resolved = resolved.parent_path();
    }
  }
  return resolved.string();
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Up to kMaxEntriesPerListing names in `dir` whose status (following links) passes
// `keep`. An unreadable or missing folder lists nothing.
template <class Keep>
std::vector<std::string> list_names(const fs::path& dir, Keep keep) {
  std::vector<std::string> names;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  std::size_t seen = 0;
  for (; !ec && it != fs::directory_iterator() && seen < kMaxEntriesPerListing;
       it.increment(ec), ++seen) {
    std::error_code status_ec;
    fs::file_status status = it->status(status_ec);
    if (status_ec) continue;
    std::string name = it->path().filename().string();
    if (keep(name, status)) names.push_back(std::move(name));
  }
  return names;
}

// ---- Claude Code -------------------------------------------------------------------

// The UTF-16 code units JavaScript sees for a UTF-8 path. A byte that does not start a
// valid sequence stands for U+FFFD, as when Node decodes it.
std::u16string utf16_units(std::string_view text) {
  std::u16string units;
  units.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    auto lead = static_cast<unsigned char>(text[i]);
    std::uint32_t cp = lead;
    std::size_t length = 1;
    std::uint32_t minimum = 0;
    if (lead >= 0xC0 && lead < 0xE0) {
      length = 2, cp = lead & 0x1Fu, minimum = 0x80;
    } else if (lead >= 0xE0 && lead < 0xF0) {
      length = 3, cp = lead & 0x0Fu, minimum = 0x800;
    } else if (lead >= 0xF0 && lead < 0xF8) {
      length = 4, cp = lead & 0x07u, minimum = 0x10000;
    } else if (lead >= 0x80) {
      cp = 0xFFFD;  // a stray continuation byte or an invalid lead
    }
    bool valid = i + length <= text.size();
    for (std::size_t k = 1; valid && k < length; ++k) {
      auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0u) != 0x80u) valid = false;
      cp = (cp << 6) | (next & 0x3Fu);
    }
    if (length > 1 && (!valid || cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000))) {
      cp = 0xFFFD, length = 1;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units.push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
      units.push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3FFu)));
    } else {
      units.push_back(static_cast<char16_t>(cp));
    }
    i += length;
  }
  return units;
}

bool is_ascii_alnum(char16_t unit) {
  return (unit >= u'a' && unit <= u'z') || (unit >= u'A' && unit <= u'Z') ||
         (unit >= u'0' && unit <= u'9');
}

std::string base36(std::uint64_t value) {
  constexpr std::string_view kDigits = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string digits;
  do {
    digits.push_back(kDigits[value % 36]);
    value /= 36;
  } while (value != 0);
  std::reverse(digits.begin(), digits.end());
  return digits;
}

bool claude_has_conversation(const fs::path& home, const std::string& directory) {
  fs::path project = home / ".claude" / "projects" / claude_project_dir_name(directory);
  // A transcript is written once the first message is sent; an empty folder (or one with
  // only Claude's memory/ subfolder) makes `claude --continue` exit with an error.
  auto transcripts = list_names(project, [&](const std::string& name, fs::file_status status) {
    if (!fs::is_regular_file(status) || !ends_with(name, ".jsonl")) return false;
    std::error_code ec;
    return fs::file_size(project / name, ec) > 0 && !ec;
  });
  return !transcripts.empty();
}

// ---- Codex -------------------------------------------------------------------------

// The first line of a regular file, at most kMaxFirstLineBytes of it. Opened without
// blocking so that a FIFO given a rollout's name cannot stall the caller.
std::optional<std::string> read_first_line(const fs::path& file) {
  int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return std::nullopt;
  std::unique_ptr<int, void (*)(int*)> closer(&fd, [](int* f) { ::close(*f); });
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  std::string line(kMaxFirstLineBytes, '\0');
  std::size_t filled = 0;
  while (filled < line.size()) {
    ssize_t got = ::read(fd, line.data() + filled, line.size() - filled);
    if (got <= 0) break;
    filled += static_cast<std::size_t>(got);
    if (line.find('\n', filled - static_cast<std::size_t>(got)) != std::string::npos) break;
  }
  line.resize(filled);
  if (auto newline = line.find('\n'); newline != std::string::npos) line.resize(newline);
  return line;
}

// The JSON string that starts at `text[pos]` (just after its opening quote), decoded;
// nothing when it is malformed or cut off.
std::optional<std::string> json_string_at(std::string_view text, std::size_t pos) {
  std::string out;
  while (pos < text.size()) {
    char c = text[pos++];
    if (c == '"') return out;
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (pos >= text.size()) return std::nullopt;
    char escape = text[pos++];
    switch (escape) {
      case '"':
      case '\\':
      case '/':
        out.push_back(escape);
        break;
      case 'b':
        out.push_back('\b');
        break;
      case 'f':
        out.push_back('\f');
        break;
      case 'n':
        out.push_back('\n');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'u': {
        auto hex4 = [&](std::uint32_t& value) {
          if (pos + 4 > text.size()) return false;
          value = 0;
          for (int k = 0; k < 4; ++k) {
            char h = text[pos++];
            std::uint32_t digit = 0;
            if (h >= '0' && h <= '9') {
              digit = static_cast<std::uint32_t>(h - '0');
            } else if (h >= 'a' && h <= 'f') {
              digit = static_cast<std::uint32_t>(h - 'a' + 10);
            } else if (h >= 'A' && h <= 'F') {
              digit = static_cast<std::uint32_t>(h - 'A' + 10);
            } else {
              return false;
            }
            value = (value << 4) | digit;
          }
          return true;
        };
        std::uint32_t cp = 0;
        if (!hex4(cp)) return std::nullopt;
        if (cp >= 0xD800 && cp < 0xDC00 && text.substr(pos, 2) == "\\u") {
          pos += 2;
          std::uint32_t low = 0;
          if (!hex4(low) || low < 0xDC00 || low >= 0xE000) return std::nullopt;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        core::append_utf8(out, cp);
        break;
      }
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

// The session's working directory from a rollout's first line, a `session_meta` record.
// Its payload names "cwd" before the long base instructions, so the 64 KiB prefix of a
// longer line still holds it. A key cannot be mistaken inside a string value: quotes
// there are escaped.
std::optional<std::string> codex_rollout_cwd(std::string_view line) {
  if (line.find("\"type\":\"session_meta\"") == std::string_view::npos) return std::nullopt;
  constexpr std::string_view kKey = "\"cwd\":";
  std::size_t pos = line.find(kKey);
  if (pos == std::string_view::npos) return std::nullopt;
  pos += kKey.size();
  while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
  if (pos >= line.size() || line[pos] != '"') return std::nullopt;
  return json_string_at(line, pos + 1);
}

bool codex_has_conversation(const fs::path& home, const std::string& directory) {
  // ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl, newest first: the names sort
  // by date, so the most recent kMaxFilesRead rollouts are the ones looked at.
  std::size_t listings = 0;
  auto newest_folders = [&](const fs::path& dir) {
    // Empty date folders cost a listing each without using up the file budget.
    if (listings++ >= kMaxListings) return std::vector<std::string>{};
    auto names = list_names(
        dir, [](const std::string&, fs::file_status status) { return fs::is_directory(status); });
    std::sort(names.begin(), names.end(), std::greater<>());
    return names;
  };
  fs::path sessions = home / ".codex" / "sessions";
  std::size_t read = 0;
  for (const auto& year : newest_folders(sessions)) {
    for (const auto& month : newest_folders(sessions / year)) {
      for (const auto& day : newest_folders(sessions / year / month)) {
        fs::path day_dir = sessions / year / month / day;
        auto rollouts = list_names(day_dir, [](const std::string& name, fs::file_status status) {
          return fs::is_regular_file(status) && name.starts_with("rollout-") &&
                 ends_with(name, ".jsonl");
        });
        std::sort(rollouts.begin(), rollouts.end(), std::greater<>());
        for (const auto& rollout : rollouts) {
          if (read++ >= kMaxFilesRead) return false;
          auto line = read_first_line(day_dir / rollout);
          if (!line) continue;
          auto cwd = codex_rollout_cwd(*line);
          if (cwd && *cwd == directory) return true;
        }
      }
    }
  }
  return false;
}

// ---- opencode ----------------------------------------------------------------------

bool opencode_has_conversation(const fs::path& home, const std::string& directory) {
  // opencode 1.x keeps sessions in SQLite. `opencode --continue` takes the most recent
  // top-level session (a subagent's has a parent) that is not archived.
  fs::path database = home / ".local" / "share" / "opencode" / "opencode.db";
  std::error_code ec;
  if (!fs::is_regular_file(database, ec)) return false;

  sqlite3* raw = nullptr;
  int rc =
      sqlite3_open_v2(database.c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close_v2);
  if (rc != SQLITE_OK) return false;
  sqlite3_busy_timeout(db.get(), kSqliteBusyTimeoutMs);
  // Another program's file: its schema must not run anything through us.
  sqlite3_db_config(db.get(), SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db.get(), SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);

  constexpr std::string_view kQuery =
      "SELECT 1 FROM session WHERE directory = ?1 AND parent_id IS NULL "
      "AND time_archived IS NULL LIMIT 1";
  sqlite3_stmt* raw_stmt = nullptr;
  // A store from another version without these columns fails to prepare: nothing found.
  if (sqlite3_prepare_v2(db.get(), kQuery.data(), static_cast<int>(kQuery.size()), &raw_stmt,
                         nullptr) != SQLITE_OK) {
    return false;
  }
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> stmt(raw_stmt, sqlite3_finalize);
  if (sqlite3_bind_text(stmt.get(), 1, directory.data(), static_cast<int>(directory.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK) {
    return false;
  }
  return sqlite3_step(stmt.get()) == SQLITE_ROW;
}

}  // namespace

std::string claude_project_dir_name(std::string_view directory) {
  std::u16string units = utf16_units(directory);
  std::string name;
  name.reserve(units.size());
  // Claude Code's hash: Java's String.hashCode over the UTF-16 units, in 32 bits.
  std::uint32_t hash = 0;
  for (char16_t unit : units) {
    name.push_back(is_ascii_alnum(unit) ? static_cast<char>(unit) : '-');
    hash = hash * 31u + unit;
  }
  if (name.size() <= kClaudeMaxDirNameLength) return name;
  std::int64_t signed_hash = static_cast<std::int32_t>(hash);
  name.resize(kClaudeMaxDirNameLength);
  return name + "-" +
         base36(static_cast<std::uint64_t>(signed_hash < 0 ? -signed_hash : signed_hash));
}

bool has_previous_conversation(std::string_view probe, const fs::path& home,
                               const fs::path& directory) {
  // The filesystem calls use error codes; this catch is for allocation failure only, so
  // that a probe can never take the caller down.
  try {
    if (probe != "claude" && probe != "codex" && probe != "opencode") return false;
    std::string resolved = resolved_directory(directory);
    if (probe == "claude") return claude_has_conversation(home, resolved);
    if (probe == "codex") return codex_has_conversation(home, resolved);
    return opencode_has_conversation(home, resolved);
  } catch (...) {
    return false;
  }
}

}  // namespace wharf::app
