// The metadata store against real SQLite files in a temporary directory: file modes,
// the run lifecycle across a daemon that dies without stopping, what is refused, what
// the bytes on disk do (and do not) contain, the migrations of version-1 and version-2
// files, the read-only open `wharf history` uses beside a running daemon, and what a
// daemon that re-attaches sessions from surviving host processes records.
#include "store/metadata_store.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>

namespace wharf::store {
namespace {

namespace fs = std::filesystem;

class MetadataStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "wharf-store-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    db_path_ = dir_ / "wharf.db";
  }
  void TearDown() override { fs::remove_all(dir_); }

  MetadataStore open_store() {
    auto store = MetadataStore::open(db_path_);
    if (!store) ADD_FAILURE() << store.error().message;
    return std::move(store.value());  // aborts on failure, after the message above
  }

  fs::path dir_;
  fs::path db_path_;
};

SessionRecord shell(std::uint64_t id, std::string name, std::int64_t at) {
  return SessionRecord{.session_id = id,
                       .name = std::move(name),
                       .entry = "bash",
                       .kind = "shell",
                       .program = "/bin/bash",
                       .cwd = "/home/user/project",
                       .owner = "browser",
                       .env_names = {"HOME", "PATH"},
                       .created_at_ms = at};
}

SessionOutcome exited(int code, std::int64_t at) {
  return SessionOutcome{.status = "exited",
                        .exit_code = code,
                        .ended_at_ms = at,
                        .bytes_out = 5000,
                        .bytes_in = 12,
                        .scrollback_truncated = true};
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The database and its write-ahead log: what a reader of the disk could see.
std::string on_disk(const fs::path& db) {
  return read_file(db) + read_file(db.string() + "-wal");
}

unsigned mode_of(const fs::path& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return 0;
  return st.st_mode & 0777;
}

// Runs `sql` on `path` with the plain C API, as another program would.
void raw_exec(const fs::path& path, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
  std::string error = message != nullptr ? message : "";
  sqlite3_free(message);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << error;
}

TEST_F(MetadataStoreTest, CreatesOwnerOnlyFilesWhateverTheUmask) {
  mode_t old_umask = umask(0);  // a store relying on the umask would come out 0644 or 0666
  {
    MetadataStore store = open_store();
    auto run = store.begin_run(1000, 42);
    ASSERT_TRUE(run) << run.error().message;
    ASSERT_TRUE(store.session_started(run.value().run_id, shell(1, "bash 1", 1001)));
    EXPECT_EQ(mode_of(db_path_), 0600u);
    // WAL mode keeps these beside the database while it is open; they hold its pages.
    EXPECT_EQ(mode_of(db_path_.string() + "-wal"), 0600u);
    EXPECT_EQ(mode_of(db_path_.string() + "-shm"), 0600u);
  }
  umask(old_umask);
}

TEST_F(MetadataStoreTest, TightensAnExistingWideFile) {
  { std::ofstream(db_path_.string()); }
  ASSERT_EQ(chmod(db_path_.c_str(), 0644), 0);
  MetadataStore store = open_store();
  EXPECT_EQ(mode_of(db_path_), 0600u);
}

TEST_F(MetadataStoreTest, FreshDatabaseInterruptsNothing) {
  MetadataStore store = open_store();
  auto first = store.begin_run(1000, 42);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first.value().interrupted, 0u);
  ASSERT_TRUE(store.end_run(first.value().run_id, 2000));

  auto second = store.begin_run(3000, 43);
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_GT(second.value().run_id, first.value().run_id);
  EXPECT_EQ(second.value().interrupted, 0u);
  auto rows = store.recent_sessions(10);
  ASSERT_TRUE(rows);
  EXPECT_TRUE(rows.value().empty());
}

TEST_F(MetadataStoreTest, SessionsLeftRunningByADeadRunAreInterruptedNextRun) {
  std::int64_t run1 = 0;
  {
    MetadataStore store = open_store();
    auto run = store.begin_run(1000, 42);
    ASSERT_TRUE(run) << run.error().message;
    run1 = run.value().run_id;
    ASSERT_TRUE(store.session_started(run1, shell(1, "bash 1", 1100)));
    ASSERT_TRUE(store.session_started(run1, shell(2, "bash 2", 1200)));
    auto finished = store.session_finished(run1, 1, exited(3, 1500));
    ASSERT_TRUE(finished) << finished.error().message;
    // Destroyed without end_run(): the daemon went away with session 2 live.
  }

  MetadataStore store = open_store();
  auto run = store.begin_run(9000, 77);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run.value().interrupted, 1u);
  EXPECT_NE(run.value().run_id, run1);

  auto rows = store.recent_sessions(10);
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows.value().size(), 2u);
  const SessionRow& live = rows.value()[0];  // newest first
  EXPECT_EQ(live.session_id, 2u);
  EXPECT_EQ(live.status, "interrupted");
  EXPECT_FALSE(live.exit_code);
  EXPECT_FALSE(live.ended_at_ms);  // the dead run never recorded when it stopped

  const SessionRow& done = rows.value()[1];
  EXPECT_EQ(done.run_id, run1);
  EXPECT_EQ(done.session_id, 1u);
  EXPECT_EQ(done.name, "bash 1");
  EXPECT_EQ(done.entry, "bash");
  EXPECT_EQ(done.kind, "shell");
  EXPECT_EQ(done.program, "/bin/bash");
  EXPECT_EQ(done.cwd, "/home/user/project");
  EXPECT_EQ(done.owner, "browser");
  EXPECT_EQ(done.env_names, (std::vector<std::string>{"HOME", "PATH"}));
  EXPECT_EQ(done.status, "exited");
  EXPECT_EQ(done.exit_code, 3);
  EXPECT_FALSE(done.signal);
  EXPECT_EQ(done.created_at_ms, 1100);
  EXPECT_EQ(done.ended_at_ms, 1500);
  EXPECT_EQ(done.bytes_out, 5000u);
  EXPECT_EQ(done.bytes_in, 12u);
  EXPECT_TRUE(done.scrollback_truncated);

  auto events = store.session_events(run1, 2);
  ASSERT_TRUE(events) << events.error().message;
  ASSERT_EQ(events.value().size(), 2u);
  EXPECT_EQ(events.value()[0].event, "started");
  EXPECT_EQ(events.value()[1].event, "interrupted");
  EXPECT_EQ(events.value()[1].at_ms, 9000);

  // Marked once: a further run finds nothing left live.
  ASSERT_TRUE(store.end_run(run.value().run_id, 9500));
  auto again = store.begin_run(10000, 78);
  ASSERT_TRUE(again);
  EXPECT_EQ(again.value().interrupted, 0u);
}

