#include "store/metadata_store.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <limits>
#include <map>

#include "store/sqlite_statement.hpp"

namespace wharf::store {
namespace {

// PRAGMA application_id marks the file as wharf's ("whar"), so open() can tell its own
// database from another program's SQLite file and refuse to touch the latter.
constexpr std::int64_t kApplicationId = 0x77686172;

// Waiting for a lock blocks the daemon's event loop, so this stays short; only another
// process reading history at the same moment (a checkpoint) can make the store wait.
constexpr int kBusyTimeoutMs = 1000;

// kMigrations[v] turns schema version v into v + 1, all in one transaction. Each ends by
// setting user_version to its literal target: PRAGMAs take no bound parameters, and SQL
// here is never assembled from values.
constexpr std::array<std::string_view, kSchemaVersion> kMigrations = {
    R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  started_at INTEGER NOT NULL,  -- every time here: milliseconds since the Unix epoch
  stopped_at INTEGER,           -- NULL while running, or when the daemon died
  pid INTEGER NOT NULL
) STRICT;

CREATE TABLE sessions (
  run_id INTEGER NOT NULL REFERENCES runs (id),
  session_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  program TEXT NOT NULL,          -- the executable only, never its arguments
  cwd TEXT NOT NULL,
  owner TEXT NOT NULL,
  env_names TEXT NOT NULL,        -- JSON array of variable NAMES, never values
  status TEXT NOT NULL
    CHECK (status IN ('running', 'ending', 'exited', 'ended', 'interrupted')),
  exit_code INTEGER,
  signal INTEGER,
  created_at INTEGER NOT NULL,
  ended_at INTEGER,
  bytes_out INTEGER NOT NULL DEFAULT 0,
  bytes_in INTEGER NOT NULL DEFAULT 0,
  scrollback_truncated INTEGER NOT NULL DEFAULT 0 CHECK (scrollback_truncated IN (0, 1)),
  PRIMARY KEY (run_id, session_id)
) STRICT;

-- begin_run() looks for live sessions among every session ever recorded.
CREATE INDEX sessions_live ON sessions (status) WHERE status IN ('running', 'ending');
CREATE INDEX sessions_by_created ON sessions (created_at);

CREATE TABLE session_events (
  run_id INTEGER NOT NULL,
  session_id INTEGER NOT NULL,
  at INTEGER NOT NULL,
  event TEXT NOT NULL
    CHECK (event IN ('started', 'renamed', 'exited', 'ended', 'interrupted')),
  detail TEXT,                    -- "renamed": the new name; otherwise NULL
  FOREIGN KEY (run_id, session_id) REFERENCES sessions (run_id, session_id)
) STRICT;
CREATE INDEX session_events_by_session ON session_events (run_id, session_id);

PRAGMA application_id = 2003329394;
PRAGMA user_version = 1;
)sql",
    // 1 -> 2: the catalog entry a session ran ("claude", "bash"); kind says which sort of
    // entry it is. Sessions recorded before have no entry to recover: ''.
    R"sql(
ALTER TABLE sessions ADD COLUMN entry TEXT NOT NULL DEFAULT '';
PRAGMA user_version = 2;
)sql",
    // 2 -> 3: sessions outlive a daemon in host processes, so a session may be
    // 'crashed' (its host died without saying how the program ended) and may be
    // 'reattached' by a later run. SQLite cannot alter a CHECK, so both tables are
    // rebuilt, every row kept with its rowid (events sort by rowid within a millisecond).
    //
    // The old tables are renamed aside first, not dropped first: with foreign keys on,
    // dropping a parent runs an implicit DELETE that the events would refuse, and
    // PRAGMA foreign_keys cannot be turned off inside this transaction. Renaming
    // `sessions` points the old events' key at `sessions_v2`; the new events table
    // refers to the new `sessions`, so neither DROP below has a child left to check.
    // The old indexes go with their tables and are made again on the new ones.
    R"sql(
ALTER TABLE session_events RENAME TO session_events_v2;
ALTER TABLE sessions RENAME TO sessions_v2;

CREATE TABLE sessions (
  run_id INTEGER NOT NULL REFERENCES runs (id),
  session_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  entry TEXT NOT NULL DEFAULT '', -- the catalog entry's name; '' when recorded before v2
  kind TEXT NOT NULL,
  program TEXT NOT NULL,          -- the executable only, never its arguments
  cwd TEXT NOT NULL,
  owner TEXT NOT NULL,
  env_names TEXT NOT NULL,        -- JSON array of variable NAMES, never values
  status TEXT NOT NULL
    CHECK (status IN ('running', 'ending', 'exited', 'ended', 'interrupted', 'crashed')),
  exit_code INTEGER,
  signal INTEGER,
  created_at INTEGER NOT NULL,
  ended_at INTEGER,
  bytes_out INTEGER NOT NULL DEFAULT 0,
  bytes_in INTEGER NOT NULL DEFAULT 0,
  scrollback_truncated INTEGER NOT NULL DEFAULT 0 CHECK (scrollback_truncated IN (0, 1)),
  PRIMARY KEY (run_id, session_id)
) STRICT;
INSERT INTO sessions (rowid, run_id, session_id, name, entry, kind, program, cwd, owner,
                      env_names, status, exit_code, signal, created_at, ended_at, bytes_out,
                      bytes_in, scrollback_truncated)
  SELECT rowid, run_id, session_id, name, entry, kind, program, cwd, owner, env_names, status,
         exit_code, signal, created_at, ended_at, bytes_out, bytes_in, scrollback_truncated
  FROM sessions_v2;

