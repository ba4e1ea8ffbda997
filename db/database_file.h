#pragma once
// Opening a results file: create it or check that an existing one is a
// fabricsim database, then make sure the current schema is present.
#include <string>

#include "db/lock_wait.h"
#include "db/sqlite_handle.h"

namespace fabric::db {

// Opens or creates `path` for writing and applies the schema (tables and
// indexes). Waits for other writers' locks as `lock_wait` says (it must
// outlive the connection). Throws DbError, naming the path and the reason,
// when the file cannot be created, is not SQLite, belongs to another tool,
// has an unknown schema version or stays locked past the wait's limit.
// Never modifies rows already in the file.
Connection open_fabric_database(const std::string& path, LockWait& lock_wait);

}  // namespace fabric::db