// A daemon killed outright never closes the database: its last commits exist only in
// the write-ahead log, which the next open must recover.
TEST_F(MetadataStoreTest, RecoversWhatADaemonKilledMidRunCommitted) {
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto store = MetadataStore::open(db_path_);
    if (!store) _exit(10);
    auto run = store.value().begin_run(1000, getpid());
    if (!run) _exit(11);
    std::int64_t id = run.value().run_id;
    if (!store.value().session_started(id, shell(1, "bash 1", 1100))) _exit(12);
    if (!store.value().session_started(id, shell(2, "bash 2", 1200))) _exit(13);
    if (!store.value().session_finished(id, 1, exited(0, 1300))) _exit(14);
    _exit(0);  // no destructors: the connection is never closed, nothing checkpointed
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  ASSERT_GT(fs::file_size(db_path_.string() + "-wal"), 0u);

  MetadataStore store = open_store();
  auto run = store.begin_run(5000, 99);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run.value().interrupted, 1u);
  auto rows = store.recent_sessions(10);
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows.value().size(), 2u);
  EXPECT_EQ(rows.value()[0].status, "interrupted");
  EXPECT_EQ(rows.value()[1].status, "exited");
  EXPECT_EQ(rows.value()[1].exit_code, 0);
}

TEST_F(MetadataStoreTest, StopTimeOfACleanRunBecomesTheEndOfWhatItLeftRunning) {
  {
    MetadataStore store = open_store();
    auto run = store.begin_run(1000, 42);
    ASSERT_TRUE(run);
    ASSERT_TRUE(store.session_started(run.value().run_id, shell(1, "bash 1", 1100)));
    ASSERT_TRUE(store.end_run(run.value().run_id, 2000));
  }
  MetadataStore store = open_store();
  auto run = store.begin_run(3000, 43);
  ASSERT_TRUE(run);
  EXPECT_EQ(run.value().interrupted, 1u);
  auto rows = store.recent_sessions(1);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows.value().size(), 1u);
  EXPECT_EQ(rows.value()[0].status, "interrupted");
  EXPECT_EQ(rows.value()[0].ended_at_ms, 2000);
}

TEST_F(MetadataStoreTest, RecordsRenamesAndSignals) {
  MetadataStore store = open_store();
  auto run = store.begin_run(1000, 42);
  ASSERT_TRUE(run);
  std::int64_t id = run.value().run_id;
  ASSERT_TRUE(store.session_started(id, shell(1, "bash 1", 1100)));
  auto renamed = store.session_renamed(id, 1, "build watcher", 1200);
  ASSERT_TRUE(renamed) << renamed.error().message;
  ASSERT_TRUE(store.session_renamed(id, 1, "", 1300));  // empty: the app's default name
  ASSERT_TRUE(store.session_finished(
      id, 1, SessionOutcome{.status = "ended", .signal = SIGHUP, .ended_at_ms = 1400}));

  auto rows = store.recent_sessions(1);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows.value().size(), 1u);
  EXPECT_EQ(rows.value()[0].name, "");
  EXPECT_EQ(rows.value()[0].status, "ended");
  EXPECT_EQ(rows.value()[0].signal, SIGHUP);
  EXPECT_FALSE(rows.value()[0].exit_code);
  EXPECT_FALSE(rows.value()[0].scrollback_truncated);

  auto events = store.session_events(id, 1);
  ASSERT_TRUE(events);
  ASSERT_EQ(events.value().size(), 4u);
  EXPECT_EQ(events.value()[0].event, "started");
  EXPECT_EQ(events.value()[1].event, "renamed");
  EXPECT_EQ(events.value()[1].detail, "build watcher");
  EXPECT_EQ(events.value()[1].at_ms, 1200);
  EXPECT_EQ(events.value()[2].event, "renamed");
  EXPECT_EQ(events.value()[2].detail, "");
  EXPECT_EQ(events.value()[3].event, "ended");
  EXPECT_EQ(events.value()[3].at_ms, 1400);
}

TEST_F(MetadataStoreTest, RefusesAnEnvironmentEntryThatIsNotAName) {
  MetadataStore store = open_store();
  auto run = store.begin_run(1000, 42);
  ASSERT_TRUE(run);
  std::int64_t id = run.value().run_id;

  SessionRecord with_value = shell(1, "bash 1", 1100);
  with_value.env_names = {"HOME", "API_TOKEN=sk-live-123"};
  auto refused = store.session_started(id, with_value);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("API_TOKEN"), std::string::npos)
      << refused.error().message;
  EXPECT_NE(refused.error().message.find("never values"), std::string::npos);
  // The message may reach a log; the value must not.
  EXPECT_EQ(refused.error().message.find("sk-live-123"), std::string::npos)
      << refused.error().message;

  for (std::string bad : {"", "1PATH", "MY VAR", "PATH=", "=x", "NAME\n"}) {
    SessionRecord record = shell(2, "bash 2", 1100);
    record.env_names = {bad};
    EXPECT_FALSE(store.session_started(id, record)) << "accepted \"" << bad << "\"";
  }
  auto rows = store.recent_sessions(10);
  ASSERT_TRUE(rows);
  EXPECT_TRUE(rows.value().empty());  // nothing of a refused record is kept

  SessionRecord fine = shell(3, "bash 3", 1100);
  fine.env_names = {"_private", "LC_ALL", "x1"};
  ASSERT_TRUE(store.session_started(id, fine));
  EXPECT_TRUE(is_env_name("WHARF_X"));
  EXPECT_FALSE(is_env_name("A-B"));
}

// Proves the scan below can see recorded text at all (the WAL included), then that a
// refused record leaves no trace: neither its env value nor even its harmless fields,
// because validation happens before anything is written.
TEST_F(MetadataStoreTest, DiskHoldsWhatWasRecordedAndNothingOfARefusedRecord) {
  const std::string kValue = "marker-secret-value-5d3a";
  const std::string kRefusedName = "marker-refused-tab-9b2e";
  {
    MetadataStore store = open_store();
    auto run = store.begin_run(1000, 42);
    ASSERT_TRUE(run);
    std::int64_t id = run.value().run_id;
    SessionRecord kept = shell(1, "marker-kept-tab-11c0", 1100);
    kept.cwd = "/srv/marker-cwd-4f1c";
    kept.env_names = {"MARKER_NAME_7A"};
    ASSERT_TRUE(store.session_started(id, kept));

    SessionRecord refused = shell(2, kRefusedName, 1200);
    refused.cwd = "/srv/marker-refused-cwd";
    refused.env_names = {"HOME", "MARKER_TOKEN=" + kValue};
    ASSERT_FALSE(store.session_started(id, refused));

    std::string bytes = on_disk(db_path_);
    EXPECT_NE(bytes.find("marker-kept-tab-11c0"), std::string::npos);
    EXPECT_NE(bytes.find("/srv/marker-cwd-4f1c"), std::string::npos);
    EXPECT_NE(bytes.find("MARKER_NAME_7A"), std::string::npos);
    EXPECT_EQ(bytes.find(kValue), std::string::npos);
    EXPECT_EQ(bytes.find(kRefusedName), std::string::npos);
    EXPECT_EQ(bytes.find("marker-refused-cwd"), std::string::npos);
    EXPECT_EQ(bytes.find("MARKER_TOKEN"), std::string::npos);
  }
  // Closed: the log is checkpointed into the database file; same verdict.
  std::string bytes = on_disk(db_path_);
  EXPECT_NE(bytes.find("MARKER_NAME_7A"), std::string::npos);
  EXPECT_EQ(bytes.find(kValue), std::string::npos);
  EXPECT_EQ(bytes.find(kRefusedName), std::string::npos);
}

