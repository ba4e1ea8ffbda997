#pragma once
// Helpers for the db/ tests: throw-away database files, finding the source
// tree (for db/schema.sql and db/queries/), and running SQL with named
// parameters through the SQLite C API.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace fabric::db::testing {

// A unique path in the temp directory; the file and its -wal/-shm/-journal
// companions are removed on construction and destruction.
class TempDbPath {
 public:
  TempDbPath();
  ~TempDbPath();
  TempDbPath(const TempDbPath&) = delete;
  TempDbPath& operator=(const TempDbPath&) = delete;
  const std::string& str() const { return path_; }

 private:
  std::string path_;
};

// The source tree: $FABRICSIM_SOURCE_DIR, else ".", "..", "../.." from the
// working directory, else derived from this file's compile-time path;
// the first that holds db/schema.sql. nullopt if none does.
std::optional<std::filesystem::path> source_dir();

std::string read_file(const std::filesystem::path& path);

using Value = std::variant<std::monostate, int64_t, double, std::string>;

struct QueryResult {
  std::vector<std::string> columns;
  std::vector<std::vector<Value>> rows;

  size_t col(const std::string& name) const;  // throws if absent
  const Value& at(size_t row, const std::string& name) const { return rows.at(row).at(col(name)); }
  bool is_null(size_t row, const std::string& name) const;
  int64_t integer(size_t row, const std::string& name) const;  // throws unless an integer
  double real(size_t row, const std::string& name) const;      // integers too
  std::string text(size_t row, const std::string& name) const;
};

using Params = std::map<std::string, Value>;  // "@run" -> 1

// Runs every statement of `sql` on the database at `db_path` (opened
// read-only), binding the named parameters that appear in it (unset ones
// stay NULL, as in the sqlite3 shell); returns the result of the last
// statement that has result columns. Throws std::runtime_error on SQL errors.
QueryResult run_sql(const std::string& db_path, const std::string& sql, const Params& params = {});

// Runs `sql` on its own read-write connection, as another process would;
// throws std::runtime_error on errors.
void exec_other(const std::string& db_path, const std::string& sql);

// Turns the file of this schema version at `db_path` into one of an older
// `version`, as fabricsim wrote it then (tests/db/older_schemas/
// version_<N>.sql, applied from the newest down); throws std::runtime_error.
void back_to_schema_version(const std::string& db_path, int version);

// Shorthand for a single integer result, e.g. "SELECT count(*) FROM frames".
int64_t query_int(const std::string& db_path, const std::string& sql);

}  // namespace fabric::db::testing
