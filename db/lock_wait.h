#pragma once
// How a connection waits for another process's write lock: polling with a
// short sleep, saying once on stderr that it waits and for whom, for ever
// or until a limit. A run waits rather than fail: a write that gives up
// after the run simulated would throw the simulated rows away.
#include <limits>
#include <string>

#include <sqlite3.h>

namespace fabric::db {

class LockWait {
 public:
  static constexpr double kForever = std::numeric_limits<double>::infinity();

  explicit LockWait(std::string path, double limit_seconds = kForever);
  LockWait(const LockWait&) = delete;
  LockWait& operator=(const LockWait&) = delete;

  // Installs the wait on `db`; this object must outlive the connection.
  void install(sqlite3* db);
  // Until then, a StopRequest (model/core/stop_request.h) ends a wait too.
  // From now on wait for ever, whatever happens (once a run has started).
  void wait_forever();
  double limit_seconds() const { return limit_seconds_; }

 private:
  static int on_busy(void* self, int attempts);
  bool keep_waiting(int attempts);

  std::string path_;
  double limit_seconds_;
  double waited_seconds_ = 0;  // in the current wait
  bool told_ = false;
  bool waits_forever_ = false;
};

}  // namespace fabric::db