CREATE TABLE session_events (
  run_id INTEGER NOT NULL,
  session_id INTEGER NOT NULL,
  at INTEGER NOT NULL,
  event TEXT NOT NULL
    CHECK (event IN ('started', 'renamed', 'exited', 'ended', 'interrupted', 'crashed',
                     'reattached')),
  detail TEXT,                    -- "renamed": the new name; "reattached": the run id
                                  -- that took the session over; otherwise NULL
  FOREIGN KEY (run_id, session_id) REFERENCES sessions (run_id, session_id)
) STRICT;
INSERT INTO session_events (rowid, run_id, session_id, at, event, detail)
  SELECT rowid, run_id, session_id, at, event, detail FROM session_events_v2;

DROP TABLE session_events_v2;
DROP TABLE sessions_v2;

CREATE INDEX sessions_live ON sessions (status) WHERE status IN ('running', 'ending');
CREATE INDEX sessions_by_created ON sessions (created_at);
CREATE INDEX session_events_by_session ON session_events (run_id, session_id);
PRAGMA user_version = 3;
)sql",
    // 3 -> 4: sandboxed sessions. The effective capabilities a session ran with (JSON,
    // '' for sessions recorded before), and three audit tables (audit_tables.cpp), each
    // tied to its session by the same foreign key as the events. None holds a payload:
    // hosts and ports, commands a guard stopped (the command line is what a person
    // judges), which kind of client typed and when.
    R"sql(
ALTER TABLE sessions ADD COLUMN capabilities TEXT NOT NULL DEFAULT '';

CREATE TABLE egress_refusals (
  run_id INTEGER NOT NULL,
  session_id INTEGER NOT NULL,
  at INTEGER NOT NULL,
  host TEXT NOT NULL,
  port INTEGER NOT NULL CHECK (port BETWEEN 0 AND 65535),
  FOREIGN KEY (run_id, session_id) REFERENCES sessions (run_id, session_id)
) STRICT;
CREATE INDEX egress_refusals_by_session ON egress_refusals (run_id, session_id);

CREATE TABLE decisions (
  run_id INTEGER NOT NULL,
  session_id INTEGER NOT NULL,
  decision_run INTEGER NOT NULL REFERENCES runs (id),  -- the run that opened it: an
                                  -- adopted session keeps its first run's run_id
  decision_id INTEGER NOT NULL,   -- ids restart with each run, like session ids
  opened_at INTEGER NOT NULL,
  what TEXT NOT NULL,
  argv TEXT NOT NULL,             -- JSON array of strings
  cwd TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('guard', 'prompt')),
  outcome TEXT NOT NULL
    CHECK (outcome IN ('pending', 'approved', 'denied', 'expired', 'withdrawn')),
  answered_by TEXT NOT NULL DEFAULT '',
  answered_at INTEGER,
  note TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (decision_run, decision_id),
  FOREIGN KEY (run_id, session_id) REFERENCES sessions (run_id, session_id)
) STRICT;
CREATE INDEX decisions_by_session ON decisions (run_id, session_id);

CREATE TABLE input_attribution (
  run_id INTEGER NOT NULL,
  session_id INTEGER NOT NULL,
  at INTEGER NOT NULL,
  client_kind TEXT NOT NULL CHECK (client_kind IN ('window', 'cli', 'rest', 'mcp')),
  client_label TEXT NOT NULL DEFAULT '',
  FOREIGN KEY (run_id, session_id) REFERENCES sessions (run_id, session_id)
) STRICT;
CREATE INDEX input_attribution_by_session ON input_attribution (run_id, session_id);
PRAGMA user_version = 4;
)sql",
};
static_assert(kApplicationId == 2003329394, "the literal in kMigrations[0] must match");

// Prepares `sql`, lets `bind` fill its parameters, and runs it to completion.
template <class Bind>
core::Status run_sql(sqlite3* db, std::string_view sql, Bind&& bind) {
  auto stmt = Statement::prepare(db, sql);
  if (!stmt) return stmt.error();
  bind(stmt.value());
  return stmt.value().run();
}

core::Result<std::int64_t> read_int(sqlite3* db, std::string_view sql) {
  auto stmt = Statement::prepare(db, sql);
  if (!stmt) return stmt.error();
  auto row = stmt.value().step();
  if (!row) return row.error();
  if (!row.value()) return core::Error{"metadata query returned nothing"};
  return stmt.value().column_int64(0);
}

