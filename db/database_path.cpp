#include "db/database_path.h"

#include <filesystem>

#include "config/config_error.h"

namespace fabric::db {

std::optional<std::string> database_path_problem(const std::string& path) {
  if (path.empty()) return "an empty name is a temporary database that SQLite deletes when it is closed";
  if (path == ":memory:") return "it is a database in memory, gone when the process ends";
  // SQLite (as Debian builds it) reads such a name as a URI, whatever the
  // flags: file::memory: and ?mode=memory are in memory, ?vfs= and ?immutable
  // change how it is written.
  if (path.rfind("file:", 0) == 0)
    return "SQLite takes a name that starts with 'file:' for a URI (file::memory: and ?mode=memory are in memory), "
           "not for a path (write ./ before a file so named)";
  if (path.size() > kLongestDatabasePath)
    return "it is longer than the " + std::to_string(kLongestDatabasePath) + " characters a path may have";
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return "it is a directory";
  if (path.back() == '/') return "it names a directory, not a file";
  return std::nullopt;
}

std::string database_path_message(const std::string& option, const std::string& path, const std::string& why) {
  return option + " has value '" + config::shorten_for_message(path) + "': " + why +
         "; allowed: the path of a file that keeps the runs";
}

}  // namespace fabric::db