TEST_F(MetadataStoreTest, RecentSessionsAreNewestFirstAndLimited) {
  MetadataStore store = open_store();
  auto run1 = store.begin_run(1000, 42);
  ASSERT_TRUE(run1);
  ASSERT_TRUE(store.session_started(run1.value().run_id, shell(1, "a", 1100)));
  ASSERT_TRUE(store.session_started(run1.value().run_id, shell(2, "b", 1300)));
  ASSERT_TRUE(store.end_run(run1.value().run_id, 1400));
  auto run2 = store.begin_run(2000, 43);
  ASSERT_TRUE(run2);
  // Ids restart per run; the same id in another run is another session.
  ASSERT_TRUE(store.session_started(run2.value().run_id, shell(1, "c", 2100)));
  ASSERT_TRUE(store.session_started(run2.value().run_id, shell(2, "d", 2100)));

  auto all = store.recent_sessions(100);
  ASSERT_TRUE(all) << all.error().message;
  std::vector<std::string> names;
  for (const SessionRow& row : all.value()) names.push_back(row.name);
  EXPECT_EQ(names, (std::vector<std::string>{"d", "c", "b", "a"}));

  auto two = store.recent_sessions(2);
  ASSERT_TRUE(two);
  ASSERT_EQ(two.value().size(), 2u);
  EXPECT_EQ(two.value()[0].name, "d");
  EXPECT_EQ(two.value()[1].name, "c");

  auto none = store.recent_sessions(0);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none.value().empty());
}

TEST_F(MetadataStoreTest, RefusesWhatDoesNotFitTheLifecycle) {
  MetadataStore store = open_store();
  auto run = store.begin_run(1000, 42);
  ASSERT_TRUE(run);
  std::int64_t id = run.value().run_id;
  ASSERT_TRUE(store.session_started(id, shell(1, "bash 1", 1100)));

  auto duplicate = store.session_started(id, shell(1, "again", 1200));
  ASSERT_FALSE(duplicate);
  EXPECT_NE(duplicate.error().message.find("already has a session with this id"), std::string::npos)
      << duplicate.error().message;
  auto unknown_run = store.session_started(id + 100, shell(5, "bash 5", 1200));
  ASSERT_FALSE(unknown_run);
  EXPECT_NE(unknown_run.error().message.find("was never begun"), std::string::npos)
      << unknown_run.error().message;

  auto bad_status = store.session_finished(id, 1, SessionOutcome{.status = "interrupted"});
  ASSERT_FALSE(bad_status);
  EXPECT_NE(bad_status.error().message.find("\"exited\", \"ended\" or \"crashed\""),
            std::string::npos)
      << bad_status.error().message;

  ASSERT_TRUE(store.session_finished(id, 1, exited(0, 1500)));
  auto twice = store.session_finished(id, 1, exited(1, 1600));
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("already finished (exited)"), std::string::npos)
      << twice.error().message;

  auto unknown = store.session_finished(id, 9, exited(0, 1600));
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("no such session"), std::string::npos)
      << unknown.error().message;
  EXPECT_FALSE(store.session_renamed(id, 9, "x", 1700));

  ASSERT_TRUE(store.end_run(id, 2000));
  EXPECT_FALSE(store.end_run(id, 2100));  // already stopped
  EXPECT_FALSE(store.end_run(id + 100, 2100));

  // The first outcome stands.
  auto rows = store.recent_sessions(10);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows.value().size(), 1u);
  EXPECT_EQ(rows.value()[0].exit_code, 0);
  EXPECT_EQ(rows.value()[0].name, "bash 1");
}

TEST_F(MetadataStoreTest, ReportsAFileThatIsNotADatabaseAndLeavesItAlone) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "these are my notes, not a database\n";
  { std::ofstream(db_path_.string(), std::ios::binary) << text; }
  ASSERT_EQ(chmod(db_path_.c_str(), 0644), 0);

  auto store = MetadataStore::open(db_path_);
  ASSERT_FALSE(store);
  const std::string& message = store.error().message;
  EXPECT_NE(message.find(db_path_.string()), std::string::npos) << message;
  EXPECT_NE(message.find("not a wharf database"), std::string::npos) << message;
  EXPECT_NE(message.find("Move it aside"), std::string::npos) << message;
  EXPECT_EQ(read_file(db_path_), text);
  EXPECT_EQ(mode_of(db_path_), 0644u);
}

TEST_F(MetadataStoreTest, RefusesAnotherProgramsSqliteDatabase) {
  raw_exec(db_path_, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me');");
  std::string before = read_file(db_path_);

  auto store = MetadataStore::open(db_path_);
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find("wharf did not create"), std::string::npos)
      << store.error().message;
  EXPECT_EQ(read_file(db_path_), before);
}

TEST_F(MetadataStoreTest, RefusesADatabaseFromANewerWharf) {
  { MetadataStore store = open_store(); }
  raw_exec(db_path_, "PRAGMA user_version = 99;");

  auto store = MetadataStore::open(db_path_);
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find("newer wharf (schema version 99"), std::string::npos)
      << store.error().message;
}

TEST_F(MetadataStoreTest, ReportsPathsItCannotUse) {
  auto missing_dir = MetadataStore::open(dir_ / "no-such-dir" / "wharf.db");
  ASSERT_FALSE(missing_dir);
  EXPECT_NE(missing_dir.error().message.find("No such file or directory"), std::string::npos)
      << missing_dir.error().message;

  auto directory = MetadataStore::open(dir_);
  ASSERT_FALSE(directory);
  EXPECT_NE(directory.error().message.find(dir_.string()), std::string::npos);

  fs::create_symlink(dir_ / "elsewhere.db", db_path_);
  auto link = MetadataStore::open(db_path_);
  ASSERT_FALSE(link);
  EXPECT_NE(link.error().message.find("symbolic link"), std::string::npos) << link.error().message;
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere.db"));
}

TEST_F(MetadataStoreTest, ReopensAnExistingDatabaseAndKeepsItsHistory) {
  {
    MetadataStore store = open_store();
    auto run = store.begin_run(1000, 42);
    ASSERT_TRUE(run);
    ASSERT_TRUE(store.session_started(run.value().run_id, shell(1, "bash 1", 1100)));
    ASSERT_TRUE(store.session_finished(run.value().run_id, 1, exited(0, 1200)));
    ASSERT_TRUE(store.end_run(run.value().run_id, 1300));
  }
  MetadataStore store = open_store();
  auto rows = store.recent_sessions(10);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows.value().size(), 1u);
  EXPECT_EQ(rows.value()[0].name, "bash 1");
}

TEST_F(MetadataStoreTest, MovesOwnershipOfTheConnection) {
  MetadataStore first = open_store();
  MetadataStore second = std::move(first);
  auto run = second.begin_run(1000, 42);
  ASSERT_TRUE(run) << run.error().message;
  auto closed = first.begin_run(1000, 42);  // NOLINT(bugprone-use-after-move): on purpose
  ASSERT_FALSE(closed);
  EXPECT_NE(closed.error().message.find("closed"), std::string::npos) << closed.error().message;

  auto other = MetadataStore::open(dir_ / "other.db");
  ASSERT_TRUE(other) << other.error().message;
  second = std::move(other.value());  // closes the first connection
  EXPECT_EQ(second.path(), dir_ / "other.db");
  auto fresh = second.recent_sessions(10);
  ASSERT_TRUE(fresh);
  EXPECT_TRUE(fresh.value().empty());
}

