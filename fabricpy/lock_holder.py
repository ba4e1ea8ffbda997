"""Who holds the write lock on an SQLite file, read from the kernel's table
of POSIX locks (/proc/locks): in WAL mode the writer locks byte 120 of
FILE-shm (WAL_WRITE_LOCK), with a rollback journal byte 0x40000001 of FILE
itself (the RESERVED byte); as fabricsim reads it (db/lock_holder.cpp)."""
import os

_WAL_WRITE_LOCK_BYTE = 120
_RESERVED_BYTE = 0x40000000 + 1


def holder_of(path, kind="POSIX", byte=None):
    """The process of a write lock of `kind` (POSIX: SQLite's record locks;
    FLOCK: a whole-file flock) on the file `path` that covers `byte` (any,
    when None), or None."""
    try:
        st = os.stat(path)
        with open("/proc/locks") as f:
            lines = f.readlines()
    except OSError:
        return None
    for line in lines:
        # "1: POSIX  ADVISORY  WRITE 30949 fe:00:10954229 120 120" (the device in hex; an open end is EOF)
        fields = line.split()
        if len(fields) < 8 or fields[1] != kind or fields[3] != "WRITE":
            continue
        try:
            pid = int(fields[4])
            major, minor, inode = fields[5].split(":")
            start, end = int(fields[6]), fields[7]
            same_file = (int(major, 16), int(minor, 16), int(inode)) == (os.major(st.st_dev), os.minor(st.st_dev),
                                                                          st.st_ino)
            covers = byte is None or (start <= byte and (end == "EOF" or int(end) >= byte))
        except ValueError:
            continue
        if pid > 0 and same_file and covers:
            return pid
    return None


def write_lock_holder(path):
    """The process holding the write lock on the database `path`, or None
    when none can be told (another machine over NFS, no /proc, no lock now)."""
    return holder_of(path + "-shm", byte=_WAL_WRITE_LOCK_BYTE) or holder_of(path, byte=_RESERVED_BYTE)


def describe(path):
    """'held by process 1234 (fabricsim)', or 'held by another process'."""
    pid = write_lock_holder(path)
    if pid is None:
        return "held by another process"
    try:
        with open(f"/proc/{pid}/comm") as f:
            command = f.read().strip()
    except OSError:
        command = ""
    return f"held by process {pid}" + (f" ({command})" if command else "")
