#include "db/bulk_indexes.h"

#include <chrono>

#include "db/db_error.h"
#include "db/schema.h"
#include "db/sqlite_handle.h"

namespace fabric::db {
namespace {

// Runs `sql` in one write transaction, rolled back on error.
void exec_transaction(sqlite3* db, const std::string& path, const std::string& action, const std::string& sql) {
  exec(db, path, action, "BEGIN IMMEDIATE");
  try {
    exec(db, path, action, sql.c_str());
    exec(db, path, action, "COMMIT");
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace

std::vector<std::string> drop_bulk_indexes(sqlite3* db, const std::string& path) {
  std::vector<std::string> names, creates;
  {
    Statement list = prepare(db, path,
                             "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL AND "
                             "tbl_name IN ('frames', 'deliveries', 'drops', 'samples', 'events') ORDER BY name");
    int rc;
    while ((rc = sqlite3_step(list.get())) == SQLITE_ROW) {
      names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(list.get(), 0)));
      creates.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(list.get(), 1)));
    }
    if (rc != SQLITE_DONE) throw_db_error(path, "listing the indexes", db, rc);
  }
  if (names.empty()) return creates;
  std::string sql;
  for (const std::string& name : names) sql += "DROP INDEX \"" + name + "\"; ";
  exec_transaction(db, path, "dropping the indexes before loading a run", sql);
  return creates;
}

double create_bulk_indexes(sqlite3* db, const std::string& path, const std::vector<std::string>& dropped) {
  const auto start = std::chrono::steady_clock::now();
  exec(db, path, "building the indexes", "PRAGMA threads = 1");  // a helper thread sorts alongside
  std::string sql = kSchemaIndexesSql;
  // SQLite stores "CREATE [UNIQUE] INDEX name ...": made IF NOT EXISTS, so
  // the schema's own indexes, among them, are not created twice.
  for (const std::string& create : dropped) {
    const size_t at = create.find("INDEX ");
    if (at == std::string::npos) continue;
    sql += "\n" + create.substr(0, at + 6) + "IF NOT EXISTS " + create.substr(at + 6) + ";";
  }
  exec_transaction(db, path, "building the indexes", sql);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace fabric::db
