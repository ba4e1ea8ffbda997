// The schema as C++ text, embedded at build time from db/schema.sql and split
// in two so that the indexes can be created after the bulk load.
#include "db/schema.h"

namespace fabric::db {

#include "db/schema_text.inc"

}  // namespace fabric::db
