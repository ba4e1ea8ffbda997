#!/usr/bin/python3
"""fabricsim-sweep --backend slurm on a Slurm cluster of one node that the
test starts (scripts/slurm-single-node: munged, slurmctld and slurmd with a
generated slurm.conf in a temporary folder) and stops, by process id.

Waiting: the 2x3 sweep of sweep_test.py as a job array, the runner waiting
and merging: the same database content as the six runs made one by one.

NoWait: the same sweep submitted with --no-wait: the array and a dependent
job that merges it; once both have left the queue, the same content.

Search: fabricsim-search's smallest cache (tests/search/search_test.py) with
each batch of designs a job array: the same answer and runs as locally.

FABRICSIM_BINARY names the simulator. Run as root: /usr/bin/python3 tests/sweep/slurm_test.py [CLASS]"""
import os
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_test import BINARY, POINT_SETS, ROOT, contents, sweep  # noqa: E402

SINGLE_NODE = os.path.join(ROOT, "scripts", "slurm-single-node")


class Cluster:
    def __init__(self, folder):
        self.folder = folder

    def __enter__(self):
        r = subprocess.run([SINGLE_NODE, "start", self.folder], capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise RuntimeError(f"slurm-single-node start: {r.stderr}")
        os.environ["SLURM_CONF"] = os.path.join(self.folder, "slurm.conf")
        return self

    def __exit__(self, *exc):
        subprocess.run([SINGLE_NODE, "stop", self.folder], timeout=60)
        os.environ.pop("SLURM_CONF", None)

    def idle(self):
        return subprocess.run(["squeue", "-h"], capture_output=True, text=True).stdout.strip() == ""


def one_by_one(folder):
    db = os.path.join(folder, "by_hand.db")
    for entries, size in POINT_SETS:
        subprocess.run([BINARY, "--study", "E2a", "--time", "60us", "--db", db, "--quiet",
                        "--set", f"leaf.cache.entries={entries}", "--set", f"flow.f1.frame_size={size}"], check=True)
    return contents(db)


class Waiting(unittest.TestCase):
    def test(self):
        with tempfile.TemporaryDirectory() as d, Cluster(os.path.join(d, "slurm")):
            db = os.path.join(d, "swept.db")
            r = sweep(db, "--backend", "slurm", "--jobs", "2")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(contents(db), one_by_one(d))


class NoWait(unittest.TestCase):
    def test(self):
        with tempfile.TemporaryDirectory() as d, Cluster(os.path.join(d, "slurm")) as cluster:
            db = os.path.join(d, "swept.db")
            r = sweep(db, "--backend", "slurm", "--jobs", "2", "--no-wait")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("submitted job array", r.stdout)
            deadline = time.time() + 240
            while not cluster.idle() and time.time() < deadline:
                time.sleep(1)
            self.assertTrue(cluster.idle(), "the array and its merge job ended")
            self.assertEqual(contents(db), one_by_one(d))


class Search(unittest.TestCase):
    def test(self):
        search_test = os.path.join(ROOT, "tests", "search", "search_test.py")
        sys.path.insert(0, os.path.dirname(search_test))
        from search_test import CACHE, E2B, SEARCH, answer_rows
        with tempfile.TemporaryDirectory() as d, Cluster(os.path.join(d, "slurm")):
            runs = {}
            for backend in ("local", "slurm"):
                r = subprocess.run(["/usr/bin/python3", SEARCH, *E2B, *CACHE, "--backend", backend, "--jobs", "2",
                                    "--db", os.path.join(d, f"{backend}.db"), "--fabricsim", BINARY],
                                   capture_output=True, text=True, timeout=600)
                self.assertEqual(r.returncode, 0, r.stderr)
                runs[backend] = (answer_rows(r.stdout)[0][1], r.stdout.splitlines()[0])
            self.assertEqual(runs["slurm"], runs["local"])


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        sys.argv = [sys.argv[0], sys.argv[1]] + sys.argv[2:]
    unittest.main(verbosity=2)