// Ids are small counters; SQLite integers are signed 64-bit, so refuse (rather than
// wrap) the impossible rest.
std::optional<std::int64_t> to_db_id(std::uint64_t id) {
  if (id > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(id);
}

// Byte counts saturate: 8 EiB through one terminal is not a case worth an error.
std::int64_t to_db_count(std::uint64_t count) {
  return to_db_id(count).value_or(std::numeric_limits<std::int64_t>::max());
}

std::uint64_t from_db_count(std::int64_t value) {
  return value < 0 ? 0 : static_cast<std::uint64_t>(value);
}

// Identifiers need no JSON escaping, so the array is written by hand; it stays valid
// JSON so the file can be queried with SQLite's json_each().
std::string encode_names(const std::vector<std::string>& names) {
  std::string out = "[";
  for (const std::string& name : names) {
    if (out.size() > 1) out += ',';
    out += '"';
    out += name;
    out += '"';
  }
  out += ']';
  return out;
}

// Reads back what encode_names() wrote: each quoted identifier is a name.
std::vector<std::string> decode_names(std::string_view json) {
  std::vector<std::string> names;
  std::string current;
  bool quoted = false;
  for (char c : json) {
    if (c == '"') {
      if (quoted && is_env_name(current)) names.push_back(current);
      current.clear();
      quoted = !quoted;
    } else if (quoted) {
      current += c;
    }
  }
  return names;
}

// Refuses anything but a bare identifier, without ever repeating what follows an '=':
// that part is a value someone meant to keep out of the file (and out of logs).
core::Status check_env_names(const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    if (is_env_name(name)) continue;
    std::string which = "environment entry #" + std::to_string(i + 1);
    auto eq = name.find('=');
    if (eq != std::string::npos) {
      std::string_view before(name.data(), eq);
      if (is_env_name(before)) which = "environment entry \"" + std::string(before) + "=…\"";
      return core::Error{which +
                         " carries a value; only variable names are recorded, never values"};
    }
    return core::Error{which +
                       " is not a variable name (letters, digits and '_', not "
                       "starting with a digit)"};
  }
  return core::ok_status();
}

core::Error open_error(const std::filesystem::path& path, std::string_view why) {
  return core::Error{"cannot open the metadata database " + path.string() + ": " +
                     std::string(why)};
}

// Creates the file owner-only before SQLite sees it (SQLite would create it 0644 minus
// the umask). Returns whether the file's mode is not exactly 0600 (an existing file, or
// a umask that took bits away); it is fixed only once the file is known to be wharf's,
// so a file that is refused is left exactly as it was.
core::Result<bool> prepare_file(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    if (errno == ELOOP)
      return open_error(path, "it is a symbolic link, which wharf does not follow");
    return open_error(path, std::strerror(errno));
  }
  struct stat st {};
  int stat_rc = fstat(fd, &st);
  int stat_errno = errno;
  // Closed before SQLite opens the file: closing any descriptor of a file drops every
  // POSIX lock the process holds on it, SQLite's included.
  close(fd);
  if (stat_rc != 0) return open_error(path, std::strerror(stat_errno));
  if (!S_ISREG(st.st_mode)) return open_error(path, "it is not a regular file");
  return (st.st_mode & 0777) != 0600;
}

// Makes the database and any journal beside it owner-only. By path, not descriptor, for
// the reason above; SQLite already opened the file refusing symbolic links.
core::Status tighten_mode(const std::filesystem::path& path) {
  for (std::string_view suffix : {"", "-wal", "-shm", "-journal"}) {
    std::string file = path.string() + std::string(suffix);
    if (chmod(file.c_str(), 0600) != 0 && !(errno == ENOENT && !suffix.empty())) {
      return open_error(path, file + " cannot be made owner-only (0600): " + std::strerror(errno));
    }
  }
  return core::ok_status();
}

// Refuses a file wharf did not write, or one a newer wharf wrote, before changing it.
// Returns the file's schema version (0 for a file with nothing in it yet).
core::Result<int> check_identity(sqlite3* db, const std::filesystem::path& path) {
  auto application_id = read_int(db, "PRAGMA application_id");
  if (!application_id) {
    int code = sqlite3_errcode(db);
    if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT) {
      return open_error(path, "it is not a wharf database, or it is damaged (" +
                                  std::string(sqlite3_errmsg(db)) +
                                  "). Move it aside; wharf starts a new one in its place.");
    }
    return open_error(path, application_id.error().message);
  }
  auto version = read_int(db, "PRAGMA user_version");
  if (!version) return open_error(path, version.error().message);
  auto tables = read_int(db, "SELECT count(*) FROM sqlite_schema");
  if (!tables) return open_error(path, tables.error().message);

  bool fresh = application_id.value() == 0 && version.value() == 0 && tables.value() == 0;
  if (!fresh && application_id.value() != kApplicationId) {
    return open_error(path,
                      "it is an SQLite database that wharf did not create. Move it aside, or "
                      "point wharf at another state directory.");
  }
  if (version.value() < 0 || version.value() > kSchemaVersion) {
    return open_error(path, "it was written by a newer wharf (schema version " +
                                std::to_string(version.value()) + ", this wharf knows up to " +
                                std::to_string(kSchemaVersion) +
                                "). Run the newer wharf, or move the file aside.");
  }
  return static_cast<int>(version.value());
}

