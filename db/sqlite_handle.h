#pragma once
// Small RAII wrappers over the SQLite C API, so that every early return or
// exception still closes connections and finalizes statements.
#include <memory>
#include <string>

#include <sqlite3.h>

namespace fabric::db {

struct ConnectionCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using Connection = std::unique_ptr<sqlite3, ConnectionCloser>;

struct StatementFinalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Statement = std::unique_ptr<sqlite3_stmt, StatementFinalizer>;

// Prepares `sql` (one statement) for repeated use; throws DbError naming `path`.
Statement prepare(sqlite3* db, const std::string& path, const char* sql);

// Runs one or more statements that return no rows; throws DbError.
void exec(sqlite3* db, const std::string& path, const std::string& action, const char* sql);

// Runs `body` in one write transaction (BEGIN IMMEDIATE ... COMMIT), rolled
// back if it throws; throws DbError naming `action` if SQLite fails.
template <typename Body>
void in_write_transaction(sqlite3* db, const std::string& path, const std::string& action, Body&& body) {
  exec(db, path, action, "BEGIN IMMEDIATE");
  try {
    body();
    exec(db, path, action, "COMMIT");
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

// Steps a statement that returns no rows, then resets it for reuse;
// throws DbError on failure.
void step_done(sqlite3* db, sqlite3_stmt* s, const std::string& path, const std::string& action);

}  // namespace fabric::db
