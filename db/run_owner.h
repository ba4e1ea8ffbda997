#pragma once
// Who is writing a run: the process that holds it, identified well enough
// that another process on the same machine can tell whether it still lives
// (a process id alone is reused; with the process's start time it is not).
// A run whose owner is gone was stopped outright (SIGKILL, power, a crash).
#include <cstdint>
#include <string>

namespace fabric::db {

struct RunOwner {
  std::string host;     // the machine's host name
  std::string boot_id;  // changes at every boot of the machine
  int64_t pid = 0;
  int64_t start_ticks = 0;  // the process's start time, in clock ticks since boot
};

// This process.
RunOwner this_process();

enum class OwnerState { alive, gone, unknown };

// Whether `owner` still runs. Unknown for another machine (same host name
// and boot: the process list tells; same host, another boot: gone).
OwnerState owner_state(const RunOwner& owner);

}  // namespace fabric::db
