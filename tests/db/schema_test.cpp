// db/schema.sql (the readable copy) and db/schema.cpp (the compiled copy)
// must not drift apart.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "db/schema.h"
#include "model/recording/entity.h"
#include "model/recording/entity_place.h"
#include "tests/db/db_test_support.h"

namespace fabric::db {
namespace {

TEST(Schema, EmbeddedTextEqualsSchemaSql) {
  const auto dir = testing::source_dir();
  if (!dir) GTEST_SKIP() << "source tree not found; set FABRICSIM_SOURCE_DIR";
  const std::string file = testing::read_file(*dir / "db" / "schema.sql");
  EXPECT_EQ(std::string(kSchemaTablesSql) + kSchemaIndexesSql, file)
      << "the embedded schema is not db/schema.sql: rerun cmake";
}

TEST(Schema, EmbeddedMigrationsEqualMigrationsSql) {
  const auto dir = testing::source_dir();
  if (!dir) GTEST_SKIP() << "source tree not found; set FABRICSIM_SOURCE_DIR";
  EXPECT_EQ(std::string(kMigrationsSql), testing::read_file(*dir / "db" / "migrations.sql"))
      << "the embedded migrations are not db/migrations.sql: rerun cmake";
}

// Each older version has a step, in order, and each step ends at the next
// version: a file of any of them comes up to kSchemaVersion.
TEST(Schema, MigrationsLeadFromEachOlderVersionToThisOne) {
  const auto steps = migration_steps();
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].first, "2");
  EXPECT_EQ(steps[1].first, "3");
  EXPECT_EQ(steps[2].first, "4");
  EXPECT_EQ(steps[3].first, "5");
  for (size_t i = 0; i < steps.size(); ++i) {
    const std::string next = i + 1 < steps.size() ? steps[i + 1].first : std::string(kSchemaVersion);
    EXPECT_NE(steps[i].second.find("UPDATE meta SET value = '" + next + "' WHERE key = 'schema_version'"),
              std::string::npos)
        << "the step from version " << steps[i].first << " must end at version " << next;
  }
  EXPECT_EQ(migration_from(std::string(kSchemaVersion)), "");
  EXPECT_EQ(migration_from("1"), "");
  EXPECT_EQ(migration_from("5"), steps[3].second);
  EXPECT_EQ(migration_from("4"), steps[2].second + steps[3].second);
  EXPECT_EQ(migration_from("3"), steps[1].second + steps[2].second + steps[3].second);
  EXPECT_EQ(migration_from("2"), steps[0].second + steps[1].second + steps[2].second + steps[3].second);
}

TEST(Schema, IndexesAreOnlyInTheIndexPart) {
  EXPECT_EQ(std::string(kSchemaTablesSql).find("CREATE INDEX"), std::string::npos);
  EXPECT_NE(std::string(kSchemaIndexesSql).find("CREATE INDEX"), std::string::npos);
}

// The kinds table entities allows are the model's (model/recording/entity.h).
TEST(Schema, EntityKindsAreTheModels) {
  const std::string tables = kSchemaTablesSql;
  const size_t start = tables.find("CREATE TABLE IF NOT EXISTS entities");
  ASSERT_NE(start, std::string::npos);
  const std::string check = tables.substr(start, tables.find(");", start) - start);
  size_t listed = 0;
  for (size_t at = check.find("kind IN ("); at != std::string::npos && check[at] != ')'; ++at)
    listed += check[at] == '\'';
  EXPECT_EQ(listed, 2u * kEntityKinds) << check;
  for (int k = 0; k < kEntityKinds; ++k)
    EXPECT_NE(check.find("'" + std::string(kind_name(EntityKind(k))) + "'"), std::string::npos)
        << kind_name(EntityKind(k));
}

// The quoted names of `column IN (...)` in `sql`, in order.
std::vector<std::string> names_allowed(const std::string& sql, const std::string& column) {
  std::vector<std::string> names;
  const size_t open = sql.find(column + " IN (");
  if (open == std::string::npos) return names;
  const std::string list = sql.substr(open, sql.find(')', open) - open);
  for (size_t q = list.find('\''); q != std::string::npos; q = list.find('\'', q + 1)) {
    const size_t end = list.find('\'', q + 1);
    names.push_back(list.substr(q + 1, end - q - 1));
    q = end;
  }
  return names;
}

// The kinds of an entity's ends and the directions that table entities
// allows, in this version and in the step that adds them, are the model's
// (model/recording/entity_place.h).
TEST(Schema, EntityEndsAndDirectionsAreTheModels) {
  const std::string tables = kSchemaTablesSql;
  const size_t start = tables.find("CREATE TABLE IF NOT EXISTS entities");
  ASSERT_NE(start, std::string::npos);
  const std::string table = tables.substr(start, tables.find("PRIMARY KEY", start) - start);
  const std::string step = migration_from("5");
  std::vector<std::string> units, directions;
  for (int k = 0; k < kUnitKinds; ++k) units.emplace_back(unit_kind_name(UnitKind(k)));
  for (int d = 1; d < kDirections; ++d) directions.emplace_back(direction_name(Direction(d)));
  for (const std::string& sql : {table, step}) {
    EXPECT_EQ(names_allowed(sql, "from_kind"), units) << sql;
    EXPECT_EQ(names_allowed(sql, "to_kind"), units) << sql;
    EXPECT_EQ(names_allowed(sql, "direction"), directions) << sql;
  }
}

}  // namespace
}  // namespace fabric::db