core::Status migrate(sqlite3* db, const std::filesystem::path& path) {
  auto transaction = Transaction::begin(db);
  if (!transaction) return open_error(path, transaction.error().message);
  // Read again under the write lock: another process may have migrated meanwhile.
  auto version = read_int(db, "PRAGMA user_version");
  if (!version) return open_error(path, version.error().message);
  for (auto v = version.value(); v < kSchemaVersion; ++v) {
    std::string script(kMigrations[static_cast<std::size_t>(v)]);
    if (sqlite3_exec(db, script.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
      return open_error(path, v == 0
                                  ? "cannot create its tables: " + std::string(sqlite3_errmsg(db))
                                  : "cannot bring its schema to version " + std::to_string(v + 1) +
                                        ": " + sqlite3_errmsg(db));
    }
  }
  auto committed = transaction.value().commit();
  if (!committed) return open_error(path, committed.error().message);
  return core::ok_status();
}

// Without SQLITE_OPEN_URI a name is a plain path, except that a build with
// SQLITE_USE_URI would read a relative "file:..." as a URI; "./" keeps it a path.
std::string sqlite_name(const std::filesystem::path& path) {
  std::string name = path.string();
  if (name.starts_with("file:")) name = "./" + name;
  return name;
}

// Both opens: one thread per connection (no per-call mutex), and never through a link.
constexpr int kOpenFlags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW;

void configure(sqlite3* db) {
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  // The file is only ever wharf's, but a damaged or planted schema must not be able to
  // run functions or corrupt the file through us.
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FKEY, 1, nullptr);
}

// The newest `?1` sessions. A version-1 file (read, never migrated, by
// open_read_only()) has no entry column; it reads as ''. Two whole constants, so no SQL
// is ever assembled.
std::string_view recent_sessions_sql(int schema_version) {
  if (schema_version < 2) {
    return "SELECT run_id, session_id, name, '', kind, program, cwd, owner, env_names, status, "
           "exit_code, signal, created_at, ended_at, bytes_out, bytes_in, scrollback_truncated "
           "FROM sessions ORDER BY created_at DESC, run_id DESC, session_id DESC LIMIT ?1";
  }
  return "SELECT run_id, session_id, name, entry, kind, program, cwd, owner, env_names, status, "
         "exit_code, signal, created_at, ended_at, bytes_out, bytes_in, scrollback_truncated "
         "FROM sessions ORDER BY created_at DESC, run_id DESC, session_id DESC LIMIT ?1";
}

// The session ?1 of run ?2, or (?3 = 0) of the newest run that has one; columns as in
// recent_sessions_sql().
std::string_view find_session_sql(int schema_version) {
  if (schema_version < 2) {
    return "SELECT run_id, session_id, name, '', kind, program, cwd, owner, env_names, status, "
           "exit_code, signal, created_at, ended_at, bytes_out, bytes_in, scrollback_truncated "
           "FROM sessions WHERE session_id = ?1 AND (?3 = 0 OR run_id = ?2) "
           "ORDER BY run_id DESC LIMIT 1";
  }
  return "SELECT run_id, session_id, name, entry, kind, program, cwd, owner, env_names, status, "
         "exit_code, signal, created_at, ended_at, bytes_out, bytes_in, scrollback_truncated "
         "FROM sessions WHERE session_id = ?1 AND (?3 = 0 OR run_id = ?2) "
         "ORDER BY run_id DESC LIMIT 1";
}

// One row of recent_sessions_sql() or find_session_sql().
SessionRow read_session_row(const Statement& s) {
  auto optional_int = [&](int column) -> std::optional<int> {
    auto value = s.column_optional_int64(column);
    if (!value) return std::nullopt;
    return static_cast<int>(*value);
  };
  return SessionRow{
      .run_id = s.column_int64(0),
      .session_id = from_db_count(s.column_int64(1)),
      .name = s.column_text(2),
      .entry = s.column_text(3),
      .kind = s.column_text(4),
      .program = s.column_text(5),
      .cwd = s.column_text(6),
      .owner = s.column_text(7),
      .status = s.column_text(9),
      .env_names = decode_names(s.column_text(8)),
      .exit_code = optional_int(10),
      .signal = optional_int(11),
      .created_at_ms = s.column_int64(12),
      .ended_at_ms = s.column_optional_int64(13),
      .bytes_out = from_db_count(s.column_int64(14)),
      .bytes_in = from_db_count(s.column_int64(15)),
      .scrollback_truncated = s.column_int64(16) != 0,
  };
}

}  // namespace

