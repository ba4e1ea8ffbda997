#include "db/db_error.h"

#include <sqlite3.h>

namespace fabric::db {

std::string sqlite_reason(sqlite3* db, int rc) {
  const std::string detail = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  switch (rc & 0xff) {  // primary code; extended codes refine it
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return "the database is locked by another connection: " + detail;
    case SQLITE_NOTADB:
      return "it is not a fabricsim database (not an SQLite file): " + detail;
    case SQLITE_READONLY:
      return "the file is read-only: " + detail;
    case SQLITE_FULL:
      return "the disk is full: " + detail;
    case SQLITE_CANTOPEN:
      return "the file cannot be opened or created: " + detail;
    case SQLITE_IOERR:
      return "input/output error: " + detail;
    case SQLITE_CORRUPT:
      return "the database file is corrupt: " + detail;
    default:
      return detail;
  }
}

void throw_db_error(const std::string& path, const std::string& action, sqlite3* db, int rc) {
  throw_db_error(path, action, sqlite_reason(db, rc));
}

void throw_db_error(const std::string& path, const std::string& action, const std::string& reason) {
  throw DbError("database '" + path + "': " + action + ": " + reason);
}

}  // namespace fabric::db
