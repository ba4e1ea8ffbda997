#include "db/lock_holder.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace fabric::db {
namespace {

constexpr int64_t kWalWriteLockByte = 120;           // in FILE-shm
constexpr int64_t kReservedByte = 0x40000000LL + 1;  // in FILE, rollback journal mode

struct FileId {
  unsigned major_dev = 0, minor_dev = 0;
  uint64_t inode = 0;
};

std::optional<FileId> file_id(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileId{major(st.st_dev), minor(st.st_dev), static_cast<uint64_t>(st.st_ino)};
}

// The process of a POSIX write lock on `file` that covers `byte`.
// A line of /proc/locks: "1: POSIX  ADVISORY  WRITE 30949 fe:00:10954229 120 120"
// (the device in hex, the range's end EOF when open-ended).
std::optional<int64_t> holder_of(const FileId& file, int64_t byte) {
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream fields(line);
    std::string number, kind, mode, access, device, end;
    int64_t pid = 0, start = 0;
    if (!(fields >> number >> kind >> mode >> access >> pid >> device >> start >> end)) continue;
    if (kind != "POSIX" || access != "WRITE" || pid <= 0) continue;
    unsigned major_dev = 0, minor_dev = 0;
    unsigned long long inode = 0;
    if (std::sscanf(device.c_str(), "%x:%x:%llu", &major_dev, &minor_dev, &inode) != 3) continue;
    if (major_dev != file.major_dev || minor_dev != file.minor_dev || inode != file.inode) continue;
    if (start <= byte && (end == "EOF" || std::stoll(end) >= byte)) return pid;
  }
  return std::nullopt;
}

std::string command_of(int64_t pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

}  // namespace

std::optional<int64_t> write_lock_holder(const std::string& path) {
  if (const std::optional<FileId> shm = file_id(path + "-shm"))
    if (const std::optional<int64_t> pid = holder_of(*shm, kWalWriteLockByte)) return pid;
  if (const std::optional<FileId> db = file_id(path)) return holder_of(*db, kReservedByte);
  return std::nullopt;
}

std::string describe_lock_holder(const std::string& path) {
  const std::optional<int64_t> pid = write_lock_holder(path);
  if (!pid) return "held by another process";
  const std::string command = command_of(*pid);
  return "held by process " + std::to_string(*pid) + (command.empty() ? "" : " (" + command + ")");
}

}  // namespace fabric::db
