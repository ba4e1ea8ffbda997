#include "tests/db/db_test_support.h"

#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "db/schema.h"

namespace fabric::db::testing {
namespace fs = std::filesystem;

namespace {

void remove_db_files(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path + suffix, ec);
}

}  // namespace

TempDbPath::TempDbPath() {
  static std::atomic<int> counter{0};
  path_ = (fs::temp_directory_path() /
           ("fabricsim_db_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".db"))
              .string();
  remove_db_files(path_);
}

TempDbPath::~TempDbPath() { remove_db_files(path_); }

std::optional<fs::path> source_dir() {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("FABRICSIM_SOURCE_DIR")) candidates.emplace_back(env);
  candidates.emplace_back(".");
  candidates.emplace_back("..");
  candidates.emplace_back("../..");
  // __FILE__ is tests/db/db_test_support.cpp inside the source tree.
  candidates.push_back(fs::path(__FILE__).parent_path().parent_path().parent_path());
  for (const fs::path& dir : candidates) {
    std::error_code ec;
    if (!dir.empty() && fs::is_regular_file(dir / "db" / "schema.sql", ec)) return dir;
  }
  return std::nullopt;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

size_t QueryResult::col(const std::string& name) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return i;
  }
  throw std::out_of_range("no column '" + name + "'");
}

bool QueryResult::is_null(size_t row, const std::string& name) const {
  return std::holds_alternative<std::monostate>(at(row, name));
}

int64_t QueryResult::integer(size_t row, const std::string& name) const { return std::get<int64_t>(at(row, name)); }

double QueryResult::real(size_t row, const std::string& name) const {
  const Value& v = at(row, name);
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}

std::string QueryResult::text(size_t row, const std::string& name) const {
  return std::get<std::string>(at(row, name));
}

QueryResult run_sql(const std::string& db_path, const std::string& sql, const Params& params) {
  sqlite3* raw_db = nullptr;
  const int open_rc = sqlite3_open_v2(db_path.c_str(), &raw_db, SQLITE_OPEN_READONLY, nullptr);
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw_db, sqlite3_close_v2);
  if (open_rc != SQLITE_OK) throw std::runtime_error("open " + db_path + ": " + sqlite3_errstr(open_rc));
  sqlite3_busy_timeout(db.get(), 2000);

  QueryResult last;
  const char* tail = sql.c_str();
  while (*tail) {
    sqlite3_stmt* raw_stmt = nullptr;
    if (sqlite3_prepare_v2(db.get(), tail, -1, &raw_stmt, &tail) != SQLITE_OK) {
      throw std::runtime_error(std::string("prepare: ") + sqlite3_errmsg(db.get()));
    }
    if (!raw_stmt) continue;  // only comments or whitespace left
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> stmt(raw_stmt, sqlite3_finalize);
    for (int i = 1; i <= sqlite3_bind_parameter_count(raw_stmt); ++i) {
      const char* name = sqlite3_bind_parameter_name(raw_stmt, i);
      auto it = name ? params.find(name) : params.end();
      if (it == params.end()) continue;
      if (const auto* v = std::get_if<int64_t>(&it->second)) sqlite3_bind_int64(raw_stmt, i, *v);
      if (const auto* v = std::get_if<double>(&it->second)) sqlite3_bind_double(raw_stmt, i, *v);
      if (const auto* v = std::get_if<std::string>(&it->second)) {
        sqlite3_bind_text(raw_stmt, i, v->c_str(), -1, SQLITE_TRANSIENT);
      }
    }
    QueryResult result;
    const int ncols = sqlite3_column_count(raw_stmt);
    for (int c = 0; c < ncols; ++c) result.columns.emplace_back(sqlite3_column_name(raw_stmt, c));
    int rc;
    while ((rc = sqlite3_step(raw_stmt)) == SQLITE_ROW) {
      std::vector<Value> row;
      for (int c = 0; c < ncols; ++c) {
        switch (sqlite3_column_type(raw_stmt, c)) {
          case SQLITE_INTEGER:
            row.emplace_back(int64_t{sqlite3_column_int64(raw_stmt, c)});
            break;
          case SQLITE_FLOAT:
            row.emplace_back(sqlite3_column_double(raw_stmt, c));
            break;
          case SQLITE_NULL:
            row.emplace_back(std::monostate{});
            break;
          default:
            row.emplace_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(raw_stmt, c))));
        }
      }
      result.rows.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) throw std::runtime_error(std::string("step: ") + sqlite3_errmsg(db.get()));
    if (ncols > 0) last = std::move(result);
  }
  return last;
}

void exec_other(const std::string& db_path, const std::string& sql) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open(db_path.c_str(), &db);
  std::string error;
  if (rc != SQLITE_OK) {
    error = sqlite3_errstr(rc);
  } else if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    error = sqlite3_errmsg(db);
  }
  sqlite3_close(db);
  if (!error.empty()) throw std::runtime_error(db_path + ": " + error);
}

void back_to_schema_version(const std::string& db_path, int version) {
  const std::optional<std::filesystem::path> dir = source_dir();
  if (!dir) throw std::runtime_error("source tree not found; set FABRICSIM_SOURCE_DIR");
  for (int v = std::stoi(kSchemaVersion) - 1; v >= version; --v)
    exec_other(db_path, read_file(*dir / "tests" / "db" / "older_schemas" / ("version_" + std::to_string(v) + ".sql")));
}

int64_t query_int(const std::string& db_path, const std::string& sql) {
  const QueryResult r = run_sql(db_path, sql);
  return std::get<int64_t>(r.rows.at(0).at(0));
}

}  // namespace fabric::db::testing
