// The schema as C++ text, embedded at build time from db/schema.sql and split
// in two: the tables and views, and the indexes.
#include "db/schema.h"

namespace fabric::db {

#include "db/schema_text.inc"

}  // namespace fabric::db
