"""The QuickRing ring studies' table and plots (E14): E14 at three loads
without and with flow control, and a short E14adaptive; ring-table's cells
equal the samples of the database, its plots are written, and fabric-report
adds the section and its plots. Run through test_report.py (CTest:
FabricReport.RingTable)."""
import os
import shutil
import sqlite3
import tempfile
import unittest

from report_fixture import SOURCE, fabricsim, markdown_table, png_size, report, run_tool

from analysis import ring_table  # noqa: E402  (report_fixture puts the source on the path)

RING_TABLE = os.path.join(SOURCE, "scripts", "ring-table")


class RingTable(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="ring_table_")
        cls.db = os.path.join(cls.dir, "e14.db")
        for fc in ("false", "true"):
            for load in ("1", "2", "3"):
                fabricsim(cls.db, "--study", "E14", "--set", "sim.time=2ms", "--set", f"traffic.load_gbps={load}",
                          "--set", f"ring.q_adaptive={fc}", "--set", f"ring.delayed_retry={fc}", "--set",
                          f"ring.backoff={fc}", "--quiet")
        fabricsim(cls.db, "--study", "E14adaptive", "--set", "sim.time=6ms", "--set",
                  "ring.pattern_schedule=2ms-4ms:one-to-all", "--set", "traffic.load_schedule=2ms-4ms:2", "--quiet")
        for load in ("3", "2", "1"):  # runs 8-10: flow control on again, in runs of another length
            fabricsim(cls.db, "--study", "E14", "--set", "sim.time=1ms", "--set", f"traffic.load_gbps={load}",
                      "--quiet")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def sample(self, run, metric):
        conn = sqlite3.connect(self.db)
        try:
            return conn.execute("SELECT value FROM v_run_totals WHERE run_id = ? AND entity = 'ring' AND metric = ?",
                                (run, metric)).fetchone()[0]
        finally:
            conn.close()

    def test_table_equals_the_database(self):
        prefix = os.path.join(self.dir, "e14")
        result = run_tool(RING_TABLE, self.db, "--plot", prefix)
        self.assertEqual(result.returncode, 0, result.stderr)
        header, rows = markdown_table(result.stdout, "Offered load is the base load")
        self.assertEqual(len(rows), 10)
        by_run = {int(r[0]): dict(zip(header, r)) for r in rows}
        for run in range(1, 8):
            got = by_run[run]
            self.assertAlmostEqual(float(got["throughput Gb/s"]), self.sample(run, "throughput_gbps"), delta=0.0005)
            self.assertAlmostEqual(float(got["tickets / packet"]),
                                   self.sample(run, "tickets") / self.sample(run, "packets_sent"),
                                   delta=0.0055)  # the query rounds to 3 places, the table shows 2
        self.assertEqual(by_run[1]["mechanisms"], "none")
        self.assertEqual(by_run[1]["the document expects"], "carries what is offered (below saturation)")
        self.assertEqual(by_run[3]["the document expects"], "rises, peaks, then falls (thrashing)")
        self.assertEqual(by_run[4]["mechanisms"], "adaptive+delay+backoff")
        self.assertEqual(by_run[7]["schedule"], "load+pattern")
        for suffix in ("-throughput.png", "-tickets.png", "-latency.png", "-timeseries.png"):
            self.assertIsNotNone(png_size(prefix + suffix), suffix)
        self.assertFalse(os.path.exists(prefix + "-q.png"))  # no fixed-q sweep: nothing to draw, and said so
        self.assertIn(f"no {prefix}-q.png: it needs runs of 3 or more fixed limits q at one load", result.stdout)

    def test_runs_of_two_lengths_at_the_same_loads_are_two_lines_never_one(self):
        conn = sqlite3.connect(self.db)
        try:
            rows = ring_table.collect(conn)
        finally:
            conn.close()
        lines = ring_table.load_series(rows)
        with_fc = {key: [r["run_id"] for r in runs] for key, runs in lines.items() if key[3] != "none"}
        self.assertEqual(sorted(with_fc.values()), [[4, 5, 6], [10, 9, 8]])
        labels = sorted(ring_table.series_label(key, lengths=2) for key in with_fc)
        self.assertEqual([label.rsplit(", ", 1)[1] for label in labels], ["1 ms runs", "2 ms runs"])
        for runs in lines.values():
            self.assertEqual(len({r["sim_time_ps"] for r in runs}), 1)

    def test_a_run_delivering_well_under_its_offered_load_is_marked_overloaded(self):
        conn = sqlite3.connect(self.db)
        try:
            rows = {r["run_id"]: r for r in ring_table.collect(conn)}
        finally:
            conn.close()
        self.assertFalse(ring_table.overloaded(rows[1]))  # 1 Gb/s without flow control: below the ring's capacity
        self.assertTrue(ring_table.overloaded(rows[3]))  # 3 Gb/s: thrashing, far below what is offered
        self.assertFalse(ring_table.overloaded(rows[7]))  # a load schedule: no one offered load to compare

    def test_fabric_report_adds_the_section(self):
        out = os.path.join(self.dir, "report")
        status, stdout, stderr = report(self.db, "--out", out)
        self.assertEqual(status, 0, stderr)
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        self.assertIn("## QuickRing rings (E14): throughput, tickets and latency", md)
        self.assertIn("1 ring of 16 stations, groups 3x5 all-to-all, 1 Gb/s offered, flow control: adaptive q, "
                      "delayed retry, back-off", md)  # the last run's key parameters
        for plot in ("ring_throughput.png", "ring_tickets.png", "ring_latency.png", "ring_timeseries.png"):
            self.assertIsNotNone(png_size(os.path.join(out, plot)), plot)
        self.assertNotIn("ring_q.png", md)  # no fixed-q sweep in this file


if __name__ == "__main__":
    unittest.main()
