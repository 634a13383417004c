// The audit tables of sandboxed sessions (store/audit_tables.cpp) against real SQLite
// files: egress refusals, decisions and their one answer, input attribution, a session's
// capabilities, what is refused, and the migration of a version-3 file.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>

#include "store/metadata_store.hpp"

namespace wharf::store {
namespace {

namespace fs = std::filesystem;

class AuditTablesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "wharf-audit-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    db_path_ = dir_ / "wharf.db";
  }
  void TearDown() override { fs::remove_all(dir_); }

  MetadataStore open_store() {
    auto store = MetadataStore::open(db_path_);
    if (!store) ADD_FAILURE() << store.error().message;
    return std::move(store.value());
  }
  // A store with run 1 and its sandboxed session 1 recorded.
  std::int64_t start_session(MetadataStore& store, std::string capabilities = {}) {
    auto run = store.begin_run(1000, 42);
    EXPECT_TRUE(run) << run.error().message;
    auto started =
        store.session_started(run.value().run_id, SessionRecord{.session_id = 1,
                                                                .name = "claude 1",
                                                                .entry = "claude",
                                                                .kind = "agent",
                                                                .program = "/usr/bin/claude",
                                                                .cwd = "/work",
                                                                .owner = "key",
                                                                .env_names = {},
                                                                .created_at_ms = 1100,
                                                                .capabilities_json = capabilities});
    EXPECT_TRUE(started) << started.error().message;
    return run.value().run_id;
  }

  fs::path dir_;
  fs::path db_path_;
};

DecisionRecord push_decision(std::uint64_t id, std::int64_t at) {
  return DecisionRecord{.session_id = 1,
                        .decision_id = id,
                        .opened_at_ms = at,
                        .what = "git push",
                        .argv = {"git", "push", "origin", "main \"quoted\""},
                        .cwd = "/work/repo",
                        .source = "guard"};
}

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

std::string raw_text(const fs::path& path, const char* sql) {
  sqlite3* db = nullptr;
  std::string text;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0) != nullptr)
      text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return text;
}

TEST_F(AuditTablesTest, RecordsEgressRefusalsNewestFirstWithoutPayloads) {
  MetadataStore store = open_store();
  auto run = start_session(store);
  ASSERT_TRUE(store.egress_refused(run, 1, "evil.example", 443, 2000));
  ASSERT_TRUE(store.egress_refused(run, 1, "pastebin.example", 80, 3000));
  auto rows = store.egress_refusals(run, 1, 10);
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows.value().size(), 2u);
  EXPECT_EQ(rows.value()[0].host, "pastebin.example");
  EXPECT_EQ(rows.value()[0].port, 80);
  EXPECT_EQ(rows.value()[1].at_ms, 2000);
  EXPECT_EQ(store.egress_refusals(run, 1, 1).value().size(), 1u);
  EXPECT_TRUE(store.egress_refusals(run, 2, 10).value().empty());

  // Refused: an unknown session, a port out of range, an empty host.
  auto unknown = store.egress_refused(run, 9, "x.example", 443, 1);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("no such session"), std::string::npos)
      << unknown.error().message;
  EXPECT_FALSE(store.egress_refused(run, 1, "x.example", 70000, 1));
  EXPECT_FALSE(store.egress_refused(run, 1, "", 443, 1));
  EXPECT_EQ(store.egress_refusals(run, 1, 10).value().size(), 2u);
}

TEST_F(AuditTablesTest, ADecisionOpensPendingAndTakesOneAnswer) {
  MetadataStore store = open_store();
  auto run = start_session(store);
  ASSERT_TRUE(store.decision_opened(run, push_decision(1, 2000)));
  ASSERT_TRUE(store.decision_opened(run, push_decision(2, 2500)));
  auto answered = store.decision_answered(run, 1, "denied", "device:phone", 2600, "not main");
  ASSERT_TRUE(answered) << answered.error().message;
  auto again = store.decision_answered(run, 1, "approved", "cli", 2700, "");
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message.find("no pending decision"), std::string::npos);

  auto rows = store.decisions(run, 1, 10);
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows.value().size(), 2u);
  const DecisionRecord& first = rows.value()[0];
  EXPECT_EQ(first.decision_id, 1u);
  EXPECT_EQ(first.what, "git push");
  EXPECT_EQ(first.argv, (std::vector<std::string>{"git", "push", "origin", "main \"quoted\""}));
  EXPECT_EQ(first.cwd, "/work/repo");
  EXPECT_EQ(first.source, "guard");
  EXPECT_EQ(first.outcome, "denied");
  EXPECT_EQ(first.answered_by, "device:phone");
  EXPECT_EQ(first.answered_at_ms, 2600);
  EXPECT_EQ(first.note, "not main");
  const DecisionRecord& second = rows.value()[1];
  EXPECT_EQ(second.outcome, "pending");
  EXPECT_EQ(second.answered_by, "");
  EXPECT_FALSE(second.answered_at_ms);
  // The newest `limit`, still in the order they opened.
  auto newest = store.decisions(run, 1, 1);
  ASSERT_EQ(newest.value().size(), 1u);
  EXPECT_EQ(newest.value()[0].decision_id, 2u);
}