bool is_env_name(std::string_view name) {
  if (name.empty()) return false;
  auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!alpha(name.front())) return false;
  for (char c : name) {
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

core::Result<MetadataStore> MetadataStore::open(const std::filesystem::path& path) {
  if (path.empty()) return core::Error{"cannot open the metadata database: no path given"};
  auto mode_wrong = prepare_file(path);
  if (!mode_wrong) return mode_wrong.error();

  sqlite3* raw = nullptr;
  int rc =
      sqlite3_open_v2(sqlite_name(path).c_str(), &raw, SQLITE_OPEN_READWRITE | kOpenFlags, nullptr);
  MetadataStore store(raw, path);  // owns the handle from here, even a failed one
  if (rc != SQLITE_OK) {
    return open_error(path, raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc));
  }
  configure(raw);

  if (auto identity = check_identity(raw, path); !identity) return identity.error();
  if (mode_wrong.value()) {
    if (auto tightened = tighten_mode(path); !tightened) return tightened.error();
  }

  // WAL: a commit appends to the log instead of rewriting pages, and `wharf history`
  // can read while the daemon writes. synchronous=NORMAL skips the fsync per commit
  // (the event loop is never stalled on the disk); a power cut may lose the last few
  // records but never corrupts the file. A filesystem without WAL support keeps the
  // default journal, which is slower but equally correct, so that is not an error.
  for (std::string_view pragma : {"PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"}) {
    if (auto set = run_sql(raw, pragma, [](Statement&) {}); !set) {
      return open_error(path, set.error().message);
    }
  }
  if (auto migrated = migrate(raw, path); !migrated) return migrated.error();
  return store;
}

core::Result<MetadataStore> MetadataStore::open_read_only(const std::filesystem::path& path) {
  if (path.empty()) return core::Error{"cannot open the metadata database: no path given"};
  // Checked here, not left to SQLite: its "unable to open database file" would not say
  // that the usual cause is a daemon that never ran with this state directory.
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      return core::Error{"no history yet: " + path.string() + " does not exist"};
    }
    return open_error(path, std::strerror(errno));
  }
  if (S_ISLNK(st.st_mode)) {
    return open_error(path, "it is a symbolic link, which wharf does not follow");
  }
  if (!S_ISREG(st.st_mode)) return open_error(path, "it is not a regular file");

  sqlite3* raw = nullptr;
  int rc =
      sqlite3_open_v2(sqlite_name(path).c_str(), &raw, SQLITE_OPEN_READONLY | kOpenFlags, nullptr);
  MetadataStore store(raw, path);  // owns the handle from here, even a failed one
  if (rc != SQLITE_OK) {
    return open_error(path, raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc));
  }
  configure(raw);
  auto version = check_identity(raw, path);
  if (!version) return version.error();
  store.schema_version_ = version.value();
  return store;
}

