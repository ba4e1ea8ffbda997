#!/usr/bin/python3
"""fabricsim-sweep refuses, before any point runs, sweeps that cannot give
what they promise (issue 37).

DatabasePaths: --db '', :memory:, file::memory:, file:x?mode=memory and a
directory: exit 2 naming --db, its value and why (fabricsim's own rule,
through fabricsim --check-db); nothing is written.

TooManyPoints: 8^20 points, and 2^64 (which wrapped to "0 points" and
exit 0), are refused at once with the count and the key sweep.max_points;
the limit is a key (--list-params shows it with its range), given with --set
or in a study's [sweep] section, and a sweep at the limit runs.

LargeSweepValidation: a million points (the limit raised) are validated in
seconds, not hours: each value once, each pair of values, and the
combinations a check reads; a bad pair of values far into the sweep is
still found, and each point's warnings are the ones its run would have.

PointsThatWouldBeOneRun: sim.seed swept with seeds, a value twice (also in
two spellings), a swept key --time overrides, an auto value that derives
another: exit 2 naming them; nothing is written.

PointsTooLargeForTheirDatabase: a point whose run would write more than
record.max_db_bytes (perm640 for 100 ms, about 40 GB) is refused before any
point runs, with the estimate and the ways out (issue 52, N13), as the run
itself would refuse it; nothing is written.

FABRICSIM_BINARY names the simulator. Run: /usr/bin/python3 tests/sweep/refusal_test.py [CLASS]"""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
BINARY = os.path.abspath(os.environ.get("FABRICSIM_BINARY", os.path.join(ROOT, "build", "fabricsim")))
SWEEP = os.path.join(ROOT, "scripts", "fabricsim-sweep")
# Keys of the fabric with at least 10 valid values (11 .. 20) that no check reads together.
TEN_VALUE_KEYS = ["leaf.cache.entries", "leaf.sync.entries", "leaf.control_bytes", "cna.queue_frames",
                  "leaf.header.hth", "link.credit_batch"]


def sweep(cwd, *args, timeout=300):
    return subprocess.run([SWEEP, *args, "--fabricsim", BINARY], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd)


def points(*args, timeout=300):
    return subprocess.run([BINARY, *args, "--points"], capture_output=True, text=True, timeout=timeout)


class PointsTooLargeForTheirDatabase(unittest.TestCase):
    def test(self):
        with tempfile.TemporaryDirectory() as d:
            r = sweep(d, "perm640", "--time", "100ms", "--sweep", "leaf.cache.entries=8,16", "--db", "big.db")
            self.assertEqual(r.returncode, 2, r.stderr)
            line = r.stderr.strip().splitlines()[-1]
            self.assertIn("record.max_db_bytes has value '4GB'", line)
            self.assertIn("--record summary", line)
            self.assertFalse(os.path.exists(os.path.join(d, "big.db")), "something ran")


class DatabasePaths(unittest.TestCase):
    def test(self):
        with tempfile.TemporaryDirectory() as d:
            folder = os.path.join(d, "folder")
            os.mkdir(folder)
            for db, why in [("", "temporary database"), (":memory:", "in memory"), ("file::memory:", "URI"),
                            ("file:x?mode=memory", "URI"), (folder, "directory")]:
                r = sweep(d, "E11", "--time", "1us", "--db", db)
                self.assertEqual(r.returncode, 2, (db, r.stderr))
                self.assertIn(f"fabricsim-sweep: --db has value '{db}': ", r.stderr)
                self.assertIn(why, r.stderr)
                self.assertNotIn("point 1/1", r.stderr)
                self.assertNotIn("Traceback", r.stderr)
            self.assertEqual(sorted(os.listdir(d)), ["folder"])
            self.assertEqual(os.listdir(folder), [])
            r = sweep(d, "E11", "--time", "1us", "--db", "./file:kept.db")  # a file so named is a file
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("file:kept.db", os.listdir(d))


class TooManyPoints(unittest.TestCase):
    def test(self):
        with tempfile.TemporaryDirectory() as d:
            db = os.path.join(d, "s.db")
            eight = [a for i in range(20) for a in ("--sweep", f"flow.f{i}.priority=0,1,2,3,4,5,6,7")]
            started = time.monotonic()
            r = sweep(d, "E11", *eight, "--db", db)
            self.assertLess(time.monotonic() - started, 20)  # not 44 s to a bad_alloc
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("the sweep has 1152921504606846976 points (8^20: ", r.stderr)
            self.assertIn("at most sweep.max_points = 100000", r.stderr)
            two = [a for i in range(63) for a in ("--sweep", f"flow.f{i}.priority=0,1")]
            r = sweep(d, "E11", *two, "--sweep", "seeds=1,2", "--db", db)  # 2^64 points: once "0 points", exit 0
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("the sweep has more than 18446744073709551615 points (2^64: ", r.stderr)
            self.assertFalse(os.path.exists(db))
            # The limit is a key: its value, range and unit in --list-params.
            listed = subprocess.run([BINARY, "--list-params", "sweep.max_points"], capture_output=True, text=True,
                                    env=dict(os.environ, COLUMNS="200")).stdout
            line = [l for l in listed.splitlines() if l.startswith("sweep.max_points ")]
            self.assertEqual(len(line), 1, listed[:300])
            self.assertEqual(line[0].split()[1:4], ["integer", "100000", "points"])
            self.assertIn("1 .. 1000000", line[0])
            # E2a's 16 points against a limit of 15 and of 16, given with --set or in the study's [sweep].
            r = sweep(d, "E2a", "--set", "sweep.max_points=15", "--db", db, "--dry-run")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("the sweep has 16 points (4 x 4: ", r.stderr)
            self.assertIn("at most sweep.max_points = 15", r.stderr)
            r = sweep(d, "E2a", "--set", "sweep.max_points=16", "--db", db, "--dry-run")
            self.assertEqual(r.returncode, 0, r.stderr)
            study = os.path.join(d, "limited.ini")
            with open(study, "w") as f:
                f.write("[topology]\nracks = 1\nleaves = 2\n[sweep]\nmax_points = 3\nleaf.cache.entries = 16, 32\n"
                        "seeds = 1-2\n")
            r = sweep(d, "--config", study, "--db", db, "--dry-run")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("the sweep has 4 points (2 x 2: ", r.stderr)
            r = sweep(d, "--config", study, "--set", "sweep.max_points=4", "--db", db, "--dry-run")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertFalse(os.path.exists(db))


