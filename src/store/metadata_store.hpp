// The metadata and lifecycle audit store (docs/architecture.md): one SQLite file recording
// each daemon run, each session it started (who asked, what kind, which program, in
// which directory, which environment NAMES it was given), renames, a later daemon taking
// the session over, and how the session ended (exit code or signal, byte counts, whether
// scrollback was truncated).
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
// - A session is "running" until session_finished(). Its program lives in a host
//   process that can outlive the daemon: a session whose host the next daemon finds and
//   re-attaches (begin_run()'s `alive`) stays "running" under its first (run, id), and
//   gets a "reattached" event; every other one a run leaves "running" (or "ending") is
//   marked "interrupted" by the next begin_run(). So each live row was last held by the
//   newest run.
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
// Version 2 added sessions.entry (the catalog entry's name); version 3 the status
// "crashed" and the events "crashed" and "reattached"; version 4 sessions.capabilities
// and the audit tables of sandboxed sessions (audit_tables.cpp): egress refusals,
// decisions, input attribution.
inline constexpr int kSchemaVersion = 4;

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
  // The session's effective capabilities as JSON text (docs/sandbox.md); "" when unknown.
  std::string capabilities_json = {};
};

// A decision (core/decision_book.hpp) as the audit keeps it. outcome: "pending",
// "approved", "denied", "expired" or "withdrawn"; answered_by: "device:NAME", "key",
// "cli", "mcp:NAME", "rest", or "" when nobody answered.
struct DecisionRecord {
  std::uint64_t session_id = 0;
  std::uint64_t decision_id = 0;  // the deciding run's decision id
  // The run that started the session (an adopted session keeps its first run's); 0: the
  // deciding run's own session.
  std::int64_t session_run_id = 0;
  std::int64_t opened_at_ms = 0;
  std::string what;
  std::vector<std::string> argv;  // the exact command a guard stopped
  std::string cwd;
  std::string source = "guard";  // "guard" or "prompt"
  std::string outcome = "pending";
  std::string answered_by = {};
  std::optional<std::int64_t> answered_at_ms = std::nullopt;
  std::string note = {};
};

// A connection the egress proxy refused: where it wanted to go, never what it carried.
struct EgressRefusal {
  std::int64_t at_ms = 0;
  std::string host;
  int port = 0;
};

// Input arrived from a client: kind "window", "cli", "rest" or "mcp"; label the paired
// device's or the MCP client's name ("" when none). Never the bytes.
struct InputAttributionRow {
  std::int64_t at_ms = 0;
  std::string client_kind;
  std::string client_label;
};

// What the audit tables hold about one session (`wharf history --json`).
struct SessionAudit {
  std::string capabilities_json;  // "" when unknown
  std::vector<DecisionRecord> decisions;
  std::size_t egress_refusals = 0;
  std::vector<InputAttributionRow> inputs;
};

// How a session ended. status: "exited" (its program ended on its own), "ended"
// (someone, or the daemon stopping, ended it) or "crashed" (its host process died
// without saying how the program ended; exit_code and signal may both be empty).
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
// "ended", "crashed" or "interrupted".
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

