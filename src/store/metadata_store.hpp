// The metadata and lifecycle audit store (PRODUCT.md C10): one SQLite file recording
// each daemon run, each session it started (who asked, what kind, which program, in
// which directory, which environment NAMES it was given), renames, and how the session
// ended (exit code or signal, byte counts, whether scrollback was truncated).
//
// What it never holds: a session's input or output, a program's arguments, or any
// environment VALUE. The API has no parameter that could carry them; environment
// entries are checked to be bare identifiers, so a "NAME=value" handed over by mistake
// is refused (without echoing the value) instead of written to disk.
//
// Two ways in: open() is the daemon's (creates, migrates, writes); open_read_only() is
// `wharf history`'s, which reads the same file while a daemon writes it (WAL lets one
// writer and many readers share it) or while none runs. It never creates the database,
// migrates, checkpoints or writes it; SQLite may leave an empty -wal and a -shm beside a
// WAL-mode file it read, with the file's own mode (0600).
//
// Invariants:
// - The file is owner-only (0600) from the moment wharf creates it, and an existing file
//   is tightened to 0600 on open; SQLite gives its -wal/-shm files the same mode.
// - Every write is one transaction: a session's row and its lifecycle event are saved
//   together or not at all.
// - A session is "running" until session_finished(); one that a run leaves "running"
//   (or "ending") is marked "interrupted" by the next begin_run(), because nothing is
//   alive across a daemon restart.
// - A file that is not a wharf database (not SQLite, another program's SQLite file, or a
//   newer wharf's schema) is refused with a message, never modified.
//
// Threading: the daemon uses the store from its one event-loop thread, so the connection
// is opened SQLITE_OPEN_NOMUTEX (no per-call mutex). The store may be moved to another
// thread, but never used from two threads at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"

struct sqlite3;

namespace wharf::store {

// Bumped with each schema change; open() migrates older files step by step.
// Version 2 added sessions.entry (the catalog entry's name).
inline constexpr int kSchemaVersion = 2;

// What is recorded when a session starts.
struct SessionRecord {
  std::uint64_t session_id = 0;  // daemon-run-scoped id, never reused within a run
  std::string name;
  // The catalog entry's name ("bash", "claude", "tests"); empty when unknown (sessions
  // recorded before schema version 2).
  std::string entry = {};
  std::string kind;     // "shell", "agent" or "action"
  std::string program;  // the executable only, e.g. "/bin/bash"; never its arguments
  std::string cwd;
  std::string owner;                   // who started it: "key", "local" or "session:<id>"
  std::vector<std::string> env_names;  // NAMES only (identifiers), never values
  std::int64_t created_at_ms = 0;
};

// How a session ended. status: "exited" (its program ended on its own) or "ended"
// (someone, or the daemon stopping, ended it).
struct SessionOutcome {
  std::string status;
  std::optional<int> exit_code = std::nullopt;
  std::optional<int> signal = std::nullopt;
  std::int64_t ended_at_ms = 0;
  std::uint64_t bytes_out = 0;  // bytes the program wrote to its terminal
  std::uint64_t bytes_in = 0;   // bytes written to the program's terminal
  bool scrollback_truncated = false;
};

// One session as `wharf history` shows it. status: "running", "ending", "exited",
// "ended" or "interrupted".
struct SessionRow {
  std::int64_t run_id = 0;
  std::uint64_t session_id = 0;
  std::string name, entry, kind, program, cwd, owner, status;
  std::vector<std::string> env_names;
  std::optional<int> exit_code, signal;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> ended_at_ms;  // none while running, or when interrupted
                                            // in a run that never recorded its stop
  std::uint64_t bytes_out = 0, bytes_in = 0;
  bool scrollback_truncated = false;
};

// One lifecycle event: "started", "renamed" (detail: the new name), "exited", "ended",
// "interrupted".
struct SessionEvent {
  std::int64_t at_ms = 0;
  std::string event;
  std::string detail;
};

// A session and its lifecycle events, in the order they happened.
struct SessionHistory {
  SessionRow session;
  std::vector<SessionEvent> events;
};

struct RunStart {
  std::int64_t run_id = 0;
  std::size_t interrupted = 0;  // sessions earlier runs left live, now "interrupted"
};

class MetadataStore {
 public:
  // Opens or creates the database at `path` (its directory must exist), sets WAL and a
  // busy timeout, and creates or migrates the schema.
  static core::Result<MetadataStore> open(const std::filesystem::path& path);
  // Opens an existing database for reading only. Refuses a missing file ("no history
  // yet: <path> does not exist"), a file that is not wharf's, and a newer schema; reads an
  // older schema as it is (the fields it lacks read as empty) rather than migrating it.
  // Every write on the result fails.
  static core::Result<MetadataStore> open_read_only(const std::filesystem::path& path);

  MetadataStore(MetadataStore&& other) noexcept;
  MetadataStore& operator=(MetadataStore&& other) noexcept;
  MetadataStore(const MetadataStore&) = delete;
  MetadataStore& operator=(const MetadataStore&) = delete;
  ~MetadataStore();

  const std::filesystem::path& path() const { return path_; }

  // Starts a daemon run: marks every session earlier runs left "running" or "ending" as
  // "interrupted" (with an "interrupted" event at now_ms), then records the run.
  core::Result<RunStart> begin_run(std::int64_t now_ms, int daemon_pid);
  // Records the run's clean stop. Sessions still "running" stay so until the next
  // begin_run() marks them interrupted: the store does not guess how they ended.
  core::Status end_run(std::int64_t run_id, std::int64_t now_ms);

  core::Status session_started(std::int64_t run_id, const SessionRecord& record);
  core::Status session_renamed(std::int64_t run_id, std::uint64_t session_id, std::string_view name,
                               std::int64_t now_ms);
  // Refused for a session that is unknown or already finished.
  core::Status session_finished(std::int64_t run_id, std::uint64_t session_id,
                                const SessionOutcome& outcome);

  // Newest first (by creation time), at most `limit` rows.
  core::Result<std::vector<SessionRow>> recent_sessions(std::size_t limit) const;
  // In the order they happened.
  core::Result<std::vector<SessionEvent>> session_events(std::int64_t run_id,
                                                         std::uint64_t session_id) const;
  // recent_sessions(limit), each with its events: two queries in one read transaction,
  // so the sessions and their events come from the same moment of a file being written.
  core::Result<std::vector<SessionHistory>> sessions_with_events(std::size_t limit) const;

 private:
  MetadataStore(sqlite3* db, std::filesystem::path path) : db_(db), path_(std::move(path)) {}
  core::Error error(std::string_view what) const;

  sqlite3* db_ = nullptr;  // owned; null once moved from
  std::filesystem::path path_;
  // The file's schema when opened: kSchemaVersion after open(); whatever the file had
  // for open_read_only() (0: an empty file, no tables yet), which picks the queries.
  int schema_version_ = kSchemaVersion;
};

// Whether `name` may be recorded as an environment variable name: an identifier
// ([A-Za-z_][A-Za-z0-9_]*), so it can never carry "=value".
bool is_env_name(std::string_view name);

}  // namespace wharf::store
