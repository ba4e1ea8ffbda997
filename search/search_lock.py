"""One search per database file at a time (issue 52, N16: two searches on
one file ran each other's trials). The lock is an advisory flock on the
database file itself, held until the process ends: SQLite's own locks are
POSIX record locks, which flock does not touch; the descriptor is never
closed early, since closing any descriptor of the file would drop SQLite's
locks. A second search is refused, naming the process that holds it."""
import fcntl
import os

from analysis.rundb import ReportError

_held = []  # the descriptors of the locks this process holds


def hold(db, given):
    """Takes the lock of the file `db` (--db as the user gave it: `given`) or refuses the search."""
    fd = os.open(db, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        holder = holder_pid(db)
        raise ReportError(f"--db {given}: another fabricsim-search runs on this file"
                          + (f" (process {holder})" if holder else "")
                          + "; wait for it to end, or give another --db") from None
    _held.append(fd)


def holder_pid(db):
    """The process that holds a flock on `db` (from /proc/locks), or None."""
    st = os.stat(db)
    device = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open("/proc/locks") as f:
            for line in f:
                fields = line.split()
                if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == device:
                    return int(fields[4])
    except (OSError, ValueError):
        pass
    return None
