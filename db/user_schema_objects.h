#pragma once
// A user's own views, indexes and triggers in a results file (entries of
// sqlite_schema that fabricsim's schema does not name, db/schema.sql and
// db/migrations.sql) kept across a schema upgrade that rebuilds tables:
// set aside before the upgrade's steps and created again after them and the
// schema, in the same transaction. fabricpy/user_schema_objects.py does the
// same for the Python tools.
//
// Set aside: every view and trigger of the user's (SQLite checks each one
// whenever a table is renamed, whatever it reads, so one on a rebuilt
// table stops the upgrade) and the indexes of the tables the upgrade
// rebuilds (dropped with them).
#include <string>
#include <vector>

#include <sqlite3.h>

namespace fabric::db {

struct SchemaObject {
  std::string type;  // view, index or trigger
  std::string name;
  std::string sql;  // its CREATE statement, as sqlite_schema keeps it
};

// The tables `upgrade_sql` rebuilds: those its steps drop.
std::vector<std::string> tables_rebuilt_by(const std::string& upgrade_sql);

// Drops the user's objects that the upgrade `upgrade_sql` would stop on or
// lose, and returns them in the order they were created. Call inside the
// upgrade's transaction.
std::vector<SchemaObject> set_aside_user_objects(sqlite3* db, const std::string& path, const std::string& upgrade_sql);

// Creates `objects` again, after the upgrade and the schema, in the same
// transaction. Throws DbError naming each object that cannot be (it names
// a column or table the upgrade removed) and how to proceed; the caller's
// transaction then rolls back and leaves the file as it was.
// `upgrade` says what is upgraded: "from schema version 4 to 5".
void restore_user_objects(sqlite3* db, const std::string& path, const std::vector<SchemaObject>& objects,
                          const std::string& upgrade);

}  // namespace fabric::db
