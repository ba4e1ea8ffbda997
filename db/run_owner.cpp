#include "db/run_owner.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace fabric::db {
namespace {

std::string first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// Field 22 of /proc/PID/stat (starttime); -1 when the process does not exist.
// The command name (field 2) is in parentheses and may hold blanks, so the
// fields are counted after its closing parenthesis.
int64_t start_ticks_of(int64_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return -1;
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return -1;
  std::istringstream fields(stat.substr(paren + 1));
  std::string field;
  for (int i = 3; i <= 22; ++i) {
    if (!(fields >> field)) return -1;
  }
  char* end = nullptr;
  errno = 0;
  const long long ticks = std::strtoll(field.c_str(), &end, 10);
  return *end == '\0' && errno == 0 ? ticks : -1;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

}  // namespace

RunOwner this_process() {
  const int64_t pid = getpid();
  return RunOwner{host_name(), first_line("/proc/sys/kernel/random/boot_id"), pid, start_ticks_of(pid)};
}

OwnerState owner_state(const RunOwner& owner) {
  const RunOwner me = this_process();
  if (owner.host != me.host || me.boot_id.empty()) return OwnerState::unknown;
  if (owner.boot_id != me.boot_id) return OwnerState::gone;
  const int64_t ticks = start_ticks_of(owner.pid);
  return ticks >= 0 && ticks == owner.start_ticks ? OwnerState::alive : OwnerState::gone;
}

}  // namespace fabric::db
