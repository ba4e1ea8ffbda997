"""scripts/sweep with a stand-in simulator (FABRICSIM) that runs the real
one briefly, and fails or is interrupted at a chosen point: a failed point
fails the sweep loudly, an interrupted one stops it. Run through
test_report.py (CTest: FabricReport.SweepScript)."""
import os
import shutil
import tempfile
import unittest

from report_fixture import FABRICSIM, SOURCE, run_tool

SWEEP = os.path.join(SOURCE, "scripts", "sweep")
# Logs its arguments; at the FAIL_AT-th call exits with FAIL_STATUS, else
# runs the real simulator for 20 us.
STAND_IN = """#!/bin/sh
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
        result = run_tool(SWEEP, "E1", os.path.join(self.dir, "e1.db"), env={
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
        runs = [line for line in result.stdout.splitlines() if line.startswith("fabricsim: study E1")]
        self.assertEqual(len(runs), E1_POINTS)
        self.assertTrue(all(line.endswith(": done") for line in runs), runs)
        self.assertIn("| flow.f1.dst \\ leaf.cache.enable | false | true |", result.stdout)
        self.assertNotIn("FAILED", result.stderr)

    def test_a_failed_point_fails_the_sweep_after_the_others(self):
        result = self.sweep(fail_at=3, fail_status=3)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(len(self.calls()), E1_POINTS)  # the other points still ran
        self.assertIn("sweep: point 3 FAILED: ", result.stderr)
        self.assertIn("--study E1a --set flow.f1.dst=1,2,3 exited with status 3", result.stderr)
        self.assertIn("sweep: 1 of 16 points FAILED:\n  point 3 (exit status 3): --study E1a --set flow.f1.dst=1,2,3",
                      result.stderr)
        row = [line for line in result.stdout.splitlines() if line.startswith("| fanout 3: 1,2,3 |")]
        self.assertEqual(row[0].split("|")[2].strip(), "-")  # its cell is empty, the others are there

    def test_an_interrupted_point_stops_the_sweep(self):
        result = self.sweep(fail_at=2, fail_status=130)
        self.assertEqual(result.returncode, 130, result.stderr)
        self.assertEqual(len(self.calls()), 2)
        self.assertIn("sweep: interrupted at point 2 (--study E1a --set flow.f1.dst=1,2)", result.stderr)
        self.assertNotIn("| flow.f1.dst", result.stdout)

    def test_a_simulator_that_cannot_run_stops_the_sweep(self):
        missing = os.path.join(self.dir, "no-such-fabricsim")
        result = self.sweep(fabricsim=missing)
        self.assertEqual(result.returncode, 127, result.stderr)
        self.assertIn(f"sweep: cannot run '{missing}'", result.stderr)

    def test_unknown_study_is_a_usage_error(self):
        result = run_tool(SWEEP, "E99", env={"FABRICSIM": self.stand_in})
        self.assertEqual(result.returncode, 2)
        self.assertIn("usage: scripts/sweep", result.stderr)


if __name__ == "__main__":
    unittest.main()
