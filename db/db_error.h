#pragma once
// The one exception type of db/: every failure names the database file and
// says in plain words what went wrong.
#include <stdexcept>
#include <string>

struct sqlite3;

namespace fabric::db {

class DbError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A readable reason for SQLite result `rc` on `db` (which may be null),
// e.g. "the database is locked by another connection: ...".
std::string sqlite_reason(sqlite3* db, int rc);

// Throws DbError("database '<path>': <action>: <reason>").
[[noreturn]] void throw_db_error(const std::string& path, const std::string& action, sqlite3* db, int rc);
[[noreturn]] void throw_db_error(const std::string& path, const std::string& action, const std::string& reason);

}  // namespace fabric::db
