#include "store/sqlite_statement.hpp"

#include <sqlite3.h>

#include <utility>

namespace wharf::store {

core::Error sqlite_error(sqlite3* db, std::string_view what) {
  std::string message(what);
  message += ": ";
  message += db != nullptr ? sqlite3_errmsg(db) : "no database connection";
  return core::Error{std::move(message)};
}

core::Result<Statement> Statement::prepare(sqlite3* db, std::string_view sql) {
  if (db == nullptr) return core::Error{"the metadata database is closed"};
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);  // null-safe; prepare leaves it null on failure anyway
    return sqlite_error(db, "cannot prepare a metadata query");
  }
  return Statement(db, stmt);
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)), bind_error_(other.bind_error_) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = other.db_;
    stmt_ = std::exchange(other.stmt_, nullptr);
    bind_error_ = other.bind_error_;
  }
  return *this;
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

void Statement::note_bind(int rc) {
  if (rc != SQLITE_OK && bind_error_ == 0) bind_error_ = rc;
}

Statement& Statement::bind(int index, std::int64_t value) {
  note_bind(sqlite3_bind_int64(stmt_, index, value));
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  // An empty view may carry a null data pointer, which SQLite would bind as NULL; an
  // empty name is text, not a missing one. SQLITE_TRANSIENT: SQLite copies the bytes.
  const char* data = value.data() != nullptr ? value.data() : "";
  note_bind(sqlite3_bind_text64(stmt_, index, data, value.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  return *this;
}

Statement& Statement::bind(int index, std::optional<int> value) {
  note_bind(value ? sqlite3_bind_int(stmt_, index, *value) : sqlite3_bind_null(stmt_, index));
  return *this;
}

core::Result<bool> Statement::step() {
  if (bind_error_ != 0) {
    return core::Error{std::string("cannot pass a value to a metadata query: ") +
                       sqlite3_errstr(bind_error_)};
  }
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return sqlite_error(db_, "metadata query failed");
}

core::Status Statement::run() {
  for (;;) {
    auto row = step();
    if (!row) return row.error();
    if (!row.value()) return core::ok_status();
  }
}

bool Statement::column_is_null(int index) const {
  return sqlite3_column_type(stmt_, index) == SQLITE_NULL;
}

std::int64_t Statement::column_int64(int index) const {
  return sqlite3_column_int64(stmt_, index);
}

std::string Statement::column_text(int index) const {
  const unsigned char* text = sqlite3_column_text(stmt_, index);
  if (text == nullptr) return {};
  // column_bytes after column_text gives the length of that UTF-8 text (NULs included).
  auto size = static_cast<std::size_t>(sqlite3_column_bytes(stmt_, index));
  return std::string(reinterpret_cast<const char*>(text), size);
}

std::optional<std::int64_t> Statement::column_optional_int64(int index) const {
  if (column_is_null(index)) return std::nullopt;
  return column_int64(index);
}

core::Result<Transaction> Transaction::begin(sqlite3* db) {
  if (db == nullptr) return core::Error{"the metadata database is closed"};
  if (sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
    return sqlite_error(db, "cannot start a metadata transaction");
  }
  return Transaction(db);
}

Transaction::Transaction(Transaction&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}

Transaction::~Transaction() {
  // A failed statement may already have rolled SQLite back on its own; only roll back
  // what is still open, so this never reports a spurious "no transaction is active".
  if (db_ != nullptr && sqlite3_get_autocommit(db_) == 0) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
}

core::Status Transaction::commit() {
  if (db_ == nullptr) return core::Error{"the metadata transaction is no longer open"};
  if (sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
    return sqlite_error(db_, "cannot save to the metadata database");
  }
  db_ = nullptr;
  return core::ok_status();
}

core::Result<ReadTransaction> ReadTransaction::begin(sqlite3* db) {
  if (db == nullptr) return core::Error{"the metadata database is closed"};
  if (sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK) {
    return sqlite_error(db, "cannot start reading the metadata database");
  }
  return ReadTransaction(db);
}

ReadTransaction::ReadTransaction(ReadTransaction&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)) {}

ReadTransaction::~ReadTransaction() {
  if (db_ != nullptr && sqlite3_get_autocommit(db_) == 0) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
}

}  // namespace wharf::store
