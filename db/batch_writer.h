#pragma once
// The writer thread: takes full batches from the simulation thread and
// writes them in order, so that SQLite's cost stays off the simulation.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "db/batch_inserter.h"
#include "db/db_error.h"
#include "db/record_batch.h"

namespace fabric::db {

class BatchWriter {
 public:
  // `inserter` must outlive this writer (or its close()).
  BatchWriter(BatchInserter& inserter, size_t max_queued_batches);
  ~BatchWriter();  // closes
  BatchWriter(const BatchWriter&) = delete;
  BatchWriter& operator=(const BatchWriter&) = delete;

  // Queues `batch` and leaves an empty (recycled) batch in its place. Waits
  // while the queue is full, which bounds memory when the disk lags.
  void submit(RecordBatch& batch);

  // Waits until every batch submitted so far is written (or discarded
  // after a failure).
  void drain();

  // Writes what is queued, then stops the thread. Idempotent.
  void close();

  // The first failure of the writer thread, if any. After a failure later
  // batches are discarded, so the run's rows stop at a batch boundary.
  std::optional<DbError> error() const;

 private:
  void run();

  BatchInserter& inserter_;
  const size_t max_queued_;
  mutable std::mutex mutex_;
  std::condition_variable work_ready_;  // writer waits: batch queued or closing
  std::condition_variable space_free_;  // producer waits: queue below the bound
  std::condition_variable idle_;        // drain() waits: nothing queued or being written
  std::deque<RecordBatch> queue_;
  std::vector<RecordBatch> spare_;  // written batches, kept for their capacity
  bool writing_ = false;
  bool closing_ = false;
  std::optional<DbError> error_;
  std::thread thread_;
};

}  // namespace fabric::db
