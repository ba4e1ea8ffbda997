#include "db/batch_writer.h"

#include <exception>

namespace fabric::db {

BatchWriter::BatchWriter(BatchInserter& inserter, size_t max_queued_batches)
    : inserter_(inserter), max_queued_(max_queued_batches == 0 ? 1 : max_queued_batches) {
  thread_ = std::thread([this] { run(); });
}

BatchWriter::~BatchWriter() { close(); }

void BatchWriter::submit(RecordBatch& batch) {
  std::unique_lock<std::mutex> lock(mutex_);
  space_free_.wait(lock, [this] { return queue_.size() < max_queued_; });
  queue_.push_back(std::move(batch));
  if (!spare_.empty()) {
    batch = std::move(spare_.back());
    spare_.pop_back();
  } else {
    batch = RecordBatch{};
  }
  lock.unlock();
  work_ready_.notify_one();
}

void BatchWriter::drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return queue_.empty() && !writing_; });
}

void BatchWriter::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closing_ && !thread_.joinable()) return;
    closing_ = true;
  }
  work_ready_.notify_one();
  if (thread_.joinable()) thread_.join();
}

std::optional<DbError> BatchWriter::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

void BatchWriter::run() {
  bool failed = false;
  for (;;) {
    RecordBatch batch;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_ready_.wait(lock, [this] { return !queue_.empty() || closing_; });
      if (queue_.empty()) return;  // closing and drained
      batch = std::move(queue_.front());
      queue_.pop_front();
      writing_ = true;
    }
    space_free_.notify_one();

    if (!failed) {
      try {
        inserter_.write(batch);
      } catch (const DbError& e) {
        failed = true;
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = e;
      } catch (const std::exception& e) {
        failed = true;
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = DbError(e.what());
      }
    }

    batch.clear();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (spare_.size() < 2) spare_.push_back(std::move(batch));
      writing_ = false;
    }
    idle_.notify_all();
  }
}

}  // namespace fabric::db
