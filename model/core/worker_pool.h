#pragma once
// A fixed team of threads that run one job at a time together: run(job)
// calls job(w) on worker w = 0 .. size() - 1 (worker 0 is the calling
// thread) and returns when every worker is done. The scheduler serves the
// partitions of a time window this way. An exception thrown by a worker is
// rethrown by run() (the first, by worker order). Workers wait between jobs
// spinning briefly, then blocked.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fabric {

class WorkerPool {
 public:
  explicit WorkerPool(int workers);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return static_cast<int>(errors_.size()); }
  void run(const std::function<void(int worker)>& job);

 private:
  void loop(int worker);
  void run_one(int worker);

  const std::function<void(int)>* job_ = nullptr;
  std::atomic<uint64_t> generation_{0};  // one more per job
  std::atomic<int> busy_{0};             // workers still in the current job
  bool stopping_ = false;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  std::vector<std::exception_ptr> errors_;
  std::vector<std::thread> threads_;
};

}  // namespace fabric