// One lifecycle event: "started", "renamed" (detail: the new name), "reattached"
// (detail: the id, as text, of the daemon run that took the session over), "exited",
// "ended", "crashed", "interrupted".
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
  std::size_t interrupted = 0;   // sessions earlier runs left live, now "interrupted"
  std::size_t kept_running = 0;  // live sessions named in `alive`, left "running"
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

  // Starts a daemon run. `alive` holds the (run_id, session_id) of sessions whose host
  // processes the new daemon found and takes over: they stay as they are. Every other
  // session earlier runs left "running" or "ending" becomes "interrupted" (with an
  // "interrupted" event at now_ms; its end is the previous run's recorded stop, if any).
  // Pairs in `alive` that name no live session are ignored (see kept_running).
  core::Result<RunStart> begin_run(
      std::int64_t now_ms, int daemon_pid,
      const std::vector<std::pair<std::int64_t, std::uint64_t>>& alive = {});
  // Records the run's clean stop. Sessions still "running" stay so: the next daemon
  // either re-attaches them or marks them interrupted; the store does not guess.
  core::Status end_run(std::int64_t run_id, std::int64_t now_ms);

  core::Status session_started(std::int64_t run_id, const SessionRecord& record);
  core::Status session_renamed(std::int64_t run_id, std::uint64_t session_id, std::string_view name,
                               std::int64_t now_ms);
  // Refused for a session that is unknown or already finished. A "crashed" outcome
  // records a "crashed" event.
  core::Status session_finished(std::int64_t run_id, std::uint64_t session_id,
                                const SessionOutcome& outcome);
  // Records an event that changes nothing else about the session. Only "reattached" is
  // taken (detail: the new run's id as text), and only for a session still live; the
  // session keeps its (run_id, session_id) from the run that started it.
  core::Status session_event(std::int64_t run_id, std::uint64_t session_id, std::string_view event,
                             std::string_view detail, std::int64_t now_ms);

  // Newest first (by creation time), at most `limit` rows.
  core::Result<std::vector<SessionRow>> recent_sessions(std::size_t limit) const;
  // The session `session_id` of run `run_id`, or when no run is given, of the newest run
  // that had a session with that id (ids restart with each run). None when there is none.
  core::Result<std::optional<SessionRow>> find_session(
      std::uint64_t session_id, std::optional<std::int64_t> run_id = std::nullopt) const;
  // In the order they happened.
  core::Result<std::vector<SessionEvent>> session_events(std::int64_t run_id,
                                                         std::uint64_t session_id) const;
  // recent_sessions(limit), each with its events: two queries in one read transaction,
  // so the sessions and their events come from the same moment of a file being written.
  core::Result<std::vector<SessionHistory>> sessions_with_events(std::size_t limit) const;

  // The audit of sandboxed sessions (audit_tables.cpp). Each write needs the session
  // recorded by session_started() first. An older file read by open_read_only() has none
  // of these tables: its readers answer empty.
  core::Status egress_refused(std::int64_t run_id, std::uint64_t session_id, std::string_view host,
                              int port, std::int64_t at_ms);
  // Newest first, at most `limit`.
  core::Result<std::vector<EgressRefusal>> egress_refusals(std::int64_t run_id,
                                                           std::uint64_t session_id,
                                                           std::size_t limit) const;
  // Records a decision the daemon run `run_id` opened (its outcome "pending").
  core::Status decision_opened(std::int64_t run_id, const DecisionRecord& record);
  // Records the one answer of a pending decision run `run_id` opened; refused when it is
  // unknown or closed.
  core::Status decision_answered(std::int64_t run_id, std::uint64_t decision_id,
                                 std::string_view outcome, std::string_view answered_by,
                                 std::int64_t answered_at_ms, std::string_view note);
  // The decisions of session (run_id, session_id), in the order they opened, at most
  // `limit` (the newest).
  core::Result<std::vector<DecisionRecord>> decisions(std::int64_t run_id, std::uint64_t session_id,
                                                      std::size_t limit) const;
  core::Status input_received(std::int64_t run_id, std::uint64_t session_id,
                              std::string_view client_kind, std::string_view client_label,
                              std::int64_t at_ms);
  // Newest first, at most `limit`.
  core::Result<std::vector<InputAttributionRow>> input_attributions(std::int64_t run_id,
                                                                    std::uint64_t session_id,
                                                                    std::size_t limit) const;
  // The capabilities, the decisions (at most 100), the count of egress refusals and the
  // input attribution (at most 100) of one session, read in one snapshot.
  core::Result<SessionAudit> session_audit(std::int64_t run_id, std::uint64_t session_id) const;

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
