"""Runs left 'running' by a fabricsim that was stopped outright (SIGKILL,
a crash): fabric-report marks them 'interrupted' as the next fabricsim to
open the file would (db/abandoned_runs.cpp); their rows are complete up to
runs.sim_time_ps. A file that cannot be written, or stays locked by a
writer, is left as it is, and the runs are reported as interrupted all
the same."""
import sqlite3

from analysis import run_owner
from analysis.labels import duration
from analysis.rundb import database_uri

# How long to wait for another writer's lock before leaving the file as it is (s).
LOCK_WAIT_SECONDS = 2.0


def find(conn):
    """[(run_id, pid, simulated time reached)] of the runs whose fabricsim is gone."""
    try:
        rows = conn.execute("SELECT o.run_id, o.pid, coalesce(r.sim_time_ps, 0) FROM run_owners AS o "
                            "JOIN runs AS r USING (run_id) WHERE r.status = 'running' ORDER BY o.run_id").fetchall()
    except sqlite3.OperationalError:  # a file from before run_owners
        return []
    return [row for row in rows if (run_owner.owner(conn, row[0]) or (None, None))[1] == "gone"]


def mark(path, conn):
    """Marks the runs find() returns 'interrupted' in the file at `path`;
    returns them and one line each on what was done."""
    gone = find(conn)
    if not gone:
        return [], []
    try:
        writer = sqlite3.connect(database_uri(path, "rw"), uri=True, timeout=LOCK_WAIT_SECONDS,
                                 isolation_level=None)
        try:
            writer.execute("BEGIN IMMEDIATE")
            for run_id, _, _ in gone:
                writer.execute("UPDATE runs SET status = 'interrupted' WHERE run_id = ? AND status = 'running'",
                               (run_id,))
                writer.execute("DELETE FROM run_owners WHERE run_id = ?", (run_id,))
            writer.execute("COMMIT")
        finally:
            writer.close()
        done = "marked interrupted"
    except (sqlite3.Error, OSError) as e:
        done = f"reported as interrupted, but the file is left as it is ({e})"
    return gone, [f"run {run_id} was stopped outright at {duration(reached)} (process {pid} is gone); {done}"
                  for run_id, pid, reached in gone]
