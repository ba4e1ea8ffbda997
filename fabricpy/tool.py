"""What every command-line tool (fabric-report, the table tools,
fabricsim-sweep, fabricsim-search, ...) shares: an argument parser whose
errors are the user's, and one way of ending: exit status 0, 2 with one line
naming what the user gave wrong, 130 when interrupted, or 1 with one line for
a failure of the machine (a full disk) or of the tool itself. Never a
traceback. What the table tools alone share (runs not done, a table with its
plots) is analysis/table_tool.py."""
import argparse
import contextlib
import errno
import os
import re
import resource
import shutil
import sqlite3
import sys
import tempfile

from fabricpy.errors import ReportError
from fabricpy.option_values import did_you_mean

# SQLite's words for a file it cannot read as a database: the user's file, not a bug here.
_UNREADABLE_DATABASE = ("malformed", "not a database", "locked", "busy", "unable to open", "disk i/o error")


class Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is a ReportError (exit status 2),
    with the options or values near a mistyped one."""

    def error(self, message):
        if message.startswith("argument --") and message.endswith("expected one argument"):
            option = message.split()[1].rstrip(":")
            message += f" (a value that begins with '-' is written {option}=VALUE)"
        raise ReportError(message + self._suggestion(message))

    def _suggestion(self, message):
        """'; did you mean --seed, --set?' for an unknown option, or for a value not among an option's choices."""
        unknown = re.match(r"unrecognized arguments: (.*)", message)
        if unknown:
            options = [o for action in self._actions for o in action.option_strings if o.startswith("--")]
            words = [w.split("=", 1)[0] for w in unknown.group(1).split() if w.startswith("--")]
            return did_you_mean(words[0], options) if words else ""
        choice = re.match(r"argument \S+: invalid choice: '(.*)' \(choose from (.*)\)$", message)
        if choice:
            return did_you_mean(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
        return ""


def fabricsim_binary(path):
    """The absolute path of a fabricsim binary the user named, or a ReportError."""
    if not os.access(path, os.X_OK):
        raise ReportError(f"{path}: not an executable fabricsim binary")
    return os.path.abspath(path)


@contextlib.contextmanager
def scratch_dir(keep, prefix):
    """Where a tool's runs write their databases: `keep` (made if missing and
    left), or a temporary folder removed at the end."""
    path = keep or tempfile.mkdtemp(prefix=prefix)
    os.makedirs(path, exist_ok=True)
    try:
        yield path
    finally:
        if not keep:
            shutil.rmtree(path, ignore_errors=True)


_written_databases = []  # the databases this tool writes (watch_database): where a disk I/O error is looked into


def watch_database(path):
    """Names a database the tool writes, so that a disk I/O error SQLite
    reports on it is told as a full disk when its disk or the file-size
    limit has no room left (SQLite reports ENOSPC as full, EFBIG as I/O)."""
    _written_databases.append(os.path.abspath(path))


def no_room(path, margin=1 << 20):
    """Whether the file `path` cannot grow by `margin` bytes: its disk's free
    space, or the process's file-size limit (ulimit -f)."""
    try:
        st = os.statvfs(os.path.dirname(os.path.abspath(path)))
        size = os.path.getsize(path) if os.path.exists(path) else 0
    except OSError:
        return False
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    return st.f_bavail * st.f_frsize < margin or (limit != resource.RLIM_INFINITY and size + margin > limit)


def full_disk(error):
    """The file `error` could not write because its disk (or the file-size
    limit, ulimit -f) is full, or None: SQLite's SQLITE_FULL, or ENOSPC,
    EFBIG or EDQUOT, also when Optuna or SQLAlchemy wrapped it, or a disk
    I/O error of SQLite's while a database the tool writes has no room."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
            return error.filename or "a file"
        if isinstance(error, sqlite3.Error) and "database or disk is full" in str(error):
            return "the database"
        if isinstance(error, sqlite3.Error) and "disk i/o error" in str(error).lower():
            full = [path for path in _written_databases if no_room(path)]
            if full:
                return full[0]
        error = getattr(error, "orig", None) or error.__cause__ or error.__context__
    return None


def run(prog, body):
    """Runs body() (which returns an exit status) and turns every way it can
    end into an exit status and at most one line on stderr."""
    def say(text):
        print(f"{prog}: {text}", file=sys.stderr)
    try:
        return body()
    except ReportError as e:
        say(e)
        return 2
    except KeyboardInterrupt:
        say("interrupted")
        return 130
    except BrokenPipeError:  # e.g. `sweep-table DB ... | head -3`: the reader has had enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as e:
        full = full_disk(e)
        if full:  # the machine cannot keep what the user asked for: said as the user's to fix
            say(f"no space left to write {full} (the disk is full, or ulimit -f): what was written before "
                "is kept; free space (or raise the limit) and rerun the same command")
            return 2
        return _failure(say, e)


def _failure(say, e):
    if isinstance(e, sqlite3.DatabaseError):
        if any(words in str(e).lower() for words in _UNREADABLE_DATABASE):
            say(f"the database cannot be read: {e}")
            return 2
        say(f"internal error (sqlite3: {e}); please report it")
        return 1
    if isinstance(e, MemoryError):
        say("out of memory")
        return 1
    if isinstance(e, OSError):  # the machine's, not the user's: a file gone while writing
        where = f" '{e.filename}'" if e.filename else ""
        say(f"cannot read or write{where}: {e.strerror or e}")
        return 1
    say(f"internal error ({type(e).__name__}: {e}); please report it")  # a bug here: still one clear line
    return 1