TEST_F(AuditTablesTest, RefusesDecisionsThatDoNotFit) {
  MetadataStore store = open_store();
  auto run = start_session(store);
  ASSERT_TRUE(store.decision_opened(run, push_decision(1, 2000)));
  EXPECT_NE(store.decision_opened(run, push_decision(1, 2001)).error().message.find("already"),
            std::string::npos);
  DecisionRecord bad_source = push_decision(2, 2000);
  bad_source.source = "agent";
  EXPECT_FALSE(store.decision_opened(run, bad_source));
  DecisionRecord other_session = push_decision(3, 2000);
  other_session.session_id = 7;
  EXPECT_FALSE(store.decision_opened(run, other_session));
  EXPECT_FALSE(store.decision_answered(run, 1, "maybe", "cli", 1, ""));
  EXPECT_FALSE(store.decision_answered(run, 1, "pending", "cli", 1, ""));
  EXPECT_FALSE(store.decision_answered(run, 99, "approved", "cli", 1, ""));
  EXPECT_EQ(store.decisions(run, 1, 10).value().size(), 1u);
  EXPECT_EQ(store.decisions(run, 1, 10).value()[0].outcome, "pending");
}

TEST_F(AuditTablesTest, RecordsInputAttributionAndNeverTheBytes) {
  MetadataStore store = open_store();
  auto run = start_session(store);
  ASSERT_TRUE(store.input_received(run, 1, "window", "phone", 2000));
  ASSERT_TRUE(store.input_received(run, 1, "mcp", "claude-code", 3000));
  ASSERT_TRUE(store.input_received(run, 1, "cli", "", 4000));
  auto rows = store.input_attributions(run, 1, 10);
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows.value().size(), 3u);
  EXPECT_EQ(rows.value()[0].client_kind, "cli");
  EXPECT_EQ(rows.value()[1].client_label, "claude-code");
  EXPECT_EQ(rows.value()[2].client_kind, "window");
  EXPECT_FALSE(store.input_received(run, 1, "keyboard", "", 1));
  EXPECT_FALSE(store.input_received(run, 1, "rest", std::string(300, 'x'), 1));
  EXPECT_FALSE(store.input_received(run, 5, "rest", "", 1));
  EXPECT_EQ(store.input_attributions(run, 1, 10).value().size(), 3u);
}

TEST_F(AuditTablesTest, SessionAuditGathersCapabilitiesDecisionsRefusalsAndInputs) {
  MetadataStore store = open_store();
  const std::string caps = R"({"sandboxed":true,"network":"allow","allow":["api.example:443"]})";
  auto run = start_session(store, caps);
  ASSERT_TRUE(store.egress_refused(run, 1, "a.example", 443, 2000));
  ASSERT_TRUE(store.egress_refused(run, 1, "b.example", 443, 2001));
  ASSERT_TRUE(store.decision_opened(run, push_decision(1, 2000)));
  ASSERT_TRUE(store.input_received(run, 1, "rest", "", 2000));
  auto audit = store.session_audit(run, 1);
  ASSERT_TRUE(audit) << audit.error().message;
  EXPECT_EQ(audit.value().capabilities_json, caps);
  EXPECT_EQ(audit.value().egress_refusals, 2u);
  ASSERT_EQ(audit.value().decisions.size(), 1u);
  ASSERT_EQ(audit.value().inputs.size(), 1u);
  auto none = store.session_audit(run, 3);
  ASSERT_TRUE(none);
  EXPECT_EQ(none.value().capabilities_json, "");
  EXPECT_EQ(none.value().egress_refusals, 0u);

  // A reader beside the writer sees the same.
  auto reader = MetadataStore::open_read_only(db_path_);
  ASSERT_TRUE(reader) << reader.error().message;
  EXPECT_EQ(reader.value().session_audit(run, 1).value().egress_refusals, 2u);
  EXPECT_FALSE(reader.value().egress_refused(run, 1, "c.example", 1, 1));
}

