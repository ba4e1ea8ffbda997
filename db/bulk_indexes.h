#pragma once
// The indexes of the bulk tables (frames, deliveries, drops, samples,
// events) are built after a run's rows are loaded, not kept up row by row:
// a sort at the end costs less than a B-tree insert per row during the run.
#include <string>
#include <vector>

#include <sqlite3.h>

namespace fabric::db {

// Drops every index on the bulk tables, so the next rows go in without
// index upkeep, and returns their CREATE statements. Queries of older runs
// still work meanwhile, by table scan.
std::vector<std::string> drop_bulk_indexes(sqlite3* db, const std::string& path);

// Creates the schema's indexes (kSchemaIndexesSql) and re-creates `dropped`
// (what drop_bulk_indexes returned) over every run in the file, sorting with
// a helper thread. Returns the seconds it took.
double create_bulk_indexes(sqlite3* db, const std::string& path, const std::vector<std::string>& dropped);

}  // namespace fabric::db
