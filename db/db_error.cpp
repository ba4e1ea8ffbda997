#include "db/db_error.h"

#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

namespace fabric::db {
namespace {

// The words for a file that could not grow, by the errno of the write.
const char* out_of_space_reason(int error_number) {
  switch (error_number) {
    case EFBIG:
      return "the file reached the largest size this process may write (ulimit -f)";
    case EDQUOT:
      return "the disk quota is used up";
    case ENOSPC:
      return "the disk is full";
    default:
      return "the disk is full or the file reached its size limit (ulimit -f)";
  }
}

int64_t file_size(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? static_cast<int64_t>(st.st_size) : 0;
}

// Why a write to `db`'s file failed when its errno does not say: SQLite
// grows the file with posix_fallocate, which returns its error without
// setting errno, and then says a bare SQLITE_IOERR_WRITE. A checkpoint
// grows the file by up to the journal's size: with the file and journal
// together at the process's size limit that is EFBIG, with less room on
// the disk than the journal holds ENOSPC; 0 when neither.
int inferred_write_errno(sqlite3* db) {
  const char* name = sqlite3_db_filename(db, "main");
  if (name == nullptr || *name == '\0') return 0;
  const std::string file = name;
  const int64_t journal = std::max(file_size(file + "-wal"), file_size(file + "-journal"));
  rlimit limit{};
  if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      file_size(file) + journal >= static_cast<int64_t>(limit.rlim_cur))
    return EFBIG;
  const std::string dir = file.find('/') == std::string::npos ? "." : file.substr(0, file.rfind('/') + 1);
  struct statvfs disk {};
  if (statvfs(dir.c_str(), &disk) == 0 && static_cast<double>(disk.f_bavail) * static_cast<double>(disk.f_frsize) <
                                              static_cast<double>(journal) + (1 << 20))
    return ENOSPC;
  return 0;
}

bool is_out_of_space(int error_number) {
  return error_number == EFBIG || error_number == ENOSPC || error_number == EDQUOT;
}

}  // namespace

SqliteFailure sqlite_failure(sqlite3* db, int rc) {
  const std::string detail = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  int error_number = db ? sqlite3_system_errno(db) : 0;
  // SQLite keeps no errno with SQLITE_FULL, nor with a failed posix_fallocate.
  if (db && (rc == SQLITE_IOERR_WRITE || (rc & 0xff) == SQLITE_FULL) && !is_out_of_space(error_number))
    error_number = inferred_write_errno(db);
  switch (rc & 0xff) {  // primary code; extended codes refine it
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return {"the database is locked by another connection: " + detail};
    case SQLITE_NOTADB:
      return {"it is not a fabricsim database (not an SQLite file): " + detail};
    case SQLITE_READONLY:
      return {"the file is read-only: " + detail};
    case SQLITE_FULL:
      return {out_of_space_reason(error_number), true};
    case SQLITE_CANTOPEN:
      return {"the file cannot be opened or created: " + detail};
    case SQLITE_IOERR:
      // SQLite says SQLITE_FULL for ENOSPC only; EFBIG (a write past
      // ulimit -f, with SIGXFSZ ignored) comes as an I/O error.
      if (is_out_of_space(error_number)) return {out_of_space_reason(error_number), true};
      return {"input/output error: " + detail};
    case SQLITE_CORRUPT:
      return {"the database file is corrupt: " + detail};
    default:
      return {detail};
  }
}

std::string sqlite_reason(sqlite3* db, int rc) { return sqlite_failure(db, rc).reason; }

void throw_db_error(const std::string& path, const std::string& action, sqlite3* db, int rc) {
  throw_db_error(path, action, sqlite_failure(db, rc));
}

void throw_db_error(const std::string& path, const std::string& action, const SqliteFailure& failure) {
  throw DbError("database '" + path + "': " + action + ": " + failure.reason, failure.out_of_space);
}

void throw_db_error(const std::string& path, const std::string& action, const std::string& reason) {
  throw DbError("database '" + path + "': " + action + ": " + reason);
}

}  // namespace fabric::db
