#!/usr/bin/python3
"""fabricsim-sweep (issue 22), end to end on a small study.

SameAsOneByOne: a 2x3 sweep through the local backend (2 workers) gives the
database content of the same six runs made one by one, run for run in the
order of the points; its runs' swept values are in sweep_values.

Resume: the runner killed mid-sweep (SIGKILL), then run again: every point
is in the database exactly once, and the second run ran only the rest.

FailingPoint: a point whose fabricsim is killed is reported with its exit
status and the last lines of its output, the others are merged, the runner
exits 1; a rerun without --retry-failed runs nothing and still exits 1;
with it, the point runs and the sweep is whole.

MergeAttempt: the merge job of --no-wait (--merge-attempt) merges every
point whose task left a finished database, also those after a point whose
task left none; a rerun then runs only that point.

DryRun: --dry-run lists the points and their commands and writes nothing.

BadDefinitions: an unknown key, an empty list, a value out of range in one
point, and a combination valid key by key but not as a run: exit 2 before
anything runs, naming the key (and the point); no database is written. A
--db that is another program's SQLite file: exit 2, the file untouched.

FABRICSIM_BINARY names the simulator. Run: /usr/bin/python3 tests/sweep/sweep_test.py [CLASS]"""
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
from database_polling import wait_for_rows  # noqa: E402
BINARY = os.path.abspath(os.environ.get("FABRICSIM_BINARY", os.path.join(ROOT, "build", "fabricsim")))
SWEEP = os.path.join(ROOT, "scripts", "fabricsim-sweep")
STUDY = ["E2a", "--time", "60us"]
AXES = ["--sweep", "leaf.cache.entries=16,64", "--sweep", "flow.f1.frame_size=512,1522,9022"]
POINT_SETS = [(e, s) for e in (16, 64) for s in (512, 1522, 9022)]
BOOKKEEPING = {"run_id", "started_at", "wall_seconds"}


def sweep(db, *extra, fabricsim=BINARY, timeout=300):
    return subprocess.run([SWEEP, *STUDY, *AXES, "--db", db, "--fabricsim", fabricsim, *extra],
                          capture_output=True, text=True, timeout=timeout)


def contents(db):
    """Every table of the runs, rows in run order, without the bookkeeping of
    when and how long (nor the sweep tables)."""
    conn = sqlite3.connect(db)
    out = {}
    for (table,) in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sweep%' "
                                 "AND name NOT IN ('meta', 'run_owners')"):
        columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[1] not in BOOKKEEPING]
        # The metric definitions are the file's, not a run's: in name order.
        order = "run_id" if table == "runs" else "run_id, rowid" if "run_id" in columns else ", ".join(columns)
        rows = conn.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}").fetchall()
        if table == "run_params":  # a swept key says 'sweep' where --set by hand says 'set': the one difference
            rows = [tuple("set" if v == "sweep" else v for v in row) for row in rows]
        out[table] = rows
    return out


class SameAsOneByOne(unittest.TestCase):
    def test(self):
        with tempfile.TemporaryDirectory() as d:
            swept = os.path.join(d, "swept.db")
            r = sweep(swept, "--jobs", "2")
            self.assertEqual(r.returncode, 0, r.stderr)
            by_hand = os.path.join(d, "by_hand.db")
            for entries, size in POINT_SETS:
                r1 = subprocess.run([BINARY, "--study", "E2a", "--time", "60us", "--db", by_hand, "--quiet",
                                     "--set", f"leaf.cache.entries={entries}", "--set", f"flow.f1.frame_size={size}"],
                                    capture_output=True, text=True)
                self.assertEqual(r1.returncode, 0, r1.stderr)
            a, b = contents(swept), contents(by_hand)
            self.assertEqual(sorted(a), sorted(b))
            self.assertGreater(len(a["frames"]), 1000)
            for table in a:
                self.assertEqual(a[table], b[table], table)
            conn = sqlite3.connect(swept)
            values = conn.execute("SELECT run_id, key, value FROM sweep_values ORDER BY run_id, key").fetchall()
            self.assertEqual(values[:2], [(1, "flow.f1.frame_size", "512"), (1, "leaf.cache.entries", "16")])
            self.assertEqual(len(values), 12)
            sources = conn.execute("SELECT key, value, source FROM run_params WHERE run_id = 1 AND key IN "
                                   "('flow.f1.frame_size', 'leaf.cache.entries') ORDER BY key").fetchall()
            self.assertEqual(sources, [("flow.f1.frame_size", "512", "sweep"), ("leaf.cache.entries", "16", "sweep")])
            self.assertFalse(os.path.exists(swept + ".sweep-1"), "the work folder goes when every point is in")


