#!/usr/bin/python3
"""A sweep and a search whose database's disk fills up (issue 52, N7): the
file-size limit (ulimit -f, RLIMIT_FSIZE) lets the database grow a little,
then every write fails, as on a full disk. The tool ends with exit 2 and one
line naming the file (no traceback), the file stays whole (PRAGMA
integrity_check), no point is recorded as failed for it, and the same
command without the limit continues: every point merged, none run twice.

FABRICSIM_BINARY names the simulator. Run: /usr/bin/python3 tests/sweep/full_disk_test.py [CLASS]"""
import os
import resource
import shutil
import sqlite3
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BINARY = os.path.abspath(os.environ.get("FABRICSIM_BINARY", os.path.join(ROOT, "build", "fabricsim")))
SWEEP = os.path.join(ROOT, "scripts", "fabricsim-sweep")
SEARCH = os.path.join(ROOT, "scripts", "fabricsim-search")
ROOM = 150_000  # bytes the database may still grow: less than a few points' runs


def limited(command, db, cwd):
    """Runs `command` with files limited to the database's size plus ROOM."""
    limit = os.path.getsize(db) + ROOM

    def cap():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600, preexec_fn=cap)


def one(sql, db):
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchone()[0]
    finally:
        conn.close()


class Case(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="fabricsim_full_disk_")
        self.db = os.path.join(self.dir, "full.db")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def assert_stopped_by_the_disk(self, r):
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        said = [line for line in r.stderr.splitlines() if "no space left" in line]
        self.assertEqual(len(said), 1, r.stderr)
        self.assertIn(self.db, said[0])
        self.assertEqual(one("PRAGMA integrity_check", self.db), "ok")


class SweepOnAFullDisk(Case):
    def test_the_rerun_merges_every_point_once(self):
        sweep = ["/usr/bin/python3", SWEEP, "E2a", "--time", "60us", "--db", self.db, "--jobs", "2",
                 "--fabricsim", BINARY]
        first = subprocess.run(sweep + ["--sweep", "leaf.cache.entries=8,16"], cwd=self.dir, capture_output=True,
                               text=True, timeout=600)
        self.assertEqual(first.returncode, 0, first.stderr)
        more = sweep + ["--sweep", "leaf.cache.entries=8,16,32,64,128"]
        self.assert_stopped_by_the_disk(limited(more, self.db, self.dir))
        self.assertEqual(one("SELECT count(*) FROM sweep_failures", self.db), 0)
        again = subprocess.run(more, cwd=self.dir, capture_output=True, text=True, timeout=600)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(one("SELECT count(*) FROM sweep_runs WHERE sweep_id = 2", self.db), 20)
        self.assertEqual(one("SELECT count(*) FROM (SELECT point_key FROM sweep_runs GROUP BY sweep_id, point_key "
                             "HAVING count(*) > 1)", self.db), 0)


class SearchOnAFullDisk(Case):
    def test_the_rerun_spends_the_budget_once(self):
        search = ["/usr/bin/python3", SEARCH, "E2b", "--time", "100us", "--vary", "leaf.cache.entries=4..128:int",
                  "--maximize", "min_subflow_gbps", "--trials", "8", "--jobs", "2", "--db", self.db,
                  "--fabricsim", BINARY]
        first = subprocess.run(search[:search.index("--trials") + 1] + ["2"] + search[search.index("--trials") + 2:],
                               cwd=self.dir, capture_output=True, text=True, timeout=600)
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assert_stopped_by_the_disk(limited(search, self.db, self.dir))
        again = subprocess.run(search, cwd=self.dir, capture_output=True, text=True, timeout=600)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(one("SELECT count(*) FROM search_trials WHERE status = 'complete'", self.db), 8)
        self.assertEqual(one("SELECT count(*) FROM search_trials WHERE status <> 'complete'", self.db), 0)
        self.assertEqual(one("SELECT count(*) FROM (SELECT v.value FROM sweep_values v WHERE v.key = "
                             "'leaf.cache.entries' GROUP BY v.value HAVING count(*) > 1)", self.db), 0)


if __name__ == "__main__":
    unittest.main()
