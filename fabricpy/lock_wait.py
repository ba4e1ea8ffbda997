"""A connection for writing a fabricsim database that, when another
process's lock keeps it waiting more than a second, says once on stderr for
whom it waits (lock_holder), as fabricsim does (db/lock_wait.cpp), then
waits up to the rest of its limit. Used by fabricsim-sweep,
fabricsim-search and fabric-report.

It waits the first second (SQLite's busy timeout), then, the statement
having failed without effect, says so and runs it again with the rest of
the limit. A script is run statement by statement for the same reason."""
import os
import pathlib
import sqlite3
import sys

from fabricpy import lock_holder
from fabricpy.schema_versions import statements

TELL_AFTER_SECONDS = 1.0


def _locked(error):
    code = getattr(error, "sqlite_errorcode", None)
    return (code & 0xff) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) if code is not None \
        else "locked" in str(error)


class _SaysWhoHoldsTheLock(sqlite3.Connection):
    def _waiting(self, call, *args):
        try:
            return call(self, *args)
        except sqlite3.OperationalError as e:
            if not _locked(e) or self.limit_seconds <= TELL_AFTER_SECONDS:
                raise
        if not self.told:
            print(f"{self.prog}: waiting for the lock on '{self.path}' {lock_holder.describe(self.path)}",
                  file=sys.stderr, flush=True)
            self.told = True
        sqlite3.Connection.execute(self, f"PRAGMA busy_timeout = {int((self.limit_seconds - TELL_AFTER_SECONDS) * 1000)}")
        try:
            return call(self, *args)
        finally:
            sqlite3.Connection.execute(self, f"PRAGMA busy_timeout = {int(TELL_AFTER_SECONDS * 1000)}")

    def execute(self, *args):
        return self._waiting(sqlite3.Connection.execute, *args)

    def executemany(self, *args):
        return self._waiting(sqlite3.Connection.executemany, *args)

    def executescript(self, script):
        if self.in_transaction:
            self.commit()  # as sqlite3's executescript does
        for statement in statements(script):
            self.execute(statement)


def unwritable_directory(path):
    """Why the directory of `path` keeps SQLite from writing it (the file
    and its journal, FILE-wal, live there), or None."""
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        return f"the directory '{directory}' does not exist"
    journal_there = os.path.exists(path) and all(os.access(path + end, os.W_OK) for end in ("-wal", "-shm"))
    if os.access(directory, os.W_OK | os.X_OK) or journal_there:
        return None
    return (f"the directory '{directory}' is not writable, and SQLite creates the file's journal "
            f"({os.path.basename(path)}-wal) in it: choose a --db in a writable directory, or make it writable")


def connect(path, limit_seconds, prog, mode=None, **kwargs):
    """sqlite3.connect(path) for writing, waiting up to `limit_seconds` for
    another writer's lock and saying so after a second, as `prog`; with
    `mode` ('rw') the file is opened as a URI (a name with '?', '#' or '%'
    is still its name). Raises ValueError when the file's directory cannot
    be written."""
    why = unwritable_directory(path)
    if why:
        raise ValueError(why)
    target = pathlib.Path(path).absolute().as_uri() + f"?mode={mode}" if mode else path
    conn = sqlite3.connect(target, timeout=min(TELL_AFTER_SECONDS, limit_seconds), factory=_SaysWhoHoldsTheLock,
                           uri=bool(mode), **kwargs)
    conn.limit_seconds, conn.prog, conn.path, conn.told = limit_seconds, prog, path, False
    return conn
