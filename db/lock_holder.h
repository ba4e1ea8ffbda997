#pragma once
// Who holds the write lock on an SQLite file, read from the kernel's table
// of POSIX locks (/proc/locks): in WAL mode the writer locks byte 120 of
// FILE-shm (WAL_WRITE_LOCK), with a rollback journal byte 0x40000001 of
// FILE itself (the RESERVED byte). fabricpy/lock_holder.py reads it alike.
#include <cstdint>
#include <optional>
#include <string>

namespace fabric::db {

// The process holding the write lock on the database `path`; nullopt when
// none can be told (another machine over NFS, no /proc, no lock now).
std::optional<int64_t> write_lock_holder(const std::string& path);

// "held by process 1234 (fabricsim)", or "held by another process" when
// the holder cannot be told.
std::string describe_lock_holder(const std::string& path);

}  // namespace fabric::db
