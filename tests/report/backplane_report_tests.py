"""fabric-report on a backplane run (E12c, 802.3x on 32 KB): its own key
parameters, latency wording and warm-up; the backplane section's tables equal
the cookbook queries and the database; the memory over time is drawn. And
scripts/sweep E12 with backplane-table. Run through test_report.py (CTest:
FabricReport.ReportOfABackplaneRun, FabricReport.BackplaneSweepTable)."""
import os
import shutil
import sqlite3
import tempfile
import unittest

from report_fixture import FABRICSIM, SOURCE, fabricsim, markdown_table, png_size, report, run_tool

SWEEP = os.path.join(SOURCE, "scripts", "sweep")


class ReportOfABackplaneRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="fabric_report_backplane_")
        cls.db = os.path.join(cls.dir, "e12c.db")
        fabricsim(cls.db, "--study", "E12c", "--time", "8ms", "--set", "backplane.warmup=2ms", "--record",
                  "frames", "--quiet")
        cls.out = os.path.join(cls.dir, "out")
        cls.status, cls.stdout, cls.stderr = report(cls.db, "--out", cls.out)
        with open(os.path.join(cls.out, "report.md")) as f:
            cls.md = f.read()
        cls.conn = sqlite3.connect(cls.db)

    @classmethod
    def tearDownClass(cls):
        cls.conn.close()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_says_what_was_modelled(self):
        self.assertEqual(self.status, 0, self.stderr)
        self.assertIn("backplane switch of 16 ports, memory 32KB, 802.3x with High 16KB, Low High / 2", self.md)
        self.assertIn("From the first byte out of the source application to the last byte into the sink", self.md)
        self.assertNotIn("Multicast packet cache", self.md)
        # The throughput table starts at the run's own warm-up.
        self.assertIn("Mean over [2000000000, 8000000000) ps", self.md)

    def test_figures_equal_the_database(self):
        header, rows = markdown_table(self.md, "### Backplane switch and 802.3x")
        got = dict(zip(header, rows[0]))
        self.assertEqual(got["discards"], "0")
        peak = self.conn.execute("SELECT value FROM totals WHERE metric = 'memory_peak_bytes'").fetchone()[0]
        self.assertEqual(int(got["max_memory_bytes"]), int(peak))
        self.assertLessEqual(peak, 32768)
        # Throughput from the deliveries after the warm-up, frame bytes.
        gbps = self.conn.execute("SELECT sum(bytes) * 8.0 / 6e9 * 1000 FROM deliveries "
                                 "WHERE t_delivered_ps >= 2e9").fetchone()[0]
        self.assertAlmostEqual(float(got["throughput_gbps"]), gbps, delta=0.002)
        p99 = self.conn.execute(
            "SELECT latency FROM (SELECT t_delivered_ps - t_created_ps AS latency, "
            "row_number() OVER (ORDER BY t_delivered_ps - t_created_ps) AS k, count(*) OVER () AS n "
            "FROM deliveries WHERE t_delivered_ps >= 2e9) WHERE k = CAST(0.99 * n + 0.999999 AS INTEGER)").fetchone()[0]
        self.assertAlmostEqual(float(got["latency_p99_us"]) * 1e6 / p99, 1.0, delta=0.035)  # a 2 % bin

    def test_pause_rate_per_link_equals_the_events(self):
        header, rows = markdown_table(self.md, "PAUSE frames per link")
        self.assertEqual([r[0] for r in rows], ["station0", "station1", "station2", "station3"])
        for row in rows:
            got = dict(zip(header, row))
            n = self.conn.execute("SELECT count(*) FROM v_events WHERE entity = ? AND kind IN ('pause', 'go')",
                                  (got["link"],)).fetchone()[0]
            self.assertEqual(int(got["pause_frames"]), n)
            self.assertAlmostEqual(float(got["per_second"]), n / 8e-3, delta=0.1)
            self.assertAlmostEqual(float(got["link_share"]), n * 84 * 8 / (10e9 * 8e-3), delta=1e-6)

    def test_memory_over_time_is_drawn(self):
        self.assertIn("`memory_bytes` (B), 1 entity,", self.md)
        self.assertIsNotNone(png_size(os.path.join(self.out, "run1_occupancy.png")))


class BackplaneSweepTable(unittest.TestCase):
    """scripts/sweep E12 (10 ms per point): the variants and the threshold
    sweep in one database; backplane-table's rows equal the database's
    figures and show the document's orderings; its plot is drawn."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="backplane_table_")
        cls.db = os.path.join(cls.dir, "e12.db")
        cls.result = run_tool(SWEEP, "E12", cls.db, "--time", "10ms", "--set", "backplane.warmup=2ms",
                              env={"FABRICSIM": FABRICSIM})

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_table_and_plot(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        header, rows = markdown_table(self.result.stdout, "| run_id")
        self.assertEqual(len(rows), 7)
        runs = {(r[1], r[3], r[4]): dict(zip(header, r)) for r in rows}
        rate = lambda study, pause, xoff: float(runs[(study, pause, xoff)]["throughput_gbps"])  # noqa: E731
        # 802.3x: no discard in any variant; without it, 32 KB discards (1.5 MB
        # takes longer than these 10 ms to fill).
        for r in runs.values():
            if r["pause"] == "true":
                self.assertEqual(r["discards"], "0", r)
        self.assertGreater(int(runs[("E12b", "false", "-")]["discards"]), 0)
        # Throughput: 1.5 MB without flow control > 32 KB with discards > 32 KB with XOFF.
        self.assertGreater(rate("E12a", "false", "-"), rate("E12b", "false", "-"))
        self.assertGreater(rate("E12b", "false", "-"), rate("E12c", "true", "16KB"))
        # The threshold sweep rises with High.
        sweep = [rate("E12a", "true", high) for high in ("4KB", "16KB", "64KB", "256KB")]
        self.assertEqual(sweep, sorted(sweep))
        conn = sqlite3.connect(self.db)
        for r in rows:
            value = conn.execute("SELECT value FROM totals WHERE run_id = ? AND metric = 'throughput_gbps'",
                                 (int(r[0]),)).fetchone()[0]
            self.assertAlmostEqual(float(r[5]), value, delta=0.0005)
        conn.close()
        self.assertIsNotNone(png_size(os.path.join(self.dir, "e12.png")))


if __name__ == "__main__":
    unittest.main()
