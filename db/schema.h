#pragma once
// The fabricsim database schema (see db/schema.sql, the copy of record) and
// the steps that bring an older file up to it (db/migrations.sql).
#include <string>
#include <utility>
#include <vector>

namespace fabric::db {

// Tables, the meta rows and the views; safe to run on an existing database.
extern const char* const kSchemaTablesSql;
// CREATE INDEX IF NOT EXISTS statements for the bulk tables, run when a
// file is opened; the indexes are then kept up as rows go in.
extern const char* const kSchemaIndexesSql;
// db/migrations.sql: a step per older version, from "-- from N" to the next.
extern const char* const kMigrationsSql;

// meta('schema_version') this code writes and understands.
constexpr const char* kSchemaVersion = "6";

// The steps of db/migrations.sql in order: (the version a step starts from,
// its SQL, which ends by setting the next version).
std::vector<std::pair<std::string, std::string>> migration_steps();
// The SQL that brings a file of `version` up to kSchemaVersion, or empty
// when no step starts at it (a version this code cannot read).
std::string migration_from(const std::string& version);

}  // namespace fabric::db
