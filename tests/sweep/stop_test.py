#!/usr/bin/python3
"""A sweep stopped by its user, and a runner killed outright (issue 37).

StoppedAndRerun: a sweep of 120 short points (a 2-leaf fabric for 100 us) is
stopped 20 times at random moments by SIGINT, SIGTERM or SIGHUP: each stop
ends the runner with 128 + the signal, leaves no fabricsim behind and
records no point as failed; plain reruns then finish it: every point once
in the database, every run done, none failed.

NoChildOutlivesTheRunner: the runner killed with SIGKILL while fabricsim
lists the points, and while points run: no fabricsim it started lives on
(the kernel's parent-death signal).

FABRICSIM_BINARY names the simulator. Run: /usr/bin/python3 tests/sweep/stop_test.py [CLASS]"""
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
BINARY = os.path.abspath(os.environ.get("FABRICSIM_BINARY", os.path.join(ROOT, "build", "fabricsim")))
SWEEP = os.path.join(ROOT, "scripts", "fabricsim-sweep")
TWO_LEAVES = ["perm640", "--set", "topology.racks=1", "--set", "topology.leaves=2", "--set",
              "traffic.pattern=permutation", "--set", "traffic.permutation=shift", "--set", "traffic.shift=5"]
POINTS = 120
AXES = ["--sweep", "leaf.cache.entries=16,32,64,128", "--sweep", "seeds=1-30"]
STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def processes():
    """pid -> (parent pid, state, command line) of every process."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{name}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        out[int(name)] = (int(fields[1]), fields[0], command)
    return out


def alive(pid, command):
    """Whether `pid` still runs `command` (a zombie has ended)."""
    p = processes().get(pid)
    return p is not None and p[1] != "Z" and p[2] == command


def running_with(text):
    """The live processes whose command line holds `text` (a sweep's database path)."""
    return [pid for pid, (_, state, command) in processes().items() if text in command and state != "Z"
            and pid != os.getpid()]


class StoppedAndRerun(unittest.TestCase):
    def test(self):
        rng = random.Random(37)
        with tempfile.TemporaryDirectory() as d:
            db = os.path.join(d, "s.db")
            command = [SWEEP, *TWO_LEAVES, "--time", "100us", *AXES, "--db", db, "--jobs", "2", "--fabricsim", BINARY]
            stopped_while_running = 0
            for attempt in range(20):
                number = rng.choice(STOPS)
                runner = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                time.sleep(rng.uniform(0.2, 1.6))
                runner.send_signal(number)
                out, err = runner.communicate(timeout=120)
                # Stopped (or done before the signal came); a signal before Python set its handlers ends it by
                # the signal's default.
                self.assertIn(runner.returncode, (0, 128 + number, -number), (attempt, number, err))
                self.assertNotIn("FAILED", err, attempt)
                if f"stopped by signal {number}" in err and " points left (0 of them" not in err:
                    stopped_while_running += 1
                self.assertEqual(running_with(db), [], f"a fabricsim of the sweep outlived its runner ({attempt})")
                if os.path.exists(db):
                    conn = sqlite3.connect(db, timeout=30)
                    self.assertEqual(conn.execute("SELECT count(*) FROM sweep_failures").fetchone()[0], 0, err)
                    conn.close()
            self.assertGreaterEqual(stopped_while_running, 5, "the stops should catch points running")
            for rerun in range(3):  # plain reruns, no --retry-failed
                r = subprocess.run(command, capture_output=True, text=True, timeout=600)
                self.assertNotIn("FAILED", r.stderr)
                self.assertIn(" 0 failed before (not retried)", r.stderr)
                if r.returncode == 0:
                    break
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertLessEqual(rerun, 0, "one plain rerun finishes it")
            conn = sqlite3.connect(db)
            points = [p for (p,) in conn.execute("SELECT point FROM sweep_runs ORDER BY point")]
            self.assertEqual(points, list(range(1, POINTS + 1)))
            self.assertEqual(conn.execute("SELECT count(DISTINCT point_key) FROM sweep_runs").fetchone()[0], POINTS)
            self.assertEqual(conn.execute("SELECT status, count(*) FROM runs GROUP BY status").fetchall(),
                             [("done", POINTS)])
            self.assertEqual(conn.execute("SELECT count(*) FROM sweep_failures").fetchone()[0], 0)
            self.assertEqual(conn.execute("SELECT count(*) FROM sweep_values").fetchone()[0], 2 * POINTS)
            self.assertFalse(os.path.exists(db + ".sweep-1"), "the work folder goes when every point is in")


class NoChildOutlivesTheRunner(unittest.TestCase):
    def assert_ended(self, pids, within):
        deadline = time.monotonic() + within
        while any(alive(pid, command) for pid, command in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        self.assertEqual([(pid, command) for pid, command in pids if alive(pid, command)], [])

    def test_while_it_lists_the_points(self):
        with tempfile.TemporaryDirectory() as d:
            listing = os.path.join(d, "listing")
            stand_in = os.path.join(d, "fabricsim")
            with open(stand_in, "w") as f:  # lists the points for ever
                f.write(f"""#!/bin/sh
case "$*" in *--points*) echo $$ > {listing}; exec sleep 300 ;; esac
exec {BINARY} "$@"
""")
            os.chmod(stand_in, 0o755)
            runner = subprocess.Popen([SWEEP, "E2a", "--db", os.path.join(d, "s.db"), "--fabricsim", stand_in],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 30
            while not (os.path.exists(listing) and os.path.getsize(listing)) and time.monotonic() < deadline:
                time.sleep(0.05)
            with open(listing) as f:
                pid = int(f.read())
            time.sleep(0.2)  # the shell has become sleep
            command = processes()[pid][2]
            self.assertIn("sleep 300", command)
            runner.send_signal(signal.SIGKILL)
            runner.wait()
            self.assert_ended([(pid, command)], within=5)

    def test_while_points_run(self):
        with tempfile.TemporaryDirectory() as d:
            db = os.path.join(d, "s.db")
            runner = subprocess.Popen([SWEEP, "E2a", "--time", "5ms", "--db", db, "--jobs", "2", "--fabricsim", BINARY],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 60
            children = []
            while len(children) < 2 and time.monotonic() < deadline:
                time.sleep(0.1)
                children = [(pid, command) for pid, (parent, state, command) in processes().items()
                            if parent == runner.pid and "--set-swept" in command]
            self.assertEqual(len(children), 2, "two points running")
            runner.send_signal(signal.SIGKILL)
            runner.wait()
            self.assert_ended(children, within=30)  # each writes its run out (interrupted) and ends
            self.assertEqual(running_with(db), [])


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        sys.argv = [sys.argv[0], sys.argv[1]] + sys.argv[2:]
    unittest.main(verbosity=2)