MetadataStore::MetadataStore(MetadataStore&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      path_(std::move(other.path_)),
      schema_version_(other.schema_version_) {}

MetadataStore& MetadataStore::operator=(MetadataStore&& other) noexcept {
  if (this != &other) {
    assert(db_ == nullptr || sqlite3_next_stmt(db_, nullptr) == nullptr);
    sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
    schema_version_ = other.schema_version_;
  }
  return *this;
}

MetadataStore::~MetadataStore() {
  // Every Statement is finalized by the member function that prepared it. A leftover one
  // is a bug: close_v2 would keep the connection alive for it (a leak the ASan build
  // reports), and debug builds stop here.
  assert(db_ == nullptr || sqlite3_next_stmt(db_, nullptr) == nullptr);
  sqlite3_close_v2(db_);
}

core::Error MetadataStore::error(std::string_view what) const {
  return core::Error{std::string(what) + " in " + path_.string()};
}

core::Result<RunStart> MetadataStore::begin_run(
    std::int64_t now_ms, int daemon_pid,
    const std::vector<std::pair<std::int64_t, std::uint64_t>>& alive) {
  auto fail = [&](const core::Error& e) {
    return core::Error{error("cannot record the daemon's start").message + ": " + e.message};
  };
  auto transaction = Transaction::begin(db_);
  if (!transaction) return fail(transaction.error());

  // A session whose host the new daemon found alive goes on running; any other that an
  // earlier run left live ended with that run, and nobody recorded how.
  std::vector<std::pair<std::int64_t, std::int64_t>> left;
  std::size_t kept = 0;
  {
    auto stmt = Statement::prepare(
        db_, "SELECT run_id, session_id FROM sessions WHERE status IN ('running', 'ending')");
    if (!stmt) return fail(stmt.error());
    for (;;) {
      auto more = stmt.value().step();
      if (!more) return fail(more.error());
      if (!more.value()) break;
      std::int64_t run_id = stmt.value().column_int64(0);
      std::int64_t session_id = stmt.value().column_int64(1);
      bool found = std::find(alive.begin(), alive.end(),
                             std::pair{run_id, from_db_count(session_id)}) != alive.end();
      if (found) {
        ++kept;
      } else {
        left.emplace_back(run_id, session_id);
      }
    }
  }
  for (const auto& entry : left) {
    // Plain names rather than a structured binding: clang 14 (the sanitizer build) cannot
    // capture a binding in a lambda.
    const auto run_id = entry.first;
    const auto session_id = entry.second;
    auto event =
        run_sql(db_,
                "INSERT INTO session_events (run_id, session_id, at, event) "
                "VALUES (?1, ?2, ?3, 'interrupted')",
                [&](Statement& s) { s.bind(1, run_id).bind(2, session_id).bind(3, now_ms); });
    if (!event) return fail(event.error());
    // Every live row was last held by the newest run: each begin_run() settles all the
    // others, and the new run takes over what it keeps alive. So that run's recorded stop
    // (none if it died) is the latest the session is known to have lived, also for one
    // it had re-attached from an earlier run.
    auto marked = run_sql(db_,
                          "UPDATE sessions SET status = 'interrupted', "
                          "ended_at = (SELECT stopped_at FROM runs ORDER BY id DESC LIMIT 1) "
                          "WHERE run_id = ?1 AND session_id = ?2",
                          [&](Statement& s) { s.bind(1, run_id).bind(2, session_id); });
    if (!marked) return fail(marked.error());
  }

  auto run = run_sql(db_, "INSERT INTO runs (started_at, pid) VALUES (?1, ?2)",
                     [&](Statement& s) { s.bind(1, now_ms).bind(2, std::int64_t{daemon_pid}); });
  if (!run) return fail(run.error());
  std::int64_t run_id = sqlite3_last_insert_rowid(db_);

  if (auto committed = transaction.value().commit(); !committed) return fail(committed.error());
  return RunStart{.run_id = run_id, .interrupted = left.size(), .kept_running = kept};
}

core::Status MetadataStore::end_run(std::int64_t run_id, std::int64_t now_ms) {
  auto fail = [&](const std::string& why) {
    return core::Error{error("cannot record the stop of run " + std::to_string(run_id)).message +
                       ": " + why};
  };
  auto updated =
      run_sql(db_, "UPDATE runs SET stopped_at = ?1 WHERE id = ?2 AND stopped_at IS NULL",
              [&](Statement& s) { s.bind(1, now_ms).bind(2, run_id); });
  if (!updated) return fail(updated.error().message);
  if (sqlite3_changes64(db_) == 0) return fail("no such run, or it already stopped");
  return core::ok_status();
}

core::Status MetadataStore::session_started(std::int64_t run_id, const SessionRecord& record) {
  auto fail = [&](const std::string& why) {
    return core::Error{
        error("cannot record the start of session " + std::to_string(record.session_id)).message +
        ": " + why};
  };
  if (auto names = check_env_names(record.env_names); !names) return fail(names.error().message);
  auto session_id = to_db_id(record.session_id);
  if (!session_id) return fail("the session id is out of range");

  auto transaction = Transaction::begin(db_);
  if (!transaction) return fail(transaction.error().message);
  auto inserted = run_sql(
      db_,
      "INSERT INTO sessions (run_id, session_id, name, kind, program, cwd, owner, env_names, "
      "status, created_at, entry, capabilities) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'running', ?9, ?10, ?11)",
      [&](Statement& s) {
        s.bind(1, run_id)
            .bind(2, *session_id)
            .bind(3, std::string_view(record.name))
            .bind(4, std::string_view(record.kind))
            .bind(5, std::string_view(record.program))
            .bind(6, std::string_view(record.cwd))
            .bind(7, std::string_view(record.owner))
            .bind(8, std::string_view(encode_names(record.env_names)))
            .bind(9, record.created_at_ms)
            .bind(10, std::string_view(record.entry))
            .bind(11, std::string_view(record.capabilities_json));
      });
  if (!inserted) {
    // The two constraint failures a caller can cause get words instead of SQL terms.
    switch (sqlite3_extended_errcode(db_)) {
      case SQLITE_CONSTRAINT_FOREIGNKEY:
        return fail("run " + std::to_string(run_id) + " was never begun");
      case SQLITE_CONSTRAINT_PRIMARYKEY:
        return fail("run " + std::to_string(run_id) + " already has a session with this id");
      default:
        return fail(inserted.error().message);
    }
  }
  auto event = run_sql(
      db_,
      "INSERT INTO session_events (run_id, session_id, at, event) "
      "VALUES (?1, ?2, ?3, 'started')",
      [&](Statement& s) { s.bind(1, run_id).bind(2, *session_id).bind(3, record.created_at_ms); });
  if (!event) return fail(event.error().message);
  if (auto committed = transaction.value().commit(); !committed) {
    return fail(committed.error().message);
  }
  return core::ok_status();
}

core::Status MetadataStore::session_renamed(std::int64_t run_id, std::uint64_t session_id,
                                            std::string_view name, std::int64_t now_ms) {
  auto fail = [&](const std::string& why) {
    return core::Error{
        error("cannot record the renaming of session " + std::to_string(session_id)).message +
        ": " + why};
  };
  auto id = to_db_id(session_id);
  if (!id) return fail("the session id is out of range");

  auto transaction = Transaction::begin(db_);
  if (!transaction) return fail(transaction.error().message);
  auto updated = run_sql(db_, "UPDATE sessions SET name = ?1 WHERE run_id = ?2 AND session_id = ?3",
                         [&](Statement& s) { s.bind(1, name).bind(2, run_id).bind(3, *id); });
  if (!updated) return fail(updated.error().message);
  if (sqlite3_changes64(db_) == 0) {
    return fail("run " + std::to_string(run_id) + " has no such session");
  }
  auto event =
      run_sql(db_,
              "INSERT INTO session_events (run_id, session_id, at, event, detail) "
              "VALUES (?1, ?2, ?3, 'renamed', ?4)",
              [&](Statement& s) { s.bind(1, run_id).bind(2, *id).bind(3, now_ms).bind(4, name); });
  if (!event) return fail(event.error().message);
  if (auto committed = transaction.value().commit(); !committed) {
    return fail(committed.error().message);
  }
  return core::ok_status();
}

core::Status MetadataStore::session_finished(std::int64_t run_id, std::uint64_t session_id,
                                             const SessionOutcome& outcome) {
  auto fail = [&](const std::string& why) {
    return core::Error{
        error("cannot record the end of session " + std::to_string(session_id)).message + ": " +
        why};
  };
  if (outcome.status != "exited" && outcome.status != "ended" && outcome.status != "crashed") {
    return fail("status must be \"exited\", \"ended\" or \"crashed\"");
  }
  auto id = to_db_id(session_id);
  if (!id) return fail("the session id is out of range");

  auto transaction = Transaction::begin(db_);
  if (!transaction) return fail(transaction.error().message);
  // Only a live session can finish: the first outcome recorded is the one that stands.
  auto updated =
      run_sql(db_,
              "UPDATE sessions SET status = ?1, exit_code = ?2, signal = ?3, ended_at = ?4, "
              "bytes_out = ?5, bytes_in = ?6, scrollback_truncated = ?7 "
              "WHERE run_id = ?8 AND session_id = ?9 AND status IN ('running', 'ending')",
              [&](Statement& s) {
                s.bind(1, std::string_view(outcome.status))
                    .bind(2, outcome.exit_code)
                    .bind(3, outcome.signal)
                    .bind(4, outcome.ended_at_ms)
                    .bind(5, to_db_count(outcome.bytes_out))
                    .bind(6, to_db_count(outcome.bytes_in))
                    .bind(7, std::int64_t{outcome.scrollback_truncated ? 1 : 0})
                    .bind(8, run_id)
                    .bind(9, *id);
              });
  if (!updated) return fail(updated.error().message);
  if (sqlite3_changes64(db_) == 0) {
    auto status = Statement::prepare(
        db_, "SELECT status FROM sessions WHERE run_id = ?1 AND session_id = ?2");
    if (!status) return fail(status.error().message);
    status.value().bind(1, run_id).bind(2, *id);
    auto row = status.value().step();
    if (!row) return fail(row.error().message);
    if (!row.value()) return fail("run " + std::to_string(run_id) + " has no such session");
    return fail("it already finished (" + status.value().column_text(0) + ")");
  }
  auto event = run_sql(db_,
                       "INSERT INTO session_events (run_id, session_id, at, event) "
                       "VALUES (?1, ?2, ?3, ?4)",
                       [&](Statement& s) {
                         s.bind(1, run_id)
                             .bind(2, *id)
                             .bind(3, outcome.ended_at_ms)
                             .bind(4, std::string_view(outcome.status));
                       });
  if (!event) return fail(event.error().message);
  if (auto committed = transaction.value().commit(); !committed) {
    return fail(committed.error().message);
  }
  return core::ok_status();
}

core::Status MetadataStore::session_event(std::int64_t run_id, std::uint64_t session_id,
                                          std::string_view event, std::string_view detail,
                                          std::int64_t now_ms) {
  auto fail = [&](const std::string& why) {
    return core::Error{error("cannot record the event \"" + std::string(event) + "\" of session " +
                             std::to_string(session_id))
                           .message +
                       ": " + why};
  };
  // The other events belong to the calls that change the session's row with them
  // (session_started, session_renamed, session_finished, begin_run).
  if (event != "reattached") return fail("only \"reattached\" is recorded this way");
  auto id = to_db_id(session_id);
  if (!id) return fail("the session id is out of range");

  auto transaction = Transaction::begin(db_);
  if (!transaction) return fail(transaction.error().message);
  // Only a live session can be taken over; a finished one has no host left to find.
  // (Scoped: the query is finished before the write and the commit.)
  {
    auto status = Statement::prepare(
        db_, "SELECT status FROM sessions WHERE run_id = ?1 AND session_id = ?2");
    if (!status) return fail(status.error().message);
    status.value().bind(1, run_id).bind(2, *id);
    auto row = status.value().step();
    if (!row) return fail(row.error().message);
    if (!row.value()) return fail("run " + std::to_string(run_id) + " has no such session");
    std::string current = status.value().column_text(0);
    if (current != "running" && current != "ending") {
      return fail("it already finished (" + current + ")");
    }
  }
  auto inserted =
      run_sql(db_,
              "INSERT INTO session_events (run_id, session_id, at, event, detail) "
              "VALUES (?1, ?2, ?3, ?4, ?5)",
              [&](Statement& s) {
                s.bind(1, run_id).bind(2, *id).bind(3, now_ms).bind(4, event).bind(5, detail);
              });
  if (!inserted) return fail(inserted.error().message);
  if (auto committed = transaction.value().commit(); !committed) {
    return fail(committed.error().message);
  }
  return core::ok_status();
}

core::Result<std::vector<SessionRow>> MetadataStore::recent_sessions(std::size_t limit) const {
  auto fail = [&](const core::Error& e) {
    return core::Error{error("cannot read session history").message + ": " + e.message};
  };
  std::vector<SessionRow> rows;
  if (schema_version_ == 0) return rows;  // an empty file: no tables, so no sessions
  auto stmt = Statement::prepare(db_, recent_sessions_sql(schema_version_));
  if (!stmt) return fail(stmt.error());
  Statement& s = stmt.value();
  s.bind(1, to_db_count(limit));
  for (;;) {
    auto more = s.step();
    if (!more) return fail(more.error());
    if (!more.value()) break;
    rows.push_back(read_session_row(s));
  }
  return rows;
}

core::Result<std::optional<SessionRow>> MetadataStore::find_session(
    std::uint64_t session_id, std::optional<std::int64_t> run_id) const {
  auto fail = [&](const core::Error& e) {
    return core::Error{error("cannot look up session " + std::to_string(session_id)).message +
                       ": " + e.message};
  };
  std::optional<SessionRow> found;
  auto id = to_db_id(session_id);
  if (!id || schema_version_ == 0) return found;  // never recorded / an empty file
  auto stmt = Statement::prepare(db_, find_session_sql(schema_version_));
  if (!stmt) return fail(stmt.error());
  Statement& s = stmt.value();
  s.bind(1, *id).bind(2, run_id.value_or(0)).bind(3, std::int64_t{run_id ? 1 : 0});
  auto row = s.step();
  if (!row) return fail(row.error());
  if (row.value()) found = read_session_row(s);
  return found;
}

core::Result<std::vector<SessionEvent>> MetadataStore::session_events(
    std::int64_t run_id, std::uint64_t session_id) const {
  auto fail = [&](const core::Error& e) {
    return core::Error{
        error("cannot read the events of session " + std::to_string(session_id)).message + ": " +
        e.message};
  };
  auto id = to_db_id(session_id);
  if (!id) return std::vector<SessionEvent>{};  // no such id can have been recorded
  if (schema_version_ == 0) return std::vector<SessionEvent>{};  // an empty file
  auto stmt = Statement::prepare(db_,
                                 "SELECT at, event, detail FROM session_events "
                                 "WHERE run_id = ?1 AND session_id = ?2 ORDER BY at, rowid");
  if (!stmt) return fail(stmt.error());
  Statement& s = stmt.value();
  s.bind(1, run_id).bind(2, *id);
  std::vector<SessionEvent> events;
  for (;;) {
    auto more = s.step();
    if (!more) return fail(more.error());
    if (!more.value()) break;
    events.push_back(SessionEvent{
        .at_ms = s.column_int64(0), .event = s.column_text(1), .detail = s.column_text(2)});
  }
  return events;
}

core::Result<std::vector<SessionHistory>> MetadataStore::sessions_with_events(
    std::size_t limit) const {
  auto fail = [&](const core::Error& e) {
    return core::Error{error("cannot read session history").message + ": " + e.message};
  };
  std::vector<SessionHistory> history;
  if (schema_version_ == 0) return history;
  // Without it, a session that finished between the two queries could show its new
  // status and miss the event that says so (or the other way round).
  auto snapshot = ReadTransaction::begin(db_);
  if (!snapshot) return fail(snapshot.error());
  auto sessions = recent_sessions(limit);
  if (!sessions) return sessions.error();
  history.reserve(sessions.value().size());
  for (SessionRow& row : sessions.value()) {
    history.push_back(SessionHistory{.session = std::move(row), .events = {}});
  }
  if (history.empty()) return history;

  // The events of exactly those sessions (the same ORDER BY and LIMIT), each session's
  // in the order they happened.
  auto stmt = Statement::prepare(
      db_,
      "SELECT e.run_id, e.session_id, e.at, e.event, e.detail FROM session_events AS e "
      "JOIN (SELECT run_id, session_id FROM sessions "
      "      ORDER BY created_at DESC, run_id DESC, session_id DESC LIMIT ?1) AS s "
      "  ON e.run_id = s.run_id AND e.session_id = s.session_id "
      "ORDER BY e.run_id, e.session_id, e.at, e.rowid");
  if (!stmt) return fail(stmt.error());
  Statement& s = stmt.value();
  s.bind(1, to_db_count(limit));
  std::map<std::pair<std::int64_t, std::uint64_t>, std::size_t> index;
  for (std::size_t i = 0; i < history.size(); ++i) {
    index.emplace(std::pair{history[i].session.run_id, history[i].session.session_id}, i);
  }
  for (;;) {
    auto more = s.step();
    if (!more) return fail(more.error());
    if (!more.value()) break;
    auto it = index.find({s.column_int64(0), from_db_count(s.column_int64(1))});
    if (it == index.end()) continue;  // cannot happen within one snapshot
    history[it->second].events.push_back(SessionEvent{
        .at_ms = s.column_int64(2), .event = s.column_text(3), .detail = s.column_text(4)});
  }
  return history;
}

}  // namespace wharf::store