// The schema a version-1 wharf wrote, verbatim: a fixed past, not the current code's.
constexpr const char* kVersion1Schema = R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  started_at INTEGER NOT NULL,
  stopped_at INTEGER,
  pid INTEGER NOT NULL
) STRICT;
CREATE TABLE sessions (
  run_id INTEGER NOT NULL REFERENCES runs (id),
  session_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  program TEXT NOT NULL,
  cwd TEXT NOT NULL,
  owner TEXT NOT NULL,
  env_names TEXT NOT NULL,
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
CREATE INDEX sessions_live ON sessions (status) WHERE status IN ('running', 'ending');
CREATE INDEX sessions_by_created ON sessions (created_at);
CREATE TABLE session_events (
  run_id INTEGER NOT NULL,
  session_id INTEGER NOT NULL,
  at INTEGER NOT NULL,
  event TEXT NOT NULL
    CHECK (event IN ('started', 'renamed', 'exited', 'ended', 'interrupted')),
  detail TEXT,
  FOREIGN KEY (run_id, session_id) REFERENCES sessions (run_id, session_id)
) STRICT;
CREATE INDEX session_events_by_session ON session_events (run_id, session_id);
PRAGMA application_id = 2003329394;
PRAGMA user_version = 1;

INSERT INTO runs (id, started_at, stopped_at, pid) VALUES (1, 1000, 2000, 42);
INSERT INTO sessions (run_id, session_id, name, kind, program, cwd, owner, env_names, status,
                      exit_code, created_at, ended_at, bytes_out, bytes_in)
  VALUES (1, 1, 'old shell', 'shell', '/bin/bash', '/home/user', 'cli', '["HOME"]', 'exited',
          3, 1100, 1500, 4096, 7);
INSERT INTO session_events (run_id, session_id, at, event) VALUES (1, 1, 1100, 'started');
INSERT INTO session_events (run_id, session_id, at, event) VALUES (1, 1, 1500, 'exited');
)sql";

// PRAGMA user_version read with the plain C API, read-only.
int user_version(const fs::path& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return -1;
  }
  sqlite3_stmt* stmt = nullptr;
  int version = -1;
  if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nullptr) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW) {
    version = sqlite3_column_int(stmt, 0);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return version;
}

TEST_F(MetadataStoreTest, RecordsTheCatalogEntryAndItsKind) {
  MetadataStore store = open_store();
  auto run = store.begin_run(1000, 42);
  ASSERT_TRUE(run);
  SessionRecord agent = shell(1, "claude 1", 1100);
  agent.entry = "claude";
  agent.kind = "agent";
  agent.program = "/usr/local/bin/claude";
  ASSERT_TRUE(store.session_started(run.value().run_id, agent));
  SessionRecord unnamed = shell(2, "sh 2", 1200);
  unnamed.entry.clear();  // a caller that does not know the entry records ''
  ASSERT_TRUE(store.session_started(run.value().run_id, unnamed));

  auto rows = store.recent_sessions(10);
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows.value().size(), 2u);
  EXPECT_EQ(rows.value()[0].entry, "");
  EXPECT_EQ(rows.value()[1].entry, "claude");
  EXPECT_EQ(rows.value()[1].kind, "agent");
  EXPECT_EQ(rows.value()[1].program, "/usr/local/bin/claude");
  EXPECT_EQ(user_version(db_path_), kSchemaVersion);
}

TEST_F(MetadataStoreTest, MigratesAVersionOneFileAndKeepsItsHistory) {
  raw_exec(db_path_, kVersion1Schema);
  ASSERT_EQ(chmod(db_path_.c_str(), 0644), 0);
  ASSERT_EQ(user_version(db_path_), 1);

  {
    MetadataStore store = open_store();
    EXPECT_EQ(user_version(db_path_), kSchemaVersion);
    EXPECT_EQ(mode_of(db_path_), 0600u);
    auto rows = store.recent_sessions(10);
    ASSERT_TRUE(rows) << rows.error().message;
    ASSERT_EQ(rows.value().size(), 1u);
    const SessionRow& old = rows.value()[0];
    EXPECT_EQ(old.name, "old shell");
    EXPECT_EQ(old.entry, "");  // nothing to recover it from
    EXPECT_EQ(old.kind, "shell");
    EXPECT_EQ(old.status, "exited");
    EXPECT_EQ(old.exit_code, 3);
    EXPECT_EQ(old.bytes_out, 4096u);
    EXPECT_EQ(old.env_names, (std::vector<std::string>{"HOME"}));
    auto events = store.session_events(1, 1);
    ASSERT_TRUE(events);
    EXPECT_EQ(events.value().size(), 2u);

    // The migrated file takes new sessions with their entry, in a new run.
    auto run = store.begin_run(3000, 43);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run.value().run_id, 2);
    ASSERT_TRUE(store.session_started(run.value().run_id, shell(1, "bash 1", 3100)));
    auto after = store.recent_sessions(10);
    ASSERT_TRUE(after);
    ASSERT_EQ(after.value().size(), 2u);
    EXPECT_EQ(after.value()[0].entry, "bash");
    EXPECT_EQ(after.value()[1].name, "old shell");
  }
  // Opening again is a no-op: the migration ran once.
  MetadataStore store = open_store();
  EXPECT_EQ(user_version(db_path_), kSchemaVersion);
  auto rows = store.recent_sessions(10);
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows.value().size(), 2u);
}

TEST_F(MetadataStoreTest, ReadOnlyOpenRefusesAMissingFileAndCreatesNothing) {
  auto missing = MetadataStore::open_read_only(db_path_);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "no history yet: " + db_path_.string() + " does not exist");
  EXPECT_FALSE(fs::exists(db_path_));

  fs::path deeper = dir_ / "no-such-dir" / "wharf.db";
  auto no_dir = MetadataStore::open_read_only(deeper);
  ASSERT_FALSE(no_dir);
  EXPECT_EQ(no_dir.error().message, "no history yet: " + deeper.string() + " does not exist");
  EXPECT_FALSE(fs::exists(dir_ / "no-such-dir"));

  fs::create_symlink(dir_ / "elsewhere.db", db_path_);
  auto link = MetadataStore::open_read_only(db_path_);
  ASSERT_FALSE(link);
  EXPECT_NE(link.error().message.find("symbolic link"), std::string::npos) << link.error().message;
}

