"""scripts/sweep with a stand-in simulator (FABRICSIM) that runs the real
one briefly, and fails at a chosen point: the shipped sweep runs through
fabricsim-sweep (one point at a time here), a failed point is reported and
fails the sweep after the others, and a simulator that cannot run stops it
before any point. Run through test_report.py (CTest: FabricReport.SweepScript)."""
import os
import shutil
import tempfile
import unittest

from report_fixture import FABRICSIM, SOURCE, run_tool

SWEEP = os.path.join(SOURCE, "scripts", "sweep")
# Checks the database path and lists the points as the real one does; logs
# the arguments of each run; at the FAIL_AT-th run exits with FAIL_STATUS,
# else runs the real simulator for 20 us.
STAND_IN = """#!/bin/sh
case "$*" in *--points*|*--check-db*) exec "$REAL_FABRICSIM" "$@" ;; esac
echo "$*" >> "$LOG"
if [ "$(wc -l < "$LOG")" -eq "$FAIL_AT" ]; then
  echo "stand-in: failing on purpose" >&2
  exit "$FAIL_STATUS"
fi
exec "$REAL_FABRICSIM" "$@" --time 20us
"""
E1_POINTS = 16


class SweepScript(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sweep_script_test_")
        self.stand_in = os.path.join(self.dir, "fabricsim")
        with open(self.stand_in, "w") as f:
            f.write(STAND_IN)
        os.chmod(self.stand_in, 0o755)
        self.log = os.path.join(self.dir, "calls")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def sweep(self, fail_at=0, fail_status=0, fabricsim=None):
        result = run_tool(SWEEP, "E1", os.path.join(self.dir, "e1.db"), "--jobs", "1", env={
            "FABRICSIM": fabricsim or self.stand_in, "REAL_FABRICSIM": FABRICSIM, "LOG": self.log,
            "FAIL_AT": str(fail_at), "FAIL_STATUS": str(fail_status)})
        self.assertNotIn("Traceback", result.stderr)
        return result

    def calls(self):
        with open(self.log) as f:
            return f.read().splitlines()

    def test_every_point_done_prints_its_run_and_the_table(self):
        result = self.sweep()
        self.assertEqual(result.returncode, 0, result.stderr)
        done = [line for line in result.stderr.splitlines() if line.startswith("point ") and " done (" in line]
        self.assertEqual(len(done), E1_POINTS, result.stderr)
        self.assertIn("| flow.f1.dst \\ leaf.cache.enable | false | true |", result.stdout)
        self.assertNotIn("FAILED", result.stderr)

    def test_a_failed_point_fails_the_sweep_after_the_others(self):
        result = self.sweep(fail_at=3, fail_status=3)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(len(self.calls()), E1_POINTS)  # the other points still ran
        self.assertIn("point 3 FAILED (exit status 3): flow.f1.dst=1,2,3", result.stderr)
        self.assertIn("stand-in: failing on purpose", result.stderr)  # the last lines of its output
        row = [line for line in result.stdout.splitlines() if line.startswith("| fanout 3: 1,2,3 |")]
        self.assertEqual(row[0].split("|")[2].strip(), "-")  # its cell is empty, the others are there

    def test_a_rerun_runs_only_what_is_missing(self):
        self.sweep(fail_at=3, fail_status=3)
        again = self.sweep()
        self.assertEqual(again.returncode, 1, again.stderr)  # the failed point is not retried unasked
        self.assertEqual(len(self.calls()), E1_POINTS)
        self.assertIn("7 merged before, 1 failed before (not retried), 0 to run", again.stderr)  # E1a
        self.assertIn("8 merged before, 0 failed before (not retried), 0 to run", again.stderr)  # E1b

    def test_a_simulator_that_cannot_run_stops_the_sweep(self):
        missing = os.path.join(self.dir, "no-such-fabricsim")
        result = self.sweep(fabricsim=missing)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(f"{missing}: not an executable file", result.stderr)
