#include "db/sqlite_handle.h"

#include "db/db_error.h"

namespace fabric::db {

Statement prepare(sqlite3* db, const std::string& path, const char* sql) {
  sqlite3_stmt* raw_stmt = nullptr;
  const int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &raw_stmt, nullptr);
  Statement stmt(raw_stmt);
  if (rc != SQLITE_OK) throw_db_error(path, std::string("preparing \"") + sql + "\"", db, rc);
  return stmt;
}

void exec(sqlite3* db, const std::string& path, const std::string& action, const char* sql) {
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) throw_db_error(path, action, db, rc);
}

void step_done(sqlite3* db, sqlite3_stmt* s, const std::string& path, const std::string& action) {
  const int rc = sqlite3_step(s);
  if (rc != SQLITE_DONE) {
    const SqliteFailure failure = sqlite_failure(db, rc);  // before reset can change it
    sqlite3_reset(s);
    throw_db_error(path, action, failure);
  }
  sqlite3_reset(s);
}

}  // namespace fabric::db