// The schema a version-3 wharf wrote, verbatim, with a session and its events.
constexpr const char* kVersion3File = R"sql(
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
  entry TEXT NOT NULL DEFAULT '',
  kind TEXT NOT NULL,
  program TEXT NOT NULL,
  cwd TEXT NOT NULL,
  owner TEXT NOT NULL,
  env_names TEXT NOT NULL,
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
CREATE TABLE session_events (
  run_id INTEGER NOT NULL,
  session_id INTEGER NOT NULL,
  at INTEGER NOT NULL,
  event TEXT NOT NULL
    CHECK (event IN ('started', 'renamed', 'exited', 'ended', 'interrupted', 'crashed',
                     'reattached')),
  detail TEXT,
  FOREIGN KEY (run_id, session_id) REFERENCES sessions (run_id, session_id)
) STRICT;
CREATE INDEX sessions_live ON sessions (status) WHERE status IN ('running', 'ending');
CREATE INDEX sessions_by_created ON sessions (created_at);
CREATE INDEX session_events_by_session ON session_events (run_id, session_id);
PRAGMA application_id = 2003329394;
PRAGMA user_version = 3;

INSERT INTO runs (id, started_at, stopped_at, pid) VALUES (1, 1000, 5000, 41);
INSERT INTO sessions (run_id, session_id, name, entry, kind, program, cwd, owner, env_names,
                      status, exit_code, created_at, ended_at)
  VALUES (1, 1, 'bash 1', 'bash', 'shell', '/bin/bash', '/srv', 'key', '["PATH"]', 'exited', 0,
          1100, 4000);
INSERT INTO session_events (run_id, session_id, at, event) VALUES (1, 1, 1100, 'started');
INSERT INTO session_events (run_id, session_id, at, event) VALUES (1, 1, 4000, 'exited');
)sql";

TEST_F(AuditTablesTest, MigratesAVersionThreeFileKeepingItsHistory) {
  raw_exec(db_path_, kVersion3File);
  // Read as it is first: a version-3 file has no audit, and nothing is written.
  {
    auto reader = MetadataStore::open_read_only(db_path_);
    ASSERT_TRUE(reader) << reader.error().message;
    auto audit = reader.value().session_audit(1, 1);
    ASSERT_TRUE(audit) << audit.error().message;
    EXPECT_EQ(audit.value().capabilities_json, "");
    EXPECT_TRUE(audit.value().decisions.empty());
    EXPECT_TRUE(reader.value().egress_refusals(1, 1, 10).value().empty());
    EXPECT_TRUE(reader.value().input_attributions(1, 1, 10).value().empty());
  }
  EXPECT_EQ(raw_text(db_path_, "PRAGMA user_version"), "3");

  MetadataStore store = open_store();
  EXPECT_EQ(raw_text(db_path_, "PRAGMA user_version"), "4");
  auto old = store.find_session(1, 1);
  ASSERT_TRUE(old) << old.error().message;
  ASSERT_TRUE(old.value());
  EXPECT_EQ(old.value()->name, "bash 1");
  EXPECT_EQ(old.value()->status, "exited");
  EXPECT_EQ(store.session_events(1, 1).value().size(), 2u);
  EXPECT_EQ(store.session_audit(1, 1).value().capabilities_json, "");

  // The new tables take rows, for old sessions and new ones alike.
  ASSERT_TRUE(store.egress_refused(1, 1, "old.example", 443, 4500));
  auto run = store.begin_run(6000, 43);
  ASSERT_TRUE(run);
  ASSERT_TRUE(store.session_started(run.value().run_id,
                                    SessionRecord{.session_id = 1,
                                                  .name = "claude 1",
                                                  .entry = "claude",
                                                  .kind = "agent",
                                                  .program = "/usr/bin/claude",
                                                  .cwd = "/srv",
                                                  .owner = "local",
                                                  .env_names = {},
                                                  .created_at_ms = 6100,
                                                  .capabilities_json = R"({"sandboxed":false})"}));
  ASSERT_TRUE(store.decision_opened(run.value().run_id, push_decision(1, 6200)));
  EXPECT_EQ(store.session_audit(run.value().run_id, 1).value().capabilities_json,
            R"({"sandboxed":false})");
  EXPECT_EQ(store.session_audit(1, 1).value().egress_refusals, 1u);
  // STRICT tables with their checks and foreign keys.
  std::string decisions_sql =
      raw_text(db_path_, "SELECT sql FROM sqlite_schema WHERE name = 'decisions'");
  EXPECT_NE(decisions_sql.find("STRICT"), std::string::npos);
  EXPECT_NE(decisions_sql.find("REFERENCES sessions"), std::string::npos);
  EXPECT_EQ(raw_text(db_path_, "SELECT count(*) FROM pragma_foreign_key_check"), "0");
}

}  // namespace
}  // namespace wharf::store
