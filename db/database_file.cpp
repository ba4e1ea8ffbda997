#include "db/database_file.h"

#include <unistd.h>

#include <filesystem>
#include <optional>

#include "config/config_error.h"
#include "db/database_path.h"
#include "db/db_error.h"
#include "db/schema.h"
#include "db/user_schema_objects.h"
#include "model/recording/metric_catalog.h"

namespace fabric::db {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void throw_not_fabricsim(const std::string& path, const std::string& why) {
  throw DbError("database '" + path + "': it is not a fabricsim database (" + why + "); choose another file with --db");
}

fs::path directory_of(const std::string& path) {
  const fs::path p(path);
  return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

// SQLite creates the file, and its journal (FILE-wal, FILE-shm) next to
// it, in its directory: one this process cannot write refuses the run,
// whatever the file's own mode (unless the journal is there already).
std::optional<std::string> unwritable_directory(const std::string& path) {
  const fs::path dir = directory_of(path);
  std::error_code ec;
  if (!fs::exists(dir, ec)) return "the directory '" + dir.string() + "' does not exist";
  if (access(dir.c_str(), W_OK | X_OK) == 0) return std::nullopt;
  if (fs::exists(path, ec) && access((path + "-wal").c_str(), W_OK) == 0 && access((path + "-shm").c_str(), W_OK) == 0)
    return std::nullopt;
  const std::string name = fs::path(path).filename().string();
  return "the directory '" + dir.string() + "' is not writable, and SQLite creates the file's journal (" + name +
         "-wal) in it: choose a --db in a writable directory, or make '" + dir.string() + "' writable";
}

// One text value from a query with no parameters; nullopt when no row.
std::optional<std::string> query_text(sqlite3* db, const std::string& path, const char* sql) {
  Statement s = prepare(db, path, sql);
  const int rc = sqlite3_step(s.get());
  if (rc == SQLITE_DONE) return std::nullopt;
  if (rc != SQLITE_ROW) throw_db_error(path, "reading the database", db, rc);
  const unsigned char* text = sqlite3_column_text(s.get(), 0);
  return text ? std::string(reinterpret_cast<const char*>(text)) : std::string();
}

// Refuses files that are not SQLite or that another tool owns. An empty
// SQLite file (no tables) is fine: it becomes a fabricsim database.
// Returns the file's older schema version, to bring up to this one
// (db/migrations.sql), or nullopt for a new file or one of this version.
std::optional<std::string> check_is_fabricsim(sqlite3* db, const std::string& path) {
  sqlite3_stmt* raw_stmt = nullptr;
  int rc = sqlite3_prepare_v2(db,
                              "SELECT count(*), count(*) FILTER (WHERE name = 'meta') FROM sqlite_schema "
                              "WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
                              -1, &raw_stmt, nullptr);
  Statement s(raw_stmt);
  if (rc == SQLITE_OK) rc = sqlite3_step(s.get());
  if ((rc & 0xff) == SQLITE_NOTADB) throw_not_fabricsim(path, "not an SQLite file");
  if (rc != SQLITE_ROW) throw_db_error(path, "reading the database", db, rc);
  const int64_t tables = sqlite3_column_int64(s.get(), 0);
  const bool has_meta = sqlite3_column_int64(s.get(), 1) > 0;
  s.reset();
  if (tables == 0) return std::nullopt;
  if (!has_meta) throw_not_fabricsim(path, "it has tables but no fabricsim 'meta' table");

  std::optional<std::string> schema, version;
  try {
    schema = query_text(db, path, "SELECT value FROM meta WHERE key = 'schema'");
    version = query_text(db, path, "SELECT value FROM meta WHERE key = 'schema_version'");
  } catch (const DbError&) {
    throw_not_fabricsim(path, "its 'meta' table has another layout");
  }
  if (schema != std::string("fabricsim")) throw_not_fabricsim(path, "meta 'schema' is not 'fabricsim'");
  if (version == std::string(kSchemaVersion)) return std::nullopt;
  if (!version || migration_from(*version).empty()) {
    std::string older;
    for (const auto& step : migration_steps()) older += (older.empty() ? "" : ", ") + step.first;
    throw DbError("database '" + path + "': it has fabricsim schema version '" + version.value_or("none") +
                  "', this fabricsim reads and writes version " + kSchemaVersion + " (and brings versions " + older +
                  " up to it)");
  }
  return version;
}

// The metric definitions of this build (model/recording/metric_catalog.h)
// into the file's metrics table: a file always describes what it holds.
void write_metric_definitions(sqlite3* db, const std::string& path) {
  Statement s = prepare(db, path,
                        "INSERT OR REPLACE INTO metrics(name, unit, kind, platforms, entity, description) "
                        "VALUES (?, ?, ?, ?, ?, ?)");
  for (const MetricDefinition& m : metric_catalog()) {
    int column = 1;
    for (const std::string_view text : {m.name, m.unit, kind_name(m.kind), m.platforms, m.entity, m.description})
      sqlite3_bind_text(s.get(), column++, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    const int rc = sqlite3_step(s.get());
    if (rc != SQLITE_DONE) throw_db_error(path, "writing the metric definitions", db, rc);
    sqlite3_reset(s.get());
  }
}

}  // namespace

Connection open_fabric_database(const std::string& path, LockWait& lock_wait) {
  // Checked again here, for every caller: a name SQLite would not keep as a file.
  if (const std::optional<std::string> why = database_path_problem(path))
    throw DbError("database '" + config::shorten_for_message(path) + "': " + *why + "; choose another file with --db");
  if (const std::optional<std::string> why = unwritable_directory(path))
    throw_db_error(config::shorten_for_message(path), "cannot write to it", *why);
  sqlite3* raw_db = nullptr;
  // NOMUTEX: the recorder hands the connection between threads but never
  // uses it from two at once, and per-call mutexes cost ~20% of insert time.
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &raw_db, flags, nullptr);
  Connection db(raw_db);
  if (rc != SQLITE_OK) throw_db_error(path, "cannot open", db.get(), rc);
  sqlite3_extended_result_codes(db.get(), 1);
  lock_wait.install(db.get());
  if (sqlite3_db_readonly(db.get(), "main") == 1) {
    throw_db_error(path, "cannot open for writing", "the file or its directory is read-only");
  }

  const std::optional<std::string> older_version = check_is_fabricsim(db.get(), path);

  // WAL lets fabric-report read while a run writes; NORMAL sync is safe
  // with WAL (a power loss may lose the last batches, never corrupt).
  // temp_store = MEMORY keeps the statement journal of multi-row inserts
  // off disk: once a file has indexes (a later run), it spilled to a temp
  // file with one small write per page and cut inserts from ~450k to
  // ~160k rows/s. The page cache is bounded at 8 MiB and kept: a run
  // appends to its tables and touches the samples index at one insertion
  // point per series, and a full cache recycles its own pages, so memory
  // stays flat however long the run. (Emptying the cache after each batch
  // had malloc churn tens of MiB a batch, which fragmented the heap: the
  // process grew by ~10 MiB per simulated ms of perm640.)
  exec(db.get(), path, "setting up the connection",
       "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -8192; "
       "PRAGMA temp_store = MEMORY;");
  in_write_transaction(db.get(), path, "creating the schema", [&] {
    // The user's own views, indexes and triggers an upgrade would stop on
    // or lose, set aside and created again after it.
    std::vector<SchemaObject> users_objects;
    std::string upgrade;
    // Another process may have migrated it since: read the version again inside the transaction.
    if (older_version) {
      const std::optional<std::string> now =
          query_text(db.get(), path, "SELECT value FROM meta WHERE key = 'schema_version'");
      if (now && *now != kSchemaVersion) {
        const std::string steps = migration_from(*now);
        users_objects = set_aside_user_objects(db.get(), path, steps);
        exec(db.get(), path, "bringing the schema up to this version", steps.c_str());
        upgrade = "from schema version " + *now + " to " + kSchemaVersion;
      }
    }
    exec(db.get(), path, "creating the schema", kSchemaTablesSql);
    write_metric_definitions(db.get(), path);
    // A file from an older fabricsim may lack them (it dropped them while a
    // run loaded): built once here, before anything is simulated.
    exec(db.get(), path, "creating the indexes", kSchemaIndexesSql);
    restore_user_objects(db.get(), path, users_objects, upgrade);
  });
  return db;
}

}  // namespace fabric::db
