"""One search per database file at a time (issue 52, N16: two searches on
one file ran each other's trials). The lock is an advisory flock on the
database file itself, held until the process ends: SQLite's own locks are
POSIX record locks, which flock does not touch; the descriptor is never
closed early, since closing any descriptor of the file would drop SQLite's
locks. A second search is refused, naming the process that holds it."""
import fcntl
import os

from fabricpy import lock_holder
from fabricpy.errors import ReportError

_held = []  # the descriptors of the locks this process holds


def hold(db, given):
    """Takes the lock of the file `db` (--db as the user gave it: `given`) or refuses the search."""
    fd = os.open(db, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        holder = lock_holder.holder_of(db, kind="FLOCK")
        raise ReportError(f"--db {given}: another fabricsim-search runs on this file"
                          + (f" (process {holder})" if holder else "")
                          + "; wait for it to end, or give another --db") from None
    _held.append(fd)
