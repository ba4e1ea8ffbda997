#include "db/user_schema_objects.h"

#include <algorithm>
#include <optional>
#include <regex>
#include <set>

#include "db/db_error.h"
#include "db/schema.h"
#include "db/sqlite_handle.h"

namespace fabric::db {
namespace {

// The first group of every match of `pattern` in `sql`.
std::vector<std::string> names_matching(const std::string& sql, const std::regex& pattern) {
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(sql.begin(), sql.end(), pattern); it != std::sregex_iterator(); ++it)
    names.push_back((*it)[1].str());
  return names;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// Every object fabricsim's schema creates, now or in an upgrade step.
std::set<std::string> fabricsim_object_names() {
  static const std::regex create(
      R"(CREATE\s+(?:UNIQUE\s+)?(?:TABLE|VIEW|INDEX|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+))", std::regex::icase);
  std::set<std::string> names;
  for (const char* sql : {kSchemaTablesSql, kSchemaIndexesSql, kMigrationsSql})
    for (const std::string& name : names_matching(sql, create)) names.insert(lower(name));
  return names;
}

std::string column_text(sqlite3_stmt* s, int i) {
  const unsigned char* text = sqlite3_column_text(s, i);
  return text ? reinterpret_cast<const char*>(text) : "";
}

std::string quoted(const std::string& name) {
  std::string q = "\"";
  for (char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
  return text;
}

// SQLite checks every view and trigger when a table is renamed: renaming a
// scratch table says whether they all still read what exists, naming the
// first that does not. nullopt when they do.
std::optional<std::string> broken_view_or_trigger(sqlite3* db) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db,
                              "CREATE TABLE fabricsim_schema_check(x); "
                              "ALTER TABLE fabricsim_schema_check RENAME TO fabricsim_schema_checked",
                              nullptr, nullptr, &message);
  std::optional<std::string> problem;
  if (rc != SQLITE_OK) problem = message ? message : sqlite3_errstr(rc);
  sqlite3_free(message);
  sqlite3_exec(db, "DROP TABLE IF EXISTS fabricsim_schema_check; DROP TABLE IF EXISTS fabricsim_schema_checked",
               nullptr, nullptr, nullptr);
  if (problem) {  // "error in view v: no such column: entity" -> "no such column: entity"
    static const std::regex prefix(R"(^error in \w+ \S+: )");
    problem = std::regex_replace(*problem, prefix, "");
  }
  return problem;
}

// Creates `object`; the reason it cannot be, or nullopt.
std::optional<std::string> create(sqlite3* db, const SchemaObject& object) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db, object.sql.c_str(), nullptr, nullptr, &message);
  std::optional<std::string> problem;
  if (rc != SQLITE_OK) problem = message ? message : sqlite3_errstr(rc);
  sqlite3_free(message);
  if (problem || object.type == "index") return problem;
  problem = broken_view_or_trigger(db);
  if (problem) {
    const std::string drop = "DROP " + upper(object.type) + " " + quoted(object.name);
    sqlite3_exec(db, drop.c_str(), nullptr, nullptr, nullptr);
  }
  return problem;
}

}  // namespace

std::vector<std::string> tables_rebuilt_by(const std::string& upgrade_sql) {
  static const std::regex drop(R"(DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(\w+))", std::regex::icase);
  std::vector<std::string> tables;
  for (const std::string& name : names_matching(upgrade_sql, drop)) {
    const std::string table = lower(name);
    if (std::find(tables.begin(), tables.end(), table) == tables.end()) tables.push_back(table);
  }
  return tables;
}

std::vector<SchemaObject> set_aside_user_objects(sqlite3* db, const std::string& path, const std::string& upgrade_sql) {
  const std::set<std::string> ours = fabricsim_object_names();
  const std::vector<std::string> rebuilt = tables_rebuilt_by(upgrade_sql);
  Statement s = prepare(db, path,
                        "SELECT type, name, tbl_name, sql FROM sqlite_schema "
                        "WHERE type IN ('view', 'index', 'trigger') AND sql IS NOT NULL ORDER BY rowid");
  std::vector<SchemaObject> objects;
  int rc;
  while ((rc = sqlite3_step(s.get())) == SQLITE_ROW) {
    SchemaObject o{column_text(s.get(), 0), column_text(s.get(), 1), column_text(s.get(), 3)};
    const std::string table = lower(column_text(s.get(), 2));
    if (ours.count(lower(o.name))) continue;
    const bool on_rebuilt_table = std::find(rebuilt.begin(), rebuilt.end(), table) != rebuilt.end();
    if (o.type == "index" && !on_rebuilt_table) continue;
    objects.push_back(std::move(o));
  }
  if (rc != SQLITE_DONE) throw_db_error(path, "reading the schema before an upgrade", db, rc);
  s.reset();
  for (const SchemaObject& o : objects) {
    const std::string drop = "DROP " + upper(o.type) + " IF EXISTS " + quoted(o.name);
    exec(db, path, "setting your " + o.type + " '" + o.name + "' aside for the upgrade", drop.c_str());
  }
  return objects;
}

void restore_user_objects(sqlite3* db, const std::string& path, const std::vector<SchemaObject>& objects,
                          const std::string& upgrade) {
  // In rounds: an object that reads another of the user's is created once that one is.
  std::vector<std::pair<SchemaObject, std::string>> pending;  // with why it could not be created
  for (const SchemaObject& o : objects) pending.emplace_back(o, "");
  for (bool progress = true; progress && !pending.empty();) {
    progress = false;
    std::vector<std::pair<SchemaObject, std::string>> left;
    for (const auto& [o, why] : pending) {
      if (const std::optional<std::string> problem = create(db, o)) {
        left.emplace_back(o, *problem);
      } else {
        progress = true;
      }
    }
    pending = std::move(left);
  }
  if (pending.empty()) return;
  std::string which, drops;
  for (const auto& [o, why] : pending) {
    which += (which.empty() ? "" : "; ") + o.type + " '" + o.name + "' (" + why + ")";
    drops += (drops.empty() ? "" : " ") + ("DROP " + upper(o.type) + " " + quoted(o.name) + ";");
  }
  const bool one = pending.size() == 1;
  const std::string them = one ? "it" : "them";
  throw DbError("database '" + path + "': upgrading it " + upgrade + " cannot keep your " + which + ": " +
                (one ? "it reads" : "they read") + " what the upgrade changes; the file is unchanged: drop " + them +
                " (" + drops + ") and create " + them + " again on the new tables after the upgrade");
}

}  // namespace fabric::db
