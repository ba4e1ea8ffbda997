#include "model/core/worker_pool.h"

#include "model/core/worker.h"

namespace fabric {

namespace {
constexpr int kSpins = 20000;  // about 10-50 us of polling before a worker blocks
inline void relax() { __builtin_ia32_pause(); }
}  // namespace

WorkerPool::WorkerPool(int workers) : errors_(static_cast<size_t>(workers < 1 ? 1 : workers)) {
  for (int w = 1; w < size(); ++w) threads_.emplace_back([this, w] { loop(w); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    generation_.fetch_add(1, std::memory_order_release);
  }
  start_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::run_one(int worker) {
  try {
    (*job_)(worker);
  } catch (...) {
    errors_[static_cast<size_t>(worker)] = std::current_exception();
  }
}

void WorkerPool::run(const std::function<void(int)>& job) {
  if (size() == 1) {
    job(0);
    return;
  }
  job_ = &job;
  busy_.store(size() - 1, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
  }
  start_.notify_all();
  run_one(0);
  for (int spin = 0; busy_.load(std::memory_order_acquire) != 0; ++spin) {
    if (spin < kSpins) {
      relax();
      continue;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return busy_.load(std::memory_order_acquire) == 0; });
  }
  job_ = nullptr;
  for (std::exception_ptr& e : errors_) {
    if (e) {
      std::exception_ptr first = e;
      for (std::exception_ptr& other : errors_) other = nullptr;
      std::rethrow_exception(first);
    }
  }
}

void WorkerPool::loop(int worker) {
  Worker::set_index(worker);
  uint64_t seen = 0;
  for (;;) {
    uint64_t now = generation_.load(std::memory_order_acquire);
    for (int spin = 0; now == seen && spin < kSpins; ++spin) {
      relax();
      now = generation_.load(std::memory_order_acquire);
    }
    if (now == seen) {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
      now = generation_.load(std::memory_order_acquire);
    }
    seen = now;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
    }
    run_one(worker);
    if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

}  // namespace fabric