TEST_F(MetadataStoreTest, ReadOnlyOpenReadsBesideAWriterAndWritesNothing) {
  MetadataStore writer = open_store();
  auto run = writer.begin_run(1000, 42);
  ASSERT_TRUE(run);
  std::int64_t id = run.value().run_id;
  ASSERT_TRUE(writer.session_started(id, shell(1, "bash 1", 1100)));
  ASSERT_TRUE(writer.session_renamed(id, 1, "build", 1150));
  ASSERT_TRUE(writer.session_finished(id, 1, exited(3, 1200)));
  ASSERT_TRUE(writer.session_started(id, shell(2, "bash 2", 1300)));

  auto reader = MetadataStore::open_read_only(db_path_);
  ASSERT_TRUE(reader) << reader.error().message;
  auto history = reader.value().sessions_with_events(10);
  ASSERT_TRUE(history) << history.error().message;
  ASSERT_EQ(history.value().size(), 2u);
  EXPECT_EQ(history.value()[0].session.name, "bash 2");
  EXPECT_EQ(history.value()[0].session.status, "running");
  ASSERT_EQ(history.value()[0].events.size(), 1u);
  EXPECT_EQ(history.value()[1].session.name, "build");
  EXPECT_EQ(history.value()[1].session.exit_code, 3);

  // The writer goes on while the reader is open; the next read sees it.
  ASSERT_TRUE(writer.session_finished(id, 2, exited(0, 1400)));
  auto again = reader.value().recent_sessions(10);
  ASSERT_TRUE(again) << again.error().message;
  ASSERT_EQ(again.value().size(), 2u);
  EXPECT_EQ(again.value()[0].status, "exited");

  // Every write is refused by SQLite itself, and nothing changed.
  EXPECT_FALSE(reader.value().begin_run(5000, 99));
  EXPECT_FALSE(reader.value().session_started(id, shell(3, "bash 3", 5100)));
  EXPECT_FALSE(reader.value().session_finished(id, 2, exited(0, 5200)));
  auto rows = writer.recent_sessions(10);
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows.value().size(), 2u);
  EXPECT_EQ(mode_of(db_path_), 0600u);
}

// SQLite opens the log of a WAL-mode file even to read, so a reader may leave an empty
// -wal and a -shm beside a stopped daemon's database; they must be owner-only (SQLite
// gives them the database's mode) and hold nothing.
TEST_F(MetadataStoreTest, ReadOnlyOpenLeavesAStoppedDaemonsDatabaseAsItWas) {
  {
    MetadataStore store = open_store();
    auto run = store.begin_run(1000, 42);
    ASSERT_TRUE(run);
    ASSERT_TRUE(store.session_started(run.value().run_id, shell(1, "bash 1", 1100)));
    ASSERT_TRUE(store.end_run(run.value().run_id, 2000));
  }
  // A clean close checkpointed and removed the log.
  ASSERT_FALSE(fs::exists(db_path_.string() + "-wal"));
  std::string before = read_file(db_path_);
  mode_t old_umask = umask(0);
  {
    auto reader = MetadataStore::open_read_only(db_path_);
    ASSERT_TRUE(reader) << reader.error().message;
    auto rows = reader.value().recent_sessions(10);
    ASSERT_TRUE(rows) << rows.error().message;
    ASSERT_EQ(rows.value().size(), 1u);
    EXPECT_EQ(rows.value()[0].status, "running");  // until the next begin_run() says otherwise
  }
  umask(old_umask);
  EXPECT_EQ(read_file(db_path_), before);
  EXPECT_EQ(mode_of(db_path_), 0600u);
  for (std::string_view suffix : {"-wal", "-shm", "-journal"}) {
    fs::path companion = db_path_.string() + std::string(suffix);
    if (!fs::exists(companion)) continue;
    EXPECT_EQ(mode_of(companion), 0600u) << companion;
    if (suffix == "-wal") {
      EXPECT_EQ(fs::file_size(companion), 0u);
    }
  }
  // The next daemon takes the file over as usual.
  MetadataStore store = open_store();
  auto run = store.begin_run(3000, 43);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run.value().interrupted, 1u);
}

// What a SIGKILLed daemon leaves: commits only in the write-ahead log. The reader sees
// them and leaves the log for the next daemon to recover.
TEST_F(MetadataStoreTest, ReadOnlyOpenSeesWhatAKilledDaemonLeftInTheLog) {
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto store = MetadataStore::open(db_path_);
    if (!store) _exit(10);
    auto run = store.value().begin_run(1000, getpid());
    if (!run) _exit(11);
    if (!store.value().session_started(run.value().run_id, shell(1, "bash 1", 1100))) _exit(12);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  std::string wal = read_file(db_path_.string() + "-wal");
  ASSERT_FALSE(wal.empty());

  {
    auto reader = MetadataStore::open_read_only(db_path_);
    ASSERT_TRUE(reader) << reader.error().message;
    auto history = reader.value().sessions_with_events(10);
    ASSERT_TRUE(history) << history.error().message;
    ASSERT_EQ(history.value().size(), 1u);
    EXPECT_EQ(history.value()[0].session.status, "running");
    ASSERT_EQ(history.value()[0].events.size(), 1u);
    EXPECT_EQ(history.value()[0].events[0].event, "started");
  }
  EXPECT_EQ(read_file(db_path_.string() + "-wal"), wal) << "the reader checkpointed the log";

  MetadataStore store = open_store();
  auto run = store.begin_run(5000, 99);
  ASSERT_TRUE(run);
  EXPECT_EQ(run.value().interrupted, 1u);
}

TEST_F(MetadataStoreTest, ReadOnlyOpenReadsAVersionOneFileWithoutMigratingIt) {
  raw_exec(db_path_, kVersion1Schema);
  std::string before = read_file(db_path_);
  {
    auto reader = MetadataStore::open_read_only(db_path_);
    ASSERT_TRUE(reader) << reader.error().message;
    auto history = reader.value().sessions_with_events(10);
    ASSERT_TRUE(history) << history.error().message;
    ASSERT_EQ(history.value().size(), 1u);
    EXPECT_EQ(history.value()[0].session.name, "old shell");
    EXPECT_EQ(history.value()[0].session.entry, "");
    EXPECT_EQ(history.value()[0].session.exit_code, 3);
    ASSERT_EQ(history.value()[0].events.size(), 2u);
    EXPECT_EQ(history.value()[0].events[1].event, "exited");
  }
  EXPECT_EQ(user_version(db_path_), 1);
  EXPECT_EQ(read_file(db_path_), before);
}

TEST_F(MetadataStoreTest, ReadOnlyOpenRefusesWhatOpenRefuses) {
  { MetadataStore store = open_store(); }
  raw_exec(db_path_, "PRAGMA user_version = 99;");
  auto newer = MetadataStore::open_read_only(db_path_);
  ASSERT_FALSE(newer);
  EXPECT_NE(newer.error().message.find("newer wharf (schema version 99"), std::string::npos)
      << newer.error().message;

  fs::path foreign = dir_ / "notes.db";
  raw_exec(foreign, "CREATE TABLE notes (body TEXT);");
  auto other = MetadataStore::open_read_only(foreign);
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("wharf did not create"), std::string::npos)
      << other.error().message;

  fs::path text = dir_ / "text.db";
  {
    std::ofstream out(text.string());
    for (int i = 0; i < 200; ++i) out << "not a database\n";
  }
  auto garbage = MetadataStore::open_read_only(text);
  ASSERT_FALSE(garbage);
  EXPECT_NE(garbage.error().message.find("not a wharf database"), std::string::npos)
      << garbage.error().message;

  auto directory = MetadataStore::open_read_only(dir_);
  ASSERT_FALSE(directory);
  EXPECT_NE(directory.error().message.find("not a regular file"), std::string::npos)
      << directory.error().message;
}

