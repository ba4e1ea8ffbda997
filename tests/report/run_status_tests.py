"""fabric-report on runs that did not finish, in a hand-made database: each
states its status and the simulated time it reached; an interrupted or
failed run is reported by default, a 'running' one needs --partial and is
told apart by whether its fabricsim still lives. Run through
test_report.py (CTest: FabricReport.RunStatusOnAHandMadeDatabase)."""
import os
import socket
import subprocess
import tempfile
import unittest

from report_fixture import HandMadeDatabase, assert_user_error, interval, markdown_table, report

US = 10**6


def this_process_start_ticks():
    with open("/proc/self/stat") as f:
        stat = f.read()
    return int(stat[stat.rfind(")") + 1:].split()[19])


def boot_id():
    with open("/proc/sys/kernel/random/boot_id") as f:
        return f.read().strip()


class RunStatusOnAHandMadeDatabase(unittest.TestCase):
    """Runs of 1 ms configured: 1 done; 2 running, its process gone; 3
    failed at 300 us; 4 running, its process this test; 5 interrupted at
    412.5 us (killed outright: no wall time). One subflow each, a frame
    delivered every 10 us until the time reached."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.db = os.path.join(cls.dir.name, "status.db")
        hand = HandMadeDatabase(cls.db)
        runs = [(1, "done", 1000 * US), (2, "running", 100 * US), (3, "failed", 300 * US),
                (4, "running", 50 * US), (5, "interrupted", 412_500_000)]
        for run_id, status, reached in runs:
            hand.add_run(run_id, status, reached, f"sim.time = 1ms\ntraffic.load_gbps = {10 * run_id}\n",
                         wall_seconds=None if status != "done" else 0.5)
            hand.add_flow(run_id, 0, 9)
            for i, t in enumerate(range(10 * US, reached + 1, 10 * US)):
                hand.deliver(run_id, i, 0, 9, t - 2 * US, t, 1500)
        ended = subprocess.Popen(["true"])  # a process that has ended: its id names no live fabricsim
        ended.wait()
        cls.gone_pid = ended.pid
        owners = [(2, cls.gone_pid, 1), (4, os.getpid(), this_process_start_ticks())]
        for run_id, pid, ticks in owners:
            hand.conn.execute("INSERT INTO run_owners VALUES (?, ?, ?, ?, ?)",
                              (run_id, socket.gethostname(), boot_id(), pid, ticks))
        hand.close()

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def report_text(self, *args):
        out = os.path.join(self.dir.name, "out_" + "_".join(a.strip("-") for a in args))
        status, _, err = report(self.db, *args, "--out", out)
        self.assertEqual(status, 0, err)
        with open(os.path.join(out, "report.md")) as f:
            return f.read(), err

    def refused(self, *args_and_words):
        args, words = args_and_words[0], args_and_words[1:]
        status, _, err = report(self.db, *args, "--out", os.path.join(self.dir.name, "refused"))
        assert_user_error(self, status, err, "fabric-report", *words)

    def test_the_last_run_interrupted_is_reported_by_default(self):
        md, err = self.report_text()
        self.assertIn("## Run 5: hand (interrupted)", md)
        self.assertIn("> **Status: interrupted at 412.5 us of 1 ms** (killed or stopped; the data up to then is "
                      "complete). Every figure covers 0 to 412.5 us.", md)
        self.assertIn("run 5 interrupted at 412.5 us of 1 ms", err)
        # Throughput over the time reached: 41 frames of 1500 B in 412.5 us.
        self.assertEqual(interval(md, "### Receive throughput per subflow"), (0, 412_500_000))
        _, rows = markdown_table(md, "### Receive throughput per subflow")
        self.assertEqual((int(rows[0][3]), float(rows[0][5])), (41, round(41 * 1500 * 8000 / 412_500_000, 3)))

    def test_a_failed_run_states_where_it_stopped(self):
        md, err = self.report_text("--run", "3")
        self.assertIn("> **Status: failed at 300 us of 1 ms** (a stall or a model error", md)
        self.assertIn("run 3 failed at 300 us of 1 ms", err)

    def test_a_done_run_has_no_status_line(self):
        md, err = self.report_text("--run", "1")
        self.assertIn("## Run 1: hand (done)", md)
        self.assertNotIn("**Status:", md)
        self.assertEqual(err, "")

    def test_a_running_run_needs_partial_and_says_whether_its_process_lives(self):
        self.refused(["--run", "4"], "run 4 is still 'running'", f"process {os.getpid()}, is still writing it",
                     "--partial")
        self.refused(["--run", "2"], "run 2 is still 'running'", f"process {self.gone_pid}, is gone (killed "
                     "outright)", "marks the run 'interrupted'", "--partial")
        md, _ = self.report_text("--run", "2", "--partial")
        self.assertIn("> **Status: running, rows complete up to 100 us of 1 ms** (its fabricsim, process "
                      f"{self.gone_pid}, is gone (killed outright)", md)

    def test_compare_takes_every_run_that_ended(self):
        md, _ = self.report_text("--compare", "traffic.load_gbps")
        _, rows = markdown_table(md, "## Runs against traffic.load_gbps")
        self.assertEqual([(r[0], r[2], r[3]) for r in rows],
                         [("1", "done", "10"), ("3", "failed", "30"), ("5", "interrupted", "50")])

    def test_window_and_warmup_are_bounded_by_the_time_reached(self):
        self.refused(["--run", "5", "--window", "1ps"], "--window 1ps", "for run 5 (412.5 us) use 4.13ns or more")
        self.refused(["--run", "5", "--warmup", "500us"], "--warmup 500us",
                     "run 5 (interrupted) reached only 412.5 us")
        self.report_text("--run", "5", "--window", "4.13ns")


if __name__ == "__main__":
    unittest.main()
