// The audit tables of sandboxed sessions (schema version 4, metadata_store.cpp's
// kMigrations[3]): connections the egress proxy refused, decisions and who answered them,
// and which kind of client typed into a session. Member functions of MetadataStore kept
// apart so the lifecycle file stays readable.
//
// Invariants, as for the rest of the store: each write is one statement (one implicit
// transaction), values are always bound (no SQL is assembled), and nothing recorded here
// is a payload: a host and a port, a command line a person is asked to judge, a client's
// kind and name. Every row names a session the store already has (the foreign key).
#include <sqlite3.h>

#include <boost/json.hpp>
#include <limits>

#include "store/metadata_store.hpp"
#include "store/sqlite_statement.hpp"

namespace wharf::store {
namespace {

// The same bounds as metadata_store.cpp's: ids are small counters, never wrapped.
std::optional<std::int64_t> db_id(std::uint64_t id) {
  if (id > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return std::nullopt;
  return static_cast<std::int64_t>(id);
}

std::int64_t db_limit(std::size_t limit) {
  return limit > static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max())
             ? std::numeric_limits<std::int64_t>::max()
             : static_cast<std::int64_t>(limit);
}

// The rows one session has in an audit table, from a query whose ?1, ?2 and ?3 are the
// run, the session and the limit; `read` makes one row of the statement's current result.
// An older schema has no such table: no rows.
template <typename Row, typename Read>
core::Result<std::vector<Row>> session_rows(sqlite3* db, int schema_version, const char* sql,
                                            std::int64_t run_id, std::uint64_t session_id,
                                            std::size_t limit, Read read) {
  std::vector<Row> rows;
  auto id = db_id(session_id);
  if (!id || schema_version < 4) return rows;
  auto stmt = Statement::prepare(db, sql);
  if (!stmt) return stmt.error();
  Statement& s = stmt.value();
  s.bind(1, run_id).bind(2, *id).bind(3, db_limit(limit));
  for (;;) {
    auto more = s.step();
    if (!more) return more.error();
    if (!more.value()) break;
    rows.push_back(read(s));
  }
  return rows;
}

std::string encode_argv(const std::vector<std::string>& argv) {
  boost::json::array array;
  for (const std::string& word : argv) array.emplace_back(word);
  return boost::json::serialize(array);
}

// A damaged cell reads as no words rather than failing the whole history.
std::vector<std::string> decode_argv(std::string_view text) {
  std::vector<std::string> argv;
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(text, ec);
  if (ec || !value.is_array()) return argv;
  for (const boost::json::value& word : value.get_array())
    if (word.is_string()) argv.emplace_back(word.get_string());
  return argv;
}

bool known_outcome(std::string_view outcome) {
  return outcome == "approved" || outcome == "denied" || outcome == "expired" ||
         outcome == "withdrawn";
}

// The foreign key's failure in words: the common mistake is a session never recorded.
std::string constraint_words(sqlite3* db, const core::Error& error) {
  if (sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_FOREIGNKEY)
    return "no such session was recorded in this run";
  return error.message;
}

}  // namespace

core::Status MetadataStore::egress_refused(std::int64_t run_id, std::uint64_t session_id,
                                           std::string_view host, int port, std::int64_t at_ms) {
  auto fail = [&](const std::string& why) {
    return core::Error{
        error("cannot record a refused connection of session " + std::to_string(session_id))
            .message +
        ": " + why};
  };
  auto id = db_id(session_id);
  if (!id) return fail("the session id is out of range");
  if (port < 0 || port > 65535) return fail("the port is out of range");
  if (host.empty() || host.size() > 255) return fail("the host name is empty or too long");
  auto stmt = Statement::prepare(db_,
                                 "INSERT INTO egress_refusals (run_id, session_id, at, host, port) "
                                 "VALUES (?1, ?2, ?3, ?4, ?5)");
  if (!stmt) return fail(stmt.error().message);
  stmt.value().bind(1, run_id).bind(2, *id).bind(3, at_ms).bind(4, host).bind(5,
                                                                              std::int64_t{port});
  if (auto done = stmt.value().run(); !done) return fail(constraint_words(db_, done.error()));
  return core::ok_status();
}

core::Result<std::vector<EgressRefusal>> MetadataStore::egress_refusals(std::int64_t run_id,
                                                                        std::uint64_t session_id,
                                                                        std::size_t limit) const {
  return session_rows<EgressRefusal>(db_, schema_version_,
                                     "SELECT at, host, port FROM egress_refusals "
                                     "WHERE run_id = ?1 AND session_id = ?2 "
                                     "ORDER BY at DESC, rowid DESC LIMIT ?3",
                                     run_id, session_id, limit, [](Statement& s) {
                                       return EgressRefusal{
                                           .at_ms = s.column_int64(0),
                                           .host = s.column_text(1),
                                           .port = static_cast<int>(s.column_int64(2))};
                                     });
}

core::Status MetadataStore::decision_opened(std::int64_t run_id, const DecisionRecord& record) {
  auto fail = [&](const std::string& why) {
    return core::Error{
        error("cannot record decision " + std::to_string(record.decision_id)).message + ": " + why};
  };
  auto session = db_id(record.session_id);
  auto decision = db_id(record.decision_id);
  if (!session || !decision) return fail("an id is out of range");
  if (record.source != "guard" && record.source != "prompt")
    return fail("its source must be \"guard\" or \"prompt\"");
  auto stmt = Statement::prepare(
      db_,
      "INSERT INTO decisions (run_id, session_id, decision_id, opened_at, what, argv, cwd, "
      "source, outcome, decision_run) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'pending', ?9)");
  if (!stmt) return fail(stmt.error().message);
  std::string argv = encode_argv(record.argv);
  stmt.value()
      .bind(1, record.session_run_id != 0 ? record.session_run_id : run_id)
      .bind(2, *session)
      .bind(3, *decision)
      .bind(4, record.opened_at_ms)
      .bind(5, std::string_view(record.what))
      .bind(6, std::string_view(argv))
      .bind(7, std::string_view(record.cwd))
      .bind(8, std::string_view(record.source))
      .bind(9, run_id);
  if (auto done = stmt.value().run(); !done) {
    if (sqlite3_extended_errcode(db_) == SQLITE_CONSTRAINT_PRIMARYKEY)
      return fail("run " + std::to_string(run_id) + " already has a decision with this id");
    return fail(constraint_words(db_, done.error()));
  }
  return core::ok_status();
}

core::Status MetadataStore::decision_answered(std::int64_t run_id, std::uint64_t decision_id,
                                              std::string_view outcome,
                                              std::string_view answered_by,
                                              std::int64_t answered_at_ms, std::string_view note) {
  auto fail = [&](const std::string& why) {
    return core::Error{
        error("cannot record the answer to decision " + std::to_string(decision_id)).message +
        ": " + why};
  };
  if (!known_outcome(outcome))
    return fail("the outcome must be approved, denied, expired or withdrawn");
  auto id = db_id(decision_id);
  if (!id) return fail("the decision id is out of range");
  // Only a pending decision takes an answer: the first one recorded stands.
  auto stmt = Statement::prepare(
      db_,
      "UPDATE decisions SET outcome = ?1, answered_by = ?2, answered_at = ?3, note = ?4 "
      "WHERE decision_run = ?5 AND decision_id = ?6 AND outcome = 'pending'");
  if (!stmt) return fail(stmt.error().message);
  stmt.value()
      .bind(1, outcome)
      .bind(2, answered_by)
      .bind(3, answered_at_ms)
      .bind(4, note)
      .bind(5, run_id)
      .bind(6, *id);
  if (auto done = stmt.value().run(); !done) return fail(done.error().message);
  if (sqlite3_changes64(db_) == 0) return fail("no pending decision has this id in this run");
  return core::ok_status();
}

core::Result<std::vector<DecisionRecord>> MetadataStore::decisions(std::int64_t run_id,
                                                                   std::uint64_t session_id,
                                                                   std::size_t limit) const {
  return session_rows<DecisionRecord>(
      db_, schema_version_,
      "SELECT * FROM (SELECT decision_id, opened_at, what, argv, cwd, source, outcome, "
      "answered_by, answered_at, note, decision_run FROM decisions "
      "WHERE run_id = ?1 AND session_id = ?2 "
      "ORDER BY decision_run DESC, decision_id DESC LIMIT ?3) ORDER BY decision_run, decision_id",
      run_id, session_id, limit, [&](Statement& s) {
        std::int64_t decision = s.column_int64(0);
        return DecisionRecord{
            .session_id = session_id,
            .decision_id = decision < 0 ? 0 : static_cast<std::uint64_t>(decision),
            .session_run_id = run_id,
            .opened_at_ms = s.column_int64(1),
            .what = s.column_text(2),
            .argv = decode_argv(s.column_text(3)),
            .cwd = s.column_text(4),
            .source = s.column_text(5),
            .outcome = s.column_text(6),
            .answered_by = s.column_text(7),
            .answered_at_ms = s.column_optional_int64(8),
            .note = s.column_text(9),
        };
      });
}

core::Status MetadataStore::input_received(std::int64_t run_id, std::uint64_t session_id,
                                           std::string_view client_kind,
                                           std::string_view client_label, std::int64_t at_ms) {
  auto fail = [&](const std::string& why) {
    return core::Error{
        error("cannot record input to session " + std::to_string(session_id)).message + ": " + why};
  };
  auto id = db_id(session_id);
  if (!id) return fail("the session id is out of range");
  if (client_kind != "window" && client_kind != "cli" && client_kind != "rest" &&
      client_kind != "mcp")
    return fail("the client kind must be window, cli, rest or mcp");
  if (client_label.size() > 256) return fail("the client's label is over 256 bytes");
  auto stmt = Statement::prepare(
      db_,
      "INSERT INTO input_attribution (run_id, session_id, at, client_kind, client_label) "
      "VALUES (?1, ?2, ?3, ?4, ?5)");
  if (!stmt) return fail(stmt.error().message);
  stmt.value()
      .bind(1, run_id)
      .bind(2, *id)
      .bind(3, at_ms)
      .bind(4, client_kind)
      .bind(5, client_label);
  if (auto done = stmt.value().run(); !done) return fail(constraint_words(db_, done.error()));
  return core::ok_status();
}

core::Result<std::vector<InputAttributionRow>> MetadataStore::input_attributions(
    std::int64_t run_id, std::uint64_t session_id, std::size_t limit) const {
  return session_rows<InputAttributionRow>(
      db_, schema_version_,
      "SELECT at, client_kind, client_label FROM input_attribution "
      "WHERE run_id = ?1 AND session_id = ?2 "
      "ORDER BY at DESC, rowid DESC LIMIT ?3",
      run_id, session_id, limit, [](Statement& s) {
        return InputAttributionRow{.at_ms = s.column_int64(0),
                                   .client_kind = s.column_text(1),
                                   .client_label = s.column_text(2)};
      });
}

core::Result<SessionAudit> MetadataStore::session_audit(std::int64_t run_id,
                                                        std::uint64_t session_id) const {
  auto fail = [&](const core::Error& e) {
    return core::Error{
        error("cannot read the audit of session " + std::to_string(session_id)).message + ": " +
        e.message};
  };
  SessionAudit audit;
  auto id = db_id(session_id);
  if (!id || schema_version_ < 4) return audit;
  auto snapshot = ReadTransaction::begin(db_);
  if (!snapshot) return fail(snapshot.error());
  {
    auto stmt =
        Statement::prepare(db_,
                           "SELECT capabilities, (SELECT count(*) FROM egress_refusals AS e "
                           "WHERE e.run_id = s.run_id AND e.session_id = s.session_id) "
                           "FROM sessions AS s WHERE run_id = ?1 AND session_id = ?2");
    if (!stmt) return fail(stmt.error());
    stmt.value().bind(1, run_id).bind(2, *id);
    auto row = stmt.value().step();
    if (!row) return fail(row.error());
    if (row.value()) {
      audit.capabilities_json = stmt.value().column_text(0);
      std::int64_t count = stmt.value().column_int64(1);
      audit.egress_refusals = count < 0 ? 0 : static_cast<std::size_t>(count);
    }
  }
  auto decided = decisions(run_id, session_id, 100);
  if (!decided) return fail(decided.error());
  audit.decisions = std::move(decided.value());
  auto inputs = input_attributions(run_id, session_id, 100);
  if (!inputs) return fail(inputs.error());
  audit.inputs = std::move(inputs.value());
  return audit;
}

}  // namespace wharf::store
