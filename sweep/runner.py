"""Runs a sweep's missing points with a backend and merges each finished
point into the target database, in point order (so that a sweep's runs get
their run ids in the order of its points, whatever finishes first)."""
import errno
import os
import shutil
import sqlite3

from fabricpy.tool import full_disk

from . import store

# What fabricsim says when its database's file could not grow (db/db_error.cpp).
DISK_FULL_WORDS = ("the disk is full", "(ulimit -f)", "the disk quota is used up")


class Work:
    """The sweep's work folder next to the database (on the shared folder,
    for Slurm): each point's database and output until it is merged."""

    def __init__(self, db, sid, attempt=None):
        self.folder = os.path.abspath(f"{db}.sweep-{sid}")
        os.makedirs(self.folder, exist_ok=True)
        # Files of this runner only: a runner killed before leaves files a
        # dying point of its own may still write.
        self.attempt = attempt or str(os.getpid())

    def point_db(self, point):
        return os.path.join(self.folder, f"point-{point.number}-{self.attempt}.db")

    def point_log(self, point):
        return os.path.join(self.folder, f"point-{point.number}-{self.attempt}.log")

    def point_args(self, point):
        """A Slurm task's command for the point: its arguments, each ended by a NUL byte."""
        return os.path.join(self.folder, f"point-{point.number}-{self.attempt}.args")

    def point_status(self, point):
        """The exit status a Slurm task wrote for the point, or None."""
        try:
            with open(os.path.join(self.folder, f"point-{point.number}-{self.attempt}.status")) as f:
                text = f.read().strip()
        except OSError:
            return None
        return int(text) if text.lstrip("-").isdigit() else None

    def note(self, point, text):
        with open(self.point_log(point), "a") as f:
            f.write(text + "\n")

    def discard_earlier_attempts(self):
        for name in os.listdir(self.folder):
            if name.startswith("point-") and f"-{self.attempt}." not in name:
                os.remove(os.path.join(self.folder, name))

    def discard(self, point):
        status = os.path.join(self.folder, f"point-{point.number}-{self.attempt}.status")
        for path in (self.point_db(point), self.point_db(point) + "-wal", self.point_db(point) + "-shm",
                     self.point_log(point), status, self.point_args(point)):
            if os.path.exists(path):
                os.remove(path)

    def tail(self, point, lines=20):
        try:
            with open(self.point_log(point), errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def remove_if_empty(self):
        """Removes the folder once no point's files are left in it."""
        if not any(f.startswith("point-") for f in os.listdir(self.folder)):
            shutil.rmtree(self.folder, ignore_errors=True)


class Outcome:
    def __init__(self):
        self.merged = []   # (point, run id)
        self.failed = []   # (point, exit status, output tail)
        self.stopped = []  # points the runner stopped (told to stop): left to a rerun, not failed


def run_sweep(sweep, conn, sid, to_run, backend, fabricsim, work, progress, stopping):
    """Runs `to_run` (points in order) with the backend; returns an Outcome.
    backend None: runs nothing, merges what an earlier attempt's tasks left
    (`work` of that attempt: --merge-attempt)."""
    outcome = Outcome()
    finished = {}  # point number -> (exit status, stopped by the runner), until its turn to merge
    order = list(to_run)

    def merge_ready():
        while order and order[0].number in finished:
            point = order.pop(0)
            settle(point, *finished.pop(point.number))

    def settle(point, status, stopped):
        if status != 0 and stopped:  # a stop of the user's, not a failure: a plain rerun runs it
            work.discard(point)
            outcome.stopped.append(point)
            progress.left(point)
            return
        if status == 0:
            try:
                run_id = store.merge_point(conn, sid, point, work.point_db(point))
            except (ValueError, OSError, sqlite3.Error) as e:  # a point database that is not whole
                if full_disk(e):  # not the point's failure: the sweep stops, and a rerun runs the point
                    raise
                status, tail = 1, f"merging it failed: {e}"
            else:
                outcome.merged.append((point, run_id))
                progress.finished(point, True, f"run {run_id}")
                work.discard(point)
                return
        else:
            tail = work.tail(point)
            if any(words in tail for words in DISK_FULL_WORDS):  # fabricsim could not write its point database
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), work.point_db(point))
        store.record_failure(conn, sid, point, status, tail)
        outcome.failed.append((point, status, tail))
        progress.finished(point, False, f"exit status {status}")

    def on_finished(point, status, stopped=False):
        finished[point.number] = (status, stopped)
        merge_ready()

    if backend is None:
        for point in to_run:
            status = work.point_status(point)
            if status is not None:
                on_finished(point, status)
    else:
        work.discard_earlier_attempts()
        for running in backend.run(sweep, fabricsim, to_run, work, on_finished, stopping):
            progress.update(running)
    # Stopped, or a point before them never finished: the points that finished
    # are merged; those that did not are left to a rerun.
    for point in list(order):
        if point.number in finished:
            order.remove(point)
            settle(point, *finished.pop(point.number))
    return outcome
