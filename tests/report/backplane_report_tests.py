"""fabric-report on a backplane run (E12c, 802.3x on 32 KB): its own key
parameters, latency wording and warm-up; the backplane section's tables equal
the cookbook queries and the database; the memory over time is drawn."""
import os
import shutil
import sqlite3
import tempfile
import unittest

from report_fixture import fabricsim, markdown_table, png_size, report


class ReportOfABackplaneRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="fabric_report_backplane_")
        cls.db = os.path.join(cls.dir, "e12c.db")
        fabricsim(cls.db, "--study", "E12c", "--time", "8ms", "--set", "backplane.warmup=2ms", "--log-level",
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
        peak = self.conn.execute("SELECT value FROM samples WHERE metric = 'memory_peak_bytes'").fetchone()[0]
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
            n = self.conn.execute("SELECT count(*) FROM events WHERE entity = ? AND kind IN ('pause', 'go')",
                                  (got["link"],)).fetchone()[0]
            self.assertEqual(int(got["pause_frames"]), n)
            self.assertAlmostEqual(float(got["per_second"]), n / 8e-3, delta=0.1)
            self.assertAlmostEqual(float(got["link_share"]), n * 84 * 8 / (10e9 * 8e-3), delta=1e-6)

    def test_memory_over_time_is_drawn(self):
        self.assertIn("`memory_bytes` (bytes), 1 entities", self.md)
        self.assertIsNotNone(png_size(os.path.join(self.out, "run1_occupancy.png")))


if __name__ == "__main__":
    unittest.main()
