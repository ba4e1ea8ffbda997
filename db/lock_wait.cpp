#include "db/lock_wait.h"

#include <chrono>
#include <cstdio>
#include <thread>

#include "db/lock_holder.h"
#include "model/core/stop_request.h"

namespace fabric::db {
namespace {

// Short sleeps first, so that a lock held for one batch costs little; then
// 20 ms, so that a long wait costs no CPU.
double sleep_seconds(int attempts) { return attempts < 10 ? 0.001 : attempts < 40 ? 0.005 : 0.02; }

constexpr double kTellAfterSeconds = 1.0;

}  // namespace

LockWait::LockWait(std::string path, double limit_seconds) : path_(std::move(path)), limit_seconds_(limit_seconds) {}

void LockWait::wait_forever() {
  limit_seconds_ = kForever;
  waits_forever_ = true;
}

void LockWait::install(sqlite3* db) { sqlite3_busy_handler(db, &LockWait::on_busy, this); }

int LockWait::on_busy(void* self, int attempts) { return static_cast<LockWait*>(self)->keep_waiting(attempts) ? 1 : 0; }

bool LockWait::keep_waiting(int attempts) {
  if (attempts == 0) waited_seconds_ = 0;
  if (waited_seconds_ >= limit_seconds_) return false;
  // Before the run has simulated anything, a stop (Ctrl-C) ends the wait.
  if (!waits_forever_ && StopRequest::raised()) return false;
  if (waited_seconds_ >= kTellAfterSeconds && !told_) {
    std::fprintf(stderr, "fabricsim: waiting for the lock on '%s' %s%s\n", path_.c_str(),
                 describe_lock_holder(path_).c_str(), waits_forever_ ? "" : "; Ctrl-C gives up");
    told_ = true;
  }
  const double sleep = sleep_seconds(attempts);
  std::this_thread::sleep_for(std::chrono::duration<double>(sleep));
  waited_seconds_ += sleep;
  return true;
}

}  // namespace fabric::db
