#include "db/bulk_indexes.h"

#include <chrono>
#include <vector>

#include "db/db_error.h"
#include "db/schema.h"
#include "db/sqlite_handle.h"

namespace fabric::db {

void drop_bulk_indexes(sqlite3* db, const std::string& path) {
  std::vector<std::string> names;
  {
    Statement list = prepare(db, path,
                             "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL AND "
                             "tbl_name IN ('frames', 'deliveries', 'drops', 'samples', 'events')");
    int rc;
    while ((rc = sqlite3_step(list.get())) == SQLITE_ROW) {
      names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(list.get(), 0)));
    }
    if (rc != SQLITE_DONE) throw_db_error(path, "listing the indexes", db, rc);
  }
  if (names.empty()) return;
  std::string sql = "BEGIN IMMEDIATE;";
  for (const std::string& name : names) sql += " DROP INDEX \"" + name + "\";";
  sql += " COMMIT;";
  try {
    exec(db, path, "dropping the indexes before loading a run", sql.c_str());
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

double create_bulk_indexes(sqlite3* db, const std::string& path) {
  const auto start = std::chrono::steady_clock::now();
  // One helper thread sorts alongside (the simulation is over by now), and
  // a larger page cache keeps the sorter's merge passes in memory.
  exec(db, path, "building the indexes", "PRAGMA threads = 1; PRAGMA cache_size = -262144;");
  try {
    exec(db, path, "building the indexes", "BEGIN IMMEDIATE");
    exec(db, path, "building the indexes", kSchemaIndexesSql);
    exec(db, path, "building the indexes", "COMMIT");
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_exec(db, "PRAGMA cache_size = -65536", nullptr, nullptr, nullptr);
    throw;
  }
  exec(db, path, "building the indexes", "PRAGMA cache_size = -65536");
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace fabric::db