// A file the daemon created but had not yet given tables (it died in between) holds no
// history; reading it is not an error.
TEST_F(MetadataStoreTest, ReadOnlyOpenOfAnEmptyFileHasNoSessions) {
  { std::ofstream(db_path_.string()); }
  auto reader = MetadataStore::open_read_only(db_path_);
  ASSERT_TRUE(reader) << reader.error().message;
  auto rows = reader.value().recent_sessions(10);
  ASSERT_TRUE(rows) << rows.error().message;
  EXPECT_TRUE(rows.value().empty());
  auto history = reader.value().sessions_with_events(10);
  ASSERT_TRUE(history) << history.error().message;
  EXPECT_TRUE(history.value().empty());
  auto events = reader.value().session_events(1, 1);
  ASSERT_TRUE(events);
  EXPECT_TRUE(events.value().empty());
  EXPECT_EQ(fs::file_size(db_path_), 0u);
}

TEST_F(MetadataStoreTest, SessionsWithEventsGivesEachSessionItsOwnEventsNewestFirst) {
  MetadataStore store = open_store();
  auto run1 = store.begin_run(1000, 42);
  ASSERT_TRUE(run1);
  std::int64_t r1 = run1.value().run_id;
  ASSERT_TRUE(store.session_started(r1, shell(1, "a", 1100)));
  ASSERT_TRUE(store.session_started(r1, shell(2, "b", 1200)));
  ASSERT_TRUE(store.session_renamed(r1, 1, "a2", 1250));
  ASSERT_TRUE(store.session_finished(r1, 2, exited(0, 1300)));
  auto run2 = store.begin_run(2000, 43);  // interrupts "a2"
  ASSERT_TRUE(run2);
  std::int64_t r2 = run2.value().run_id;
  ASSERT_TRUE(store.session_started(r2, shell(1, "c", 2100)));  // same id, another run

  auto all = store.sessions_with_events(10);
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all.value().size(), 3u);
  auto events_of = [](const SessionHistory& h) {
    std::vector<std::string> out;
    for (const SessionEvent& e : h.events) out.push_back(e.event);
    return out;
  };
  EXPECT_EQ(all.value()[0].session.name, "c");
  EXPECT_EQ(events_of(all.value()[0]), (std::vector<std::string>{"started"}));
  EXPECT_EQ(all.value()[1].session.name, "b");
  EXPECT_EQ(events_of(all.value()[1]), (std::vector<std::string>{"started", "exited"}));
  EXPECT_EQ(all.value()[2].session.name, "a2");
  EXPECT_EQ(all.value()[2].session.status, "interrupted");
  EXPECT_EQ(events_of(all.value()[2]),
            (std::vector<std::string>{"started", "renamed", "interrupted"}));
  EXPECT_EQ(all.value()[2].events[1].detail, "a2");

  // The limit applies to sessions, and the events follow them.
  auto one = store.sessions_with_events(1);
  ASSERT_TRUE(one);
  ASSERT_EQ(one.value().size(), 1u);
  EXPECT_EQ(one.value()[0].session.run_id, r2);
  EXPECT_EQ(one.value()[0].events.size(), 1u);
  auto none = store.sessions_with_events(0);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none.value().empty());
}

// What a version-2 wharf wrote on top of kVersion1Schema: the entry column, and a run
// that died with two sessions live (one renamed twice within one millisecond).
constexpr const char* kVersion2Additions = R"sql(
ALTER TABLE sessions ADD COLUMN entry TEXT NOT NULL DEFAULT '';
PRAGMA user_version = 2;

INSERT INTO runs (id, started_at, pid) VALUES (2, 3000, 43);
INSERT INTO sessions (run_id, session_id, name, kind, program, cwd, owner, env_names, status,
                      created_at, entry)
  VALUES (2, 1, 'agent', 'agent', '/usr/local/bin/claude', '/srv', 'key', '["PATH","TERM"]',
          'running', 3100, 'claude');
INSERT INTO sessions (run_id, session_id, name, kind, program, cwd, owner, env_names, status,
                      created_at, entry)
  VALUES (2, 2, 'watcher', 'shell', '/bin/bash', '/srv', 'local', '[]', 'running', 3200, 'bash');
INSERT INTO session_events (run_id, session_id, at, event) VALUES (2, 1, 3100, 'started');
INSERT INTO session_events (run_id, session_id, at, event, detail)
  VALUES (2, 1, 3150, 'renamed', 'first');
INSERT INTO session_events (run_id, session_id, at, event, detail)
  VALUES (2, 1, 3150, 'renamed', 'agent');
INSERT INTO session_events (run_id, session_id, at, event) VALUES (2, 2, 3200, 'started');
)sql";

// The first column of the first row of `sql` as text ("" when there is none), read
// with the plain C API.
std::string raw_text(const fs::path& path, const char* sql) {
  sqlite3* db = nullptr;
  std::string text;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0) != nullptr) {
      text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return text;
}

// Runs `sql` with foreign keys enforced, as wharf's own connection does; returns the
// extended result code.
int raw_exec_code(const fs::path& path, const char* sql) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    sqlite3_close(db);
    return -1;
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_exec(db, "PRAGMA foreign_keys = ON", nullptr, nullptr, nullptr);
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
  sqlite3_close(db);
  return rc;
}

std::vector<std::string> event_names(const std::vector<SessionEvent>& events) {
  std::vector<std::string> out;
  for (const SessionEvent& e : events) out.push_back(e.event);
  return out;
}

