// The schema as C++ text, embedded at build time from db/schema.sql (split
// in two: the tables and views, and the indexes) and db/migrations.sql.
#include "db/schema.h"

#include <cstring>

namespace fabric::db {

#include "db/schema_text.inc"

std::vector<std::pair<std::string, std::string>> migration_steps() {
  static constexpr const char* kMarker = "\n-- from ";
  std::vector<std::pair<std::string, std::string>> steps;
  const std::string text = std::string("\n") + kMigrationsSql;
  for (size_t at = text.find(kMarker); at != std::string::npos;) {
    const size_t version_start = at + std::strlen(kMarker);
    const size_t line_end = text.find('\n', version_start);
    const size_t next = text.find(kMarker, line_end);
    steps.emplace_back(text.substr(version_start, line_end - version_start),
                       text.substr(line_end + 1, (next == std::string::npos ? text.size() : next) - line_end - 1));
    at = next;
  }
  return steps;
}

std::string migration_from(const std::string& version) {
  std::string sql;
  bool started = false;
  for (const auto& [from, step] : migration_steps()) {
    started = started || from == version;
    if (started) sql += step;
  }
  return sql;
}

}  // namespace fabric::db
