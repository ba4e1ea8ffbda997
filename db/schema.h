#pragma once
// The fabricsim database schema (see db/schema.sql, the copy of record).

namespace fabric::db {

// Tables, the meta rows and the views; safe to run on an existing database.
extern const char* const kSchemaTablesSql;
// CREATE INDEX IF NOT EXISTS statements for the bulk tables, run when a
// file is opened; the indexes are then kept up as rows go in.
extern const char* const kSchemaIndexesSql;

// meta('schema_version') this code writes and understands.
constexpr const char* kSchemaVersion = "3";
// The version before it, which opening a file brings up to this one
// (kMigrateFromPreviousSql, in the schema's transaction).
constexpr const char* kPreviousSchemaVersion = "2";
constexpr const char* kMigrateFromPreviousSql =
    "ALTER TABLE runs ADD COLUMN platform TEXT; UPDATE meta SET value = '3' WHERE key = 'schema_version';";

}  // namespace fabric::db