TEST_F(MetadataStoreTest, MigratesAVersionTwoFileKeepingRowsIndexesAndTheForeignKey) {
  raw_exec(db_path_, kVersion1Schema);
  raw_exec(db_path_, kVersion2Additions);
  ASSERT_EQ(user_version(db_path_), 2);

  // `wharf history` of this wharf reads a version-2 file as it is.
  {
    auto reader = MetadataStore::open_read_only(db_path_);
    ASSERT_TRUE(reader) << reader.error().message;
    auto rows = reader.value().recent_sessions(10);
    ASSERT_TRUE(rows) << rows.error().message;
    ASSERT_EQ(rows.value().size(), 3u);
    EXPECT_EQ(rows.value()[1].entry, "claude");
  }
  EXPECT_EQ(user_version(db_path_), 2);

  {
    MetadataStore store = open_store();
    EXPECT_EQ(user_version(db_path_), kSchemaVersion);
    auto rows = store.recent_sessions(10);
    ASSERT_TRUE(rows) << rows.error().message;
    ASSERT_EQ(rows.value().size(), 3u);
    const SessionRow& watcher = rows.value()[0];
    EXPECT_EQ(watcher.name, "watcher");
    EXPECT_EQ(watcher.status, "running");
    EXPECT_TRUE(watcher.env_names.empty());
    const SessionRow& agent = rows.value()[1];
    EXPECT_EQ(agent.run_id, 2);
    EXPECT_EQ(agent.session_id, 1u);
    EXPECT_EQ(agent.name, "agent");
    EXPECT_EQ(agent.entry, "claude");
    EXPECT_EQ(agent.kind, "agent");
    EXPECT_EQ(agent.program, "/usr/local/bin/claude");
    EXPECT_EQ(agent.cwd, "/srv");
    EXPECT_EQ(agent.owner, "key");
    EXPECT_EQ(agent.env_names, (std::vector<std::string>{"PATH", "TERM"}));
    EXPECT_EQ(agent.status, "running");
    EXPECT_EQ(agent.created_at_ms, 3100);
    EXPECT_FALSE(agent.ended_at_ms);
    const SessionRow& old = rows.value()[2];
    EXPECT_EQ(old.name, "old shell");
    EXPECT_EQ(old.entry, "");
    EXPECT_EQ(old.status, "exited");
    EXPECT_EQ(old.exit_code, 3);
    EXPECT_EQ(old.ended_at_ms, 1500);
    EXPECT_EQ(old.bytes_out, 4096u);
    EXPECT_EQ(old.bytes_in, 7u);

    // Events keep their order, the two renames within one millisecond included.
    auto events = store.session_events(2, 1);
    ASSERT_TRUE(events) << events.error().message;
    ASSERT_EQ(events.value().size(), 3u);
    EXPECT_EQ(events.value()[1].detail, "first");
    EXPECT_EQ(events.value()[2].detail, "agent");
    auto old_events = store.session_events(1, 1);
    ASSERT_TRUE(old_events);
    EXPECT_EQ(event_names(old_events.value()), (std::vector<std::string>{"started", "exited"}));

    // The new values are taken: a daemon that found session 2:1 alive keeps it, records
    // the takeover, and later its host dies.
    auto run = store.begin_run(5000, 44, {{2, 1}});
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run.value().run_id, 3);
    EXPECT_EQ(run.value().interrupted, 1u);  // 2:2
    EXPECT_EQ(run.value().kept_running, 1u);
    auto reattached = store.session_event(2, 1, "reattached", "3", 5001);
    ASSERT_TRUE(reattached) << reattached.error().message;
    auto crashed = store.session_finished(
        2, 1, SessionOutcome{.status = "crashed", .ended_at_ms = 6000, .bytes_out = 10});
    ASSERT_TRUE(crashed) << crashed.error().message;
    auto after = store.session_events(2, 1);
    ASSERT_TRUE(after);
    EXPECT_EQ(event_names(after.value()),
              (std::vector<std::string>{"started", "renamed", "renamed", "reattached", "crashed"}));
  }

  // The schema: nothing left of the old tables, the indexes made again, STRICT and the
  // events' foreign key kept and enforced.
  EXPECT_EQ(raw_text(db_path_, "SELECT count(*) FROM sqlite_schema WHERE name LIKE '%v2%'"), "0");
  EXPECT_EQ(raw_text(db_path_,
                     "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_schema "
                     "WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name)"),
            "decisions_by_session egress_refusals_by_session input_attribution_by_session "
            "session_events_by_session sessions_by_created sessions_live");
  std::string sessions_sql =
      raw_text(db_path_, "SELECT sql FROM sqlite_schema WHERE name = 'sessions'");
  EXPECT_NE(sessions_sql.find("STRICT"), std::string::npos) << sessions_sql;
  EXPECT_NE(sessions_sql.find("REFERENCES runs"), std::string::npos) << sessions_sql;
  std::string events_sql =
      raw_text(db_path_, "SELECT sql FROM sqlite_schema WHERE name = 'session_events'");
  EXPECT_NE(events_sql.find("STRICT"), std::string::npos) << events_sql;
  EXPECT_EQ(raw_text(db_path_, "SELECT \"table\" FROM pragma_foreign_key_list('session_events')"),
            "sessions");
  EXPECT_EQ(raw_text(db_path_, "SELECT count(*) FROM pragma_foreign_key_check"), "0");
  EXPECT_EQ(raw_exec_code(db_path_,
                          "INSERT INTO session_events (run_id, session_id, at, event) "
                          "VALUES (9, 9, 1, 'started')"),
            SQLITE_CONSTRAINT_FOREIGNKEY);
  EXPECT_EQ(raw_exec_code(db_path_, "UPDATE sessions SET status = 'lost' WHERE session_id = 2"),
            SQLITE_CONSTRAINT_CHECK);

  // Opening again is a no-op.
  MetadataStore store = open_store();
  EXPECT_EQ(user_version(db_path_), kSchemaVersion);
  auto rows = store.recent_sessions(10);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows.value().size(), 3u);
  EXPECT_EQ(rows.value()[1].status, "crashed");
}

TEST_F(MetadataStoreTest, BeginRunKeepsTheSessionsFoundAliveAndInterruptsTheRest) {
  std::int64_t run1 = 0;
  {
    MetadataStore store = open_store();
    auto run = store.begin_run(1000, 42);
    ASSERT_TRUE(run);
    run1 = run.value().run_id;
    ASSERT_TRUE(store.session_started(run1, shell(1, "kept", 1100)));
    ASSERT_TRUE(store.session_started(run1, shell(2, "lost", 1200)));
    ASSERT_TRUE(store.session_started(run1, shell(3, "done", 1300)));
    ASSERT_TRUE(store.session_finished(run1, 3, exited(0, 1400)));
    ASSERT_TRUE(store.end_run(run1, 2000));
  }

  MetadataStore store = open_store();
  // The daemon's list may name what is no longer live (3 finished) or was never
  // recorded; neither is brought back or counted.
  auto run = store.begin_run(3000, 43, {{run1, 1}, {run1, 3}, {run1 + 50, 9}});
  ASSERT_TRUE(run) << run.error().message;
  std::int64_t run2 = run.value().run_id;
  EXPECT_EQ(run.value().interrupted, 1u);
  EXPECT_EQ(run.value().kept_running, 1u);
  auto reattached = store.session_event(run1, 1, "reattached", std::to_string(run2), 3001);
  ASSERT_TRUE(reattached) << reattached.error().message;

  auto rows = store.recent_sessions(10);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows.value().size(), 3u);
  EXPECT_EQ(rows.value()[2].name, "kept");
  EXPECT_EQ(rows.value()[2].status, "running");
  EXPECT_FALSE(rows.value()[2].ended_at_ms);
  EXPECT_EQ(rows.value()[1].name, "lost");
  EXPECT_EQ(rows.value()[1].status, "interrupted");
  EXPECT_EQ(rows.value()[1].ended_at_ms, 2000);  // its run's recorded stop
  EXPECT_EQ(rows.value()[0].status, "exited");

  auto events = store.session_events(run1, 1);
  ASSERT_TRUE(events);
  ASSERT_EQ(event_names(events.value()), (std::vector<std::string>{"started", "reattached"}));
  EXPECT_EQ(events.value()[1].at_ms, 3001);
  EXPECT_EQ(events.value()[1].detail, std::to_string(run2));
  auto lost = store.session_events(run1, 2);
  ASSERT_TRUE(lost);
  EXPECT_EQ(event_names(lost.value()), (std::vector<std::string>{"started", "interrupted"}));

  // The re-attached session finishes under the id its first run gave it.
  ASSERT_TRUE(store.session_started(run2, shell(1, "new in run 2", 3100)));  // same id, new run
  ASSERT_TRUE(store.end_run(run2, 5000));

  // Run 3 finds no host alive: the session that outlived run 1 ended when run 2 (which
  // held it last) stopped, not when run 1 did.
  auto third = store.begin_run(6000, 44);
  ASSERT_TRUE(third);
  EXPECT_EQ(third.value().interrupted, 2u);
  EXPECT_EQ(third.value().kept_running, 0u);
  auto after = store.recent_sessions(10);
  ASSERT_TRUE(after);
  for (const SessionRow& row : after.value()) {
    if (row.status != "interrupted") continue;
    EXPECT_EQ(row.ended_at_ms, row.name == "lost" ? 2000 : 5000) << row.name;
  }
  auto kept_events = store.session_events(run1, 1);
  ASSERT_TRUE(kept_events);
  EXPECT_EQ(event_names(kept_events.value()),
            (std::vector<std::string>{"started", "reattached", "interrupted"}));
}

