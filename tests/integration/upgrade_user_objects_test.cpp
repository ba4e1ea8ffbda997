// A user's own views, indexes and triggers on the tables the schema upgrade
// from version 4 rebuilds (samples, events) survive it (issue 52, N5): a
// view used to stop the upgrade ("error in view ...: no such table") and an
// index was dropped silently. One that cannot be kept (it reads a column
// the upgrade removed) refuses the upgrade, naming it, and leaves the file
// as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tests/db/db_test_support.h"
#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// A file of schema version 4 with one run, and `users_sql` run on it.
std::string version_4_file(const TempDir& dir, const std::string& users_sql) {
  const std::string db = dir.file("v4.db");
  const ProcResult r = run_fabricsim(two_leaf_shift().opt("--time", "20us").opt("--db", db));
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  fabric::db::testing::back_to_schema_version(db, 4);
  Db(db).exec(users_sql);
  return db;
}

Args second_run(const std::string& db) { return two_leaf_shift().opt("--time", "20us").opt("--db", db); }

TEST(UpgradeUserObjects, TheUsersViewsIndexesAndTriggersSurviveTheUpgrade) {
  TempDir dir;
  const std::string db =
      version_4_file(dir,
                     "CREATE VIEW my_means AS SELECT run_id, metric, avg(value) AS mean FROM samples "
                     "GROUP BY run_id, metric;"
                     "CREATE VIEW my_on_my_view AS SELECT * FROM my_means WHERE mean > 0;"
                     "CREATE INDEX my_samples_by_metric ON samples(metric);"
                     "CREATE INDEX my_events_by_time ON events(t_ps);"
                     "CREATE TABLE my_counts(n INTEGER);"
                     "CREATE TRIGGER my_count AFTER INSERT ON events BEGIN "
                     "INSERT INTO my_counts VALUES (new.run_id); END;");
  const ProcResult r = run_fabricsim(second_run(db));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db d(db);
  EXPECT_EQ(d.text("SELECT value FROM meta WHERE key = 'schema_version'"), "6");
  EXPECT_EQ(d.dump("SELECT type, name FROM sqlite_schema WHERE name GLOB 'my_*' ORDER BY name"),
            "trigger|my_count\ntable|my_counts\nindex|my_events_by_time\nview|my_means\nview|my_on_my_view\n"
            "index|my_samples_by_metric\n");
  EXPECT_EQ(d.text("SELECT sql FROM sqlite_schema WHERE name = 'my_samples_by_metric'"),
            "CREATE INDEX my_samples_by_metric ON samples(metric)");
  // The view reads the rebuilt table, both runs' samples.
  EXPECT_EQ(d.integer("SELECT count(DISTINCT run_id) FROM my_means"), 2);
  EXPECT_GT(d.integer("SELECT count(*) FROM my_on_my_view"), 0);
  EXPECT_EQ(d.text("PRAGMA integrity_check"), "ok");
}

TEST(UpgradeUserObjects, AViewOnARemovedColumnRefusesTheUpgradeAndChangesNothing) {
  TempDir dir;
  const std::string db = version_4_file(dir,
                                        "CREATE VIEW my_by_entity AS SELECT entity, value FROM samples;"
                                        "CREATE INDEX my_samples_by_metric ON samples(metric);");
  const std::string before = read_text(db);
  const ProcResult r = run_fabricsim(second_run(db));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  for (const char* said : {"upgrading it from schema version 4 to 6 cannot keep your view 'my_by_entity' (no such "
                           "column: entity)",
                           "the file is unchanged", "DROP VIEW \"my_by_entity\";"})
    EXPECT_NE(r.err.find(said), std::string::npos) << said << "\n" << r.err;
  EXPECT_EQ(r.err.find("my_samples_by_metric"), std::string::npos) << "that one could be kept\n" << r.err;
  EXPECT_EQ(read_text(db), before);
  Db d(db);
  EXPECT_EQ(d.text("SELECT value FROM meta WHERE key = 'schema_version'"), "4");
  EXPECT_EQ(d.integer("SELECT count(*) FROM runs"), 1);
}

}  // namespace
}  // namespace fabricsim_it
