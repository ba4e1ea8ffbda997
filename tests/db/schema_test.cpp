// db/schema.sql (the readable copy) and db/schema.cpp (the compiled copy)
// must not drift apart.
#include <gtest/gtest.h>

#include "db/schema.h"
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

TEST(Schema, IndexesAreOnlyInTheIndexPart) {
  EXPECT_EQ(std::string(kSchemaTablesSql).find("CREATE INDEX"), std::string::npos);
  EXPECT_NE(std::string(kSchemaIndexesSql).find("CREATE INDEX"), std::string::npos);
}

}  // namespace
}  // namespace fabric::db
