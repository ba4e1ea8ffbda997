"""fabric-report on runs that did not finish, in a hand-made database: each
states its status and the simulated time it reached; an interrupted or
failed run is reported by default, a 'running' one needs --partial and says
who writes it, and one whose fabricsim is gone is marked 'interrupted'.
Run through test_report.py (CTest: FabricReport.RunStatusOnAHandMadeDatabase)."""
import os
import socket
import sqlite3
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


def ended_process():
    """The id of a process that has ended: it names no live fabricsim."""
    ended = subprocess.Popen(["true"])
    ended.wait()
    return ended.pid


def hand_made_runs(path, runs, owners):
    """runs: (run_id, status, time reached), of 1 ms configured, one subflow
    each with a frame delivered every 10 us until the time reached; owners:
    (run_id, host, pid, start ticks)."""
    hand = HandMadeDatabase(path)
    for run_id, status, reached in runs:
        hand.add_run(run_id, status, reached, f"sim.time = 1ms\ntraffic.load_gbps = {10 * run_id}\n",
                     wall_seconds=None if status != "done" else 0.5)
        hand.add_flow(run_id, 0, 9)
        for i, t in enumerate(range(10 * US, reached + 1, 10 * US)):
            hand.deliver(run_id, i, 0, 9, t - 2 * US, t, 1500)
    for run_id, host, pid, ticks in owners:
        hand.conn.execute("INSERT INTO run_owners VALUES (?, ?, ?, ?, ?)", (run_id, host, boot_id(), pid, ticks))
    hand.close()


class RunStatusOnAHandMadeDatabase(unittest.TestCase):
    """Runs of 1 ms configured: 1 done; 2 running on another machine; 3
    failed at 300 us; 4 running, its process this test; 5 interrupted at
    412.5 us (killed outright: no wall time)."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.db = os.path.join(cls.dir.name, "status.db")
        hand_made_runs(cls.db, [(1, "done", 1000 * US), (2, "running", 100 * US), (3, "failed", 300 * US),
                                (4, "running", 50 * US), (5, "interrupted", 412_500_000)],
                       [(2, "another-machine", 4321, 1), (4, socket.gethostname(), os.getpid(),
                                                          this_process_start_ticks())])

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def report_text(self, *args):
        out = os.path.join(self.dir.name, "out_" + "_".join(a.strip("-") for a in args))
        status, _, err = report(self.db, *args, "--out", out)
        self.assertEqual(status, 0, err)
        with open(os.path.join(out, "report.md")) as f:
            return f.read(), err

    def refused(self, args, *words):
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

    def test_a_running_run_needs_partial_and_says_who_writes_it(self):
        self.refused(["--run", "4"], "run 4 is still 'running'", f"process {os.getpid()}, is still writing it",
                     "--partial")
        self.refused(["--run", "2"], "run 2 is still 'running'", "process 4321 on another machine, may still be "
                     "writing it", "--partial")
        md, _ = self.report_text("--run", "2", "--partial")
        self.assertIn("> **Status: running, rows complete up to 100 us of 1 ms** (its fabricsim, process 4321 on "
                      "another machine", md)

    def test_a_run_whose_fabricsim_is_gone_is_marked_interrupted(self):
        db = os.path.join(self.dir.name, "killed.db")
        pid = ended_process()
        hand_made_runs(db, [(1, "running", 100 * US)], [(1, socket.gethostname(), pid, 1)])
        out = os.path.join(self.dir.name, "killed")
        status, _, err = report(db, "--out", out)
        self.assertEqual(status, 0, err)
        self.assertEqual(err.splitlines()[0], f"fabric-report: run 1 was stopped outright at 100 us (process {pid} "
                                              "is gone); marked interrupted")
        with open(os.path.join(out, "report.md")) as f:
            self.assertIn("> **Status: interrupted at 100 us of 1 ms** (killed or stopped", f.read())
        conn = sqlite3.connect(db)
        self.assertEqual(conn.execute("SELECT status FROM runs").fetchall(), [("interrupted",)])
        self.assertEqual(conn.execute("SELECT count(*) FROM run_owners").fetchone(), (0,))
        conn.close()
        status, _, err = report(db, "--out", out)  # marked once
        self.assertEqual((status, "stopped outright" in err), (0, False), err)

    def test_a_file_locked_by_a_writer_is_left_as_it_is(self):
        db = os.path.join(self.dir.name, "locked.db")
        pid = ended_process()
        hand_made_runs(db, [(1, "running", 100 * US)], [(1, socket.gethostname(), pid, 1)])
        writer = sqlite3.connect(db, isolation_level=None)
        writer.execute("BEGIN IMMEDIATE")  # another writer holds the lock
        try:
            status, _, err = report(db, "--out", os.path.join(self.dir.name, "locked"))
        finally:
            writer.execute("ROLLBACK")
        self.assertEqual(status, 0, err)
        self.assertIn("reported as interrupted, but the file is left as it is (database is locked)", err)
        self.assertEqual(writer.execute("SELECT status FROM runs").fetchall(), [("running",)])
        writer.close()

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
