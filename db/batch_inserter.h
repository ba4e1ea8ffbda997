#pragma once
// Writes one RecordBatch of one run as one transaction, with a prepared
// statement per table that is reset and rebound for every row.
#include <cstdint>
#include <string>

#include "db/record_batch.h"
#include "db/sqlite_handle.h"

namespace fabric::db {

class BatchInserter {
 public:
  // Prepares the statements now, so that schema problems show at once.
  BatchInserter(sqlite3* db, std::string path, int64_t run_id);

  // Inserts every row of `batch` in call order, in one transaction; on
  // failure rolls the batch back and throws DbError.
  void write(const RecordBatch& batch);

 private:
  void insert_rows(const RecordBatch& batch);

  sqlite3* db_;
  std::string path_;
  Statement ports_, flows_, flow_dests_, frames_, deliveries_, drops_, samples_, events_, summaries_;
};

}  // namespace fabric::db
