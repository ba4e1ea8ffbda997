// The rule for a database's name (db/database_path.h): names SQLite would
// not keep as a file are refused with the reason, file paths pass, and
// open_fabric_database refuses them too, for every caller.
#include <gtest/gtest.h>

#include <filesystem>

#include "db/database_file.h"
#include "db/database_path.h"
#include "db/db_error.h"
#include "tests/db/db_test_support.h"

namespace fabric::db {
namespace {

std::string problem(const std::string& path) { return database_path_problem(path).value_or(""); }

TEST(DatabasePath, NamesThatKeepNothingAreRefusedWithTheReason) {
  EXPECT_NE(problem("").find("temporary database"), std::string::npos);
  EXPECT_NE(problem(":memory:").find("in memory"), std::string::npos);
  for (const std::string uri : {"file::memory:", "file:x?mode=memory", "file:x.db", "file:/tmp/x.db?vfs=unix-none"})
    EXPECT_NE(problem(uri).find("URI"), std::string::npos) << uri;
  EXPECT_NE(problem(std::string(5000, 'd')).find("4096"), std::string::npos);
  EXPECT_NE(problem(std::filesystem::temp_directory_path().string()).find("directory"), std::string::npos);
  EXPECT_NE(problem("no-such-folder/").find("directory"), std::string::npos);
}

TEST(DatabasePath, FilePathsPass) {
  for (const std::string path :
       {"fabric.db", "./file:x.db", "/tmp/a b/c.db", "memory.db", "x:memory:", "sweep.db.sweep-1/point-3-77.db"})
    EXPECT_FALSE(database_path_problem(path).has_value()) << path << ": " << problem(path);
}

TEST(DatabasePath, TheMessageNamesTheOptionTheValueAndWhy) {
  EXPECT_EQ(database_path_message("--db", ":memory:", "why"),
            "--db has value ':memory:': why; allowed: the path of a file that keeps the runs");
  EXPECT_NE(database_path_message("--db", std::string(5000, 'd'), "why").find("(5000 characters)"), std::string::npos);
}

TEST(DatabasePath, OpeningRefusesThemForEveryCaller) {
  for (const std::string path : {"file::memory:", ":memory:", ""}) {
    LockWait wait(path, 0);
    try {
      open_fabric_database(path, wait);
      ADD_FAILURE() << "opened '" << path << "'";
    } catch (const DbError& e) {
      EXPECT_NE(std::string(e.what()).find("choose another file with --db"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace fabric::db
