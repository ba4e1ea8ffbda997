#pragma once
// Opening a results file: create it or check that an existing one is a
// fabricsim database, then make sure the current schema is present.
#include <string>

#include "db/sqlite_handle.h"

namespace fabric::db {

// Opens or creates `path` for writing and applies the schema (tables only;
// indexes come after a run's bulk load). Throws DbError, naming the path and
// the reason, when the file cannot be created, is not SQLite, belongs to
// another tool, has an unknown schema version or is locked for longer than
// kBusyTimeoutMs. Never modifies rows already in the file.
Connection open_fabric_database(const std::string& path);

}  // namespace fabric::db
