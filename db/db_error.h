#pragma once
// The one exception type of db/: every failure names the database file and
// says in plain words what went wrong.
#include <stdexcept>
#include <string>

struct sqlite3;

namespace fabric::db {

class DbError : public std::runtime_error {
 public:
  explicit DbError(const std::string& message, bool out_of_space = false)
      : std::runtime_error(message), out_of_space_(out_of_space) {}
  // The file could not grow: a full disk (ENOSPC), a used-up quota or the
  // process's file size limit (EFBIG, ulimit -f). What was committed before
  // is intact.
  bool out_of_space() const { return out_of_space_; }

 private:
  bool out_of_space_;
};

// What SQLite said about a failure, read before a reset can change it.
struct SqliteFailure {
  std::string reason;  // e.g. "the database is locked by another connection: ..."
  bool out_of_space = false;
};

// The failure of SQLite result `rc` on `db` (which may be null): SQLITE_FULL,
// or an I/O error whose errno is ENOSPC, EDQUOT or EFBIG, is out of space.
SqliteFailure sqlite_failure(sqlite3* db, int rc);
// Its reason alone.
std::string sqlite_reason(sqlite3* db, int rc);

// Throws DbError("database '<path>': <action>: <reason>").
[[noreturn]] void throw_db_error(const std::string& path, const std::string& action, sqlite3* db, int rc);
[[noreturn]] void throw_db_error(const std::string& path, const std::string& action, const SqliteFailure& failure);
[[noreturn]] void throw_db_error(const std::string& path, const std::string& action, const std::string& reason);

}  // namespace fabric::db