TEST_F(MetadataStoreTest, RecordsACrashedSession) {
  MetadataStore store = open_store();
  auto run = store.begin_run(1000, 42);
  ASSERT_TRUE(run);
  std::int64_t id = run.value().run_id;
  ASSERT_TRUE(store.session_started(id, shell(1, "bash 1", 1100)));
  ASSERT_TRUE(store.session_started(id, shell(2, "bash 2", 1200)));
  // Neither exit code nor signal: the host died without saying.
  auto crashed = store.session_finished(
      id, 1,
      SessionOutcome{.status = "crashed", .ended_at_ms = 1500, .bytes_out = 900, .bytes_in = 4});
  ASSERT_TRUE(crashed) << crashed.error().message;
  // A host that reported a signal before dying may still say it.
  ASSERT_TRUE(store.session_finished(
      id, 2, SessionOutcome{.status = "crashed", .signal = SIGKILL, .ended_at_ms = 1600}));

  auto history = store.sessions_with_events(10);
  ASSERT_TRUE(history) << history.error().message;
  ASSERT_EQ(history.value().size(), 2u);
  const SessionRow& first = history.value()[1].session;
  EXPECT_EQ(first.status, "crashed");
  EXPECT_FALSE(first.exit_code);
  EXPECT_FALSE(first.signal);
  EXPECT_EQ(first.ended_at_ms, 1500);
  EXPECT_EQ(first.bytes_out, 900u);
  EXPECT_EQ(first.bytes_in, 4u);
  EXPECT_EQ(event_names(history.value()[1].events),
            (std::vector<std::string>{"started", "crashed"}));
  EXPECT_EQ(history.value()[1].events[1].at_ms, 1500);
  EXPECT_EQ(history.value()[0].session.signal, SIGKILL);

  // Finished is finished: no second outcome, no takeover, and the next run leaves it be.
  auto twice = store.session_finished(id, 1, exited(0, 1700));
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("already finished (crashed)"), std::string::npos)
      << twice.error().message;
  ASSERT_TRUE(store.end_run(id, 2000));
  auto next = store.begin_run(3000, 43, {{id, 1}});
  ASSERT_TRUE(next);
  EXPECT_EQ(next.value().interrupted, 0u);
  EXPECT_EQ(next.value().kept_running, 0u);
  auto rows = store.recent_sessions(10);
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows.value()[1].status, "crashed");
}

TEST_F(MetadataStoreTest, RefusesEventsItDoesNotRecordThisWay) {
  MetadataStore store = open_store();
  auto run = store.begin_run(1000, 42);
  ASSERT_TRUE(run);
  std::int64_t id = run.value().run_id;
  ASSERT_TRUE(store.session_started(id, shell(1, "bash 1", 1100)));
  ASSERT_TRUE(store.session_started(id, shell(2, "bash 2", 1200)));
  ASSERT_TRUE(store.session_finished(id, 2, exited(0, 1300)));

  // Events that belong with a change of the session's row, or none wharf knows.
  for (std::string_view event : {"crashed", "started", "interrupted", "exited", "renamed", ""}) {
    auto refused = store.session_event(id, 1, event, "2", 1400);
    ASSERT_FALSE(refused) << "accepted \"" << event << "\"";
    EXPECT_NE(refused.error().message.find("only \"reattached\""), std::string::npos)
        << refused.error().message;
  }
  auto unknown = store.session_event(id, 9, "reattached", "2", 1400);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("no such session"), std::string::npos)
      << unknown.error().message;
  auto unknown_run = store.session_event(id + 100, 1, "reattached", "2", 1400);
  ASSERT_FALSE(unknown_run);
  EXPECT_NE(unknown_run.error().message.find("no such session"), std::string::npos);
  auto finished = store.session_event(id, 2, "reattached", "2", 1400);
  ASSERT_FALSE(finished);
  EXPECT_NE(finished.error().message.find("already finished (exited)"), std::string::npos)
      << finished.error().message;

  auto events = store.session_events(id, 1);
  ASSERT_TRUE(events);
  EXPECT_EQ(event_names(events.value()), (std::vector<std::string>{"started"}));

  // A reader never writes.
  auto reader = MetadataStore::open_read_only(db_path_);
  ASSERT_TRUE(reader) << reader.error().message;
  EXPECT_FALSE(reader.value().session_event(id, 1, "reattached", "2", 1500));
  auto still = store.session_events(id, 1);
  ASSERT_TRUE(still);
  EXPECT_EQ(still.value().size(), 1u);
}

TEST_F(MetadataStoreTest, FindsASessionByIdInTheNewestRunUnlessARunIsGiven) {
  MetadataStore store = open_store();
  auto run1 = store.begin_run(1000, 42);
  ASSERT_TRUE(run1);
  std::int64_t r1 = run1.value().run_id;
  ASSERT_TRUE(store.session_started(r1, shell(1, "one of run 1", 1100)));
  ASSERT_TRUE(store.session_started(r1, shell(2, "two of run 1", 1200)));
  ASSERT_TRUE(store.end_run(r1, 1500));
  auto run2 = store.begin_run(2000, 43);
  ASSERT_TRUE(run2);
  std::int64_t r2 = run2.value().run_id;
  ASSERT_TRUE(store.session_started(r2, shell(1, "one of run 2", 2100)));

  auto newest = store.find_session(1);
  ASSERT_TRUE(newest) << newest.error().message;
  ASSERT_TRUE(newest.value());
  EXPECT_EQ(newest.value()->run_id, r2);
  EXPECT_EQ(newest.value()->name, "one of run 2");
  EXPECT_EQ(newest.value()->entry, "bash");

  auto older = store.find_session(1, r1);
  ASSERT_TRUE(older);
  ASSERT_TRUE(older.value());
  EXPECT_EQ(older.value()->name, "one of run 1");
  EXPECT_EQ(older.value()->status, "interrupted");

  auto only_in_run1 = store.find_session(2);
  ASSERT_TRUE(only_in_run1);
  ASSERT_TRUE(only_in_run1.value());
  EXPECT_EQ(only_in_run1.value()->run_id, r1);

  for (auto [id, run] : {std::pair<std::uint64_t, std::optional<std::int64_t>>{2, r2},
                         {9, std::nullopt},
                         {1, r2 + 5},
                         {~std::uint64_t{0}, std::nullopt}}) {
    auto none = store.find_session(id, run);
    ASSERT_TRUE(none) << none.error().message;
    EXPECT_FALSE(none.value()) << id;
  }

  // A version-1 file, read as it is.
  fs::path old_path = dir_ / "v1.db";
  raw_exec(old_path, kVersion1Schema);
  auto reader = MetadataStore::open_read_only(old_path);
  ASSERT_TRUE(reader) << reader.error().message;
  auto old = reader.value().find_session(1);
  ASSERT_TRUE(old) << old.error().message;
  ASSERT_TRUE(old.value());
  EXPECT_EQ(old.value()->name, "old shell");
  EXPECT_EQ(old.value()->entry, "");
}

}  // namespace
}  // namespace wharf::store
