// Thin RAII over the sqlite3 C API: a prepared Statement that is always finalized, and a
// Transaction that rolls back unless committed. Values only ever reach SQL through
// sqlite3_bind_*; the SQL text handed to prepare() is a constant written in this
// module, never assembled from data.
//
// Both types borrow the connection; they must not outlive the MetadataStore that owns
// it (they only ever live inside one of its member functions).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace wharf::store {

// sqlite3_errmsg() of `db`, prefixed with what was being attempted.
core::Error sqlite_error(sqlite3* db, std::string_view what);

class Statement {
 public:
  static core::Result<Statement> prepare(sqlite3* db, std::string_view sql);

  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Parameters are 1-based, as in SQL. A failed bind is remembered and reported by the
  // next step(), so call sites can bind a run of values without checking each one.
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, std::optional<int> value);  // nullopt binds NULL

  // True when a row is ready to read, false when the statement has finished.
  core::Result<bool> step();
  // Steps a statement that returns no rows to completion.
  core::Status run();

  bool column_is_null(int index) const;
  std::int64_t column_int64(int index) const;
  std::string column_text(int index) const;
  std::optional<std::int64_t> column_optional_int64(int index) const;

 private:
  Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  void note_bind(int rc);

  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
  int bind_error_ = 0;  // first non-OK sqlite3_bind_* code, 0 when all succeeded
};

// BEGIN IMMEDIATE takes the write lock up front, so a busy database is waited for (the
// busy timeout) at the start instead of failing halfway through an upgrade to writer.
class Transaction {
 public:
  static core::Result<Transaction> begin(sqlite3* db);

  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();  // rolls back when commit() was not reached or failed

  core::Status commit();

 private:
  explicit Transaction(sqlite3* db) : db_(db) {}
  sqlite3* db_ = nullptr;  // null once committed or moved from
};

// A deferred BEGIN: the first read takes a snapshot that every later read in the
// transaction shares, so two queries see one state of a file another process writes.
// Ends with ROLLBACK (it never wrote anything), so it also works on a read-only
// connection.
class ReadTransaction {
 public:
  static core::Result<ReadTransaction> begin(sqlite3* db);

  ReadTransaction(ReadTransaction&& other) noexcept;
  ReadTransaction& operator=(ReadTransaction&&) = delete;
  ReadTransaction(const ReadTransaction&) = delete;
  ReadTransaction& operator=(const ReadTransaction&) = delete;
  ~ReadTransaction();

 private:
  explicit ReadTransaction(sqlite3* db) : db_(db) {}
  sqlite3* db_ = nullptr;  // null once moved from
};

}  // namespace wharf::store
