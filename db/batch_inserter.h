#pragma once
// Writes one RecordBatch of one run as one transaction. Each table has two
// prepared statements, reset and rebound for every use: one inserting
// kRowsPerStatement rows at once (multi-row VALUES roughly doubles the rate
// over one row per step) and one for the remainder.
#include <cstdint>
#include <string>
#include <vector>

#include "db/record_batch.h"
#include "db/sqlite_handle.h"

namespace fabric::db {

class BatchInserter {
 public:
  static constexpr int kRowsPerStatement = 32;

  // Prepares the statements now, so that schema problems show at once.
  BatchInserter(sqlite3* db, std::string path, int64_t run_id);

  // Inserts every row of `batch` in call order and advances the run's
  // sim_time_ps to batch.reached, in one transaction; on failure rolls the
  // batch back and throws DbError.
  void write(const RecordBatch& batch);

  struct TableStatements {
    const char* table;
    int columns;     // per row, run_id included
    Statement one;   // inserts one row
    Statement many;  // inserts kRowsPerStatement rows
  };

 private:
  template <typename Row>
  void insert_all(const std::vector<Row>& rows, TableStatements& t);
  void step(sqlite3_stmt* s, const char* table);

  sqlite3* db_;
  std::string path_;
  Statement advance_reached_;
  TableStatements entities_, ports_, flows_, flow_dests_, frames_, deliveries_, drops_, samples_, totals_, events_,
      summaries_, jobs_, job_ranks_, job_operations_;
};

}  // namespace fabric::db