class LargeSweepValidation(unittest.TestCase):
    def test_a_million_points_in_seconds(self):
        axes = [a for k in TEN_VALUE_KEYS for a in ("--sweep", f"{k}={','.join(str(v) for v in range(11, 21))}")]
        started = time.monotonic()
        r = subprocess.run([BINARY, "--study", "E11", "--points", "--set", "sweep.max_points=1000000", *axes],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
        took = time.monotonic() - started
        self.assertEqual(r.returncode, 0, r.stderr.decode()[-2000:])
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 1 + 10 ** 6)
        self.assertEqual(json.loads(lines[-1])["key"], "; ".join(f"{k}=20" for k in TEN_VALUE_KEYS))
        # One point at ~5 ms took 80 min before; 1,270 points stand for them (1 + 6 x 9 + 15 x 81).
        self.assertLess(took, 120, f"{took:.1f} s")

    def test_a_bad_pair_of_values_far_into_the_sweep_is_found(self):
        # leaf.sync.slow must stay at most leaf.sync.shi: only slow=55 with shi=50, the last of each, breaks it.
        axes = ["--sweep", "leaf.sync.shi=" + ",".join(str(v) for v in range(100, 40, -10)),
                "--sweep", "leaf.cache.entries=" + ",".join(str(v) for v in range(11, 21)),
                "--sweep", "leaf.sync.slow=" + ",".join(str(v) for v in range(5, 60, 5))]
        r = points("--study", "E11", *axes)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("sweep point 561 of 660 (leaf.sync.shi=50; leaf.cache.entries=11; leaf.sync.slow=55)",
                      r.stderr)
        self.assertIn("key 'leaf.sync.slow' has value '55'; allowed: at most leaf.sync.shi = 50", r.stderr)

    def test_each_points_warnings_are_its_runs(self):
        # Checks that read three and four swept keys (the retry buffer: cable, uplink rate, ACK delay), an
        # auto key, and keys that change nothing checked: each point's warnings as --points lists them
        # for that point alone.
        axes = ["topology.leaf_spine_cable_m=40,400", "link.retry.ack_delay=0ns,1us", "topology.uplink_gbps=25,100",
                "spine.buffer_packets=8,auto", "leaf.cache.entries=16,32,64"]
        base = ["--study", "E11", "--set", "link.retry.timeout=2us", "--set", "link.retry.buffer=6KB"]
        r = points(*base, *[a for s in axes for a in ("--sweep", s)])
        self.assertEqual(r.returncode, 0, r.stderr)
        listed = [json.loads(line) for line in r.stdout.splitlines()][1:]
        self.assertEqual(len(listed), 48)
        self.assertGreater(len([p for p in listed if p["warnings"]]), 10)
        self.assertGreater(len({tuple(p["warnings"]) for p in listed}), 4)
        for p in listed:
            alone = points(*base, *[a for s in p["sets"] for a in ("--set", s)])
            self.assertEqual(alone.returncode, 0, alone.stderr)
            self.assertEqual(json.loads(alone.stdout.splitlines()[1])["warnings"], p["warnings"], p["key"])


class PointsThatWouldBeOneRun(unittest.TestCase):
    def test(self):
        cases = [
            (["--sweep", "sim.seed=1,2", "--sweep", "seeds=1,2"],
             ["key 'sweep.seeds' has value '1,2'", "sim.seed is swept itself"]),
            (["--sweep", "leaf.cache.entries=16,16"], ["leaf.cache.entries=16 is given twice"]),
            (["--sweep", "leaf.cache.entries=16,32,016"],
             ["leaf.cache.entries=016 is leaf.cache.entries=16 again (one value, two spellings)"]),
            (["--sweep", "sim.time=2us,3us"],
             ["sweep point 1 of 2 (sim.time=2us)", "key 'sim.time' is swept, but the command line", "(1us)"]),
            (["--sweep", "link.retry.timeout=auto,2us"],
             ["sweep point 1 of 2 (link.retry.timeout=auto)", "derives 2us, the value sweep point 2 gives it"]),
        ]
        with tempfile.TemporaryDirectory() as d:
            db = os.path.join(d, "s.db")
            for extra, needles in cases:
                r = sweep(d, "E11", "--time", "1us", "--db", db, *extra)
                self.assertEqual(r.returncode, 2, (extra, r.stderr))
                for n in needles:
                    self.assertIn(n, r.stderr, extra)
                self.assertNotIn("point 1/", r.stderr)  # none ran
            self.assertEqual(os.listdir(d), [])


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        sys.argv = [sys.argv[0], sys.argv[1]] + sys.argv[2:]
    unittest.main(verbosity=2)