class Resume(unittest.TestCase):
    def test(self):
        with tempfile.TemporaryDirectory() as d:
            db = os.path.join(d, "s.db")
            runner = subprocess.Popen([SWEEP, *STUDY[:1], "--time", "300us", *AXES, "--db", db, "--jobs", "1",
                                       "--fabricsim", BINARY], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            merged = wait_for_rows(db, "SELECT count(*) FROM sweep_runs", 2)
            runner.send_signal(signal.SIGKILL)
            runner.wait()
            self.assertGreaterEqual(merged, 2)
            time.sleep(1)  # its point, told by the kernel, writes its run out and stops
            r = subprocess.run([SWEEP, *STUDY[:1], "--time", "300us", *AXES, "--db", db, "--fabricsim", BINARY],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            conn = sqlite3.connect(db)
            keys = [k for (k,) in conn.execute("SELECT point_key FROM sweep_runs")]
            self.assertEqual(len(keys), 6)
            self.assertEqual(len(set(keys)), 6)
            self.assertEqual(conn.execute("SELECT count(*) FROM runs").fetchone()[0], 6)
            ran = [line for line in r.stderr.splitlines() if line.startswith("point ")]
            self.assertLessEqual(len(ran), 6 - merged, r.stderr)


class FailingPoint(unittest.TestCase):
    def test(self):
        with tempfile.TemporaryDirectory() as d:
            broken = os.path.join(d, "fabricsim")
            with open(broken, "w") as f:  # the point with 64 entries and 1522 B frames is killed
                f.write(f"""#!/bin/sh
case "$*" in *leaf.cache.entries=64*flow.f1.frame_size=1522*|*flow.f1.frame_size=1522*leaf.cache.entries=64*)
  echo "about to be killed"; kill -9 $$ ;;
esac
exec {BINARY} "$@"
""")
            os.chmod(broken, 0o755)
            db = os.path.join(d, "s.db")
            r = sweep(db, "--jobs", "2", fabricsim=broken)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("point 5 FAILED (exit status 137): leaf.cache.entries=64; flow.f1.frame_size=1522", r.stderr)
            self.assertIn("about to be killed", r.stderr)
            conn = sqlite3.connect(db)
            self.assertEqual(conn.execute("SELECT count(*) FROM sweep_runs").fetchone()[0], 5)
            self.assertEqual(conn.execute("SELECT exit_status FROM sweep_failures").fetchall(), [(137,)])
            again = sweep(db)
            self.assertEqual(again.returncode, 1, again.stderr)
            self.assertIn("1 failed before (not retried), 0 to run", again.stderr)
            retried = sweep(db, "--retry-failed")
            self.assertEqual(retried.returncode, 0, retried.stderr)
            self.assertEqual(conn.execute("SELECT count(*) FROM sweep_runs").fetchone()[0], 6)
            self.assertEqual(conn.execute("SELECT count(*) FROM sweep_failures").fetchone()[0], 0)


class MergeAttempt(unittest.TestCase):
    def test(self):
        with tempfile.TemporaryDirectory() as d:
            db = os.path.join(d, "s.db")
            work = db + ".sweep-1"
            os.makedirs(work)
            for number, (entries, size) in enumerate(POINT_SETS, start=1):
                if number == 1:
                    continue  # its task was killed: no database, no status
                point_db = os.path.join(work, f"point-{number}-x.db")
                subprocess.run([BINARY, "--study", "E2a", "--time", "60us", "--db", point_db, "--quiet",
                                "--set", f"leaf.cache.entries={entries}", "--set", f"flow.f1.frame_size={size}"],
                               check=True, capture_output=True)
                with open(os.path.join(work, f"point-{number}-x.status"), "w") as f:
                    f.write("0\n")
            r = sweep(db, "--merge-attempt", "x")
            self.assertEqual(r.returncode, 0, r.stderr)
            conn = sqlite3.connect(db)
            self.assertEqual([p for (p,) in conn.execute("SELECT point FROM sweep_runs ORDER BY run_id")], [2, 3, 4, 5, 6])
            again = sweep(db)
            self.assertEqual(again.returncode, 0, again.stderr)
            self.assertIn("5 merged before, 0 failed before (not retried), 1 to run", again.stderr)
            self.assertEqual(conn.execute("SELECT count(*) FROM sweep_runs").fetchone()[0], 6)


class DryRun(unittest.TestCase):
    def test(self):
        with tempfile.TemporaryDirectory() as d:
            db = os.path.join(d, "s.db")
            r = sweep(db, "--dry-run", "--jobs", "1")
            self.assertEqual(r.returncode, 0, r.stderr)
            lines = r.stdout.splitlines()
            self.assertEqual(lines[0], "sweep of E2a: 6 points, local backend, 1 at a time")
            self.assertIn(f"each point runs into {db}.sweep-ID/point-N-RUNNER.db", lines[1])
            self.assertEqual(lines[2], "1: leaf.cache.entries=16; flow.f1.frame_size=512")
            self.assertIn("--study E2a --time 60us --quiet --db", lines[3])
            self.assertIn(f"--db {db}.sweep-ID/point-1-RUNNER.db", lines[3])
            self.assertIn("--set-swept leaf.cache.entries=16 --set-swept flow.f1.frame_size=512", lines[3])
            self.assertEqual(len(lines), 2 + 2 * 6)
            self.assertEqual(os.listdir(d), [])
            # The paths are the runner's own (Work), its sweep id and process id in place of ID and RUNNER.
            sys.path.insert(0, ROOT)
            from sweep.runner import Work
            point = type("Point", (), {"number": 1})()
            self.assertEqual(Work(db, "ID", "RUNNER").point_db(point), f"{db}.sweep-ID/point-1-RUNNER.db")


class PointWarnings(unittest.TestCase):
    """A point whose values break a physical constraint is named before the sweep runs (and refused
    with --strict); the others are not."""
    def test(self):
        with tempfile.TemporaryDirectory() as d:
            db = os.path.join(d, "s.db")
            r = sweep(db, "--dry-run", "--sweep", "topology.leaf_spine_cable_m=40,400", "--set",
                      "link.retry.timeout=2us")
            self.assertEqual(r.returncode, 0, r.stderr)
            warned = [line for line in r.stderr.splitlines() if line.startswith("fabricsim-sweep: warning: point ")]
            points = {line.split()[3] for line in warned}
            self.assertEqual(len(points), 6, r.stderr)  # the 6 points at 400 m
            timeouts = [line for line in warned if "link.retry.timeout 2 us < the link ACK round trip" in line]
            self.assertEqual(len(timeouts), 6, r.stderr)
            self.assertIn("topology.leaf_spine_cable_m=400): link.retry.timeout 2 us", timeouts[0])
            self.assertFalse(any("cable_m=40)" in line for line in warned))
            self.assertEqual(os.listdir(d), [])


class BadDefinitions(unittest.TestCase):
    def test(self):
        cases = [
            (["--sweep", "leaf.cache.entires=16,32"], ["leaf.cache.entires", "did you mean 'leaf.cache.entries'?"]),
            # A --set key every point shares, mistyped (issue 55: the key near it is named).
            (["--set", "leaf.cache.entires=16"], ["key 'leaf.cache.entires' has value '16'",
                                                  "did you mean 'leaf.cache.entries'?"]),
            (["--sweeep", "leaf.cache.entries=16,32"], ["unrecognized arguments: --sweeep", "did you mean --sweep?"]),
            (["--record", "frame"], ["invalid choice: 'frame'", "did you mean frames?"]),
            (["--sweep", "leaf.cache.entries="], ["leaf.cache.entries"]),
            (["--sweep", "leaf.cache.entries=16,32,5000"], ["leaf.cache.entries", "5000"]),
            # Shi below Slow (10) only as a run: point 2 of E2a's 16 x 2
            (["--sweep", "leaf.sync.shi=18,5"], ["sweep point 2 of 32", "leaf.sync.shi=5", "leaf.sync.slow"]),
            # With --strict, a point whose values break a physical constraint (a warning) is refused too
            (["--strict", "--sweep", "link.retry.buffer=6KB,2KB"],
             ["sweep point 2 of 32", "link.retry.buffer=2KB", "--strict", "link.retry.buffer 2 KB <"]),
        ]
        with tempfile.TemporaryDirectory() as d:
            for extra, needles in cases:
                db = os.path.join(d, "s.db")
                r = subprocess.run([SWEEP, "E2a", "--db", db, "--fabricsim", BINARY, *extra],
                                   capture_output=True, text=True, timeout=120)
                self.assertEqual(r.returncode, 2, (extra, r.stderr))
                for n in needles:
                    self.assertIn(n, r.stderr, extra)
                self.assertFalse(os.path.exists(db), extra)
            other = os.path.join(d, "other.db")  # somebody else's SQLite file is left as it is
            sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
            r = sweep(other)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("not a fabricsim database", r.stderr)
            tables = [t for (t,) in sqlite3.connect(other).execute("SELECT name FROM sqlite_schema")]
            self.assertEqual(tables, ["t"])


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        sys.argv = [sys.argv[0], sys.argv[1]] + sys.argv[2:]
    unittest.main(verbosity=2)
