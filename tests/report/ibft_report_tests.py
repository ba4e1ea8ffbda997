"""The InfiniBand fat tree study's tables and plots (E13): eight runs (three
schemes and OpenSM's second root rule, two message sizes); ibft-table's
cells equal the completion totals of the database, the cookbook's speedups
are their ratios, and fabric-report adds the section and its two plots. Run through test_report.py (CTest:
FabricReport.IbftTable)."""
import os
import shutil
import sqlite3
import tempfile
import unittest

from report_fixture import SOURCE, fabricsim, markdown_table, png_size, report, run_tool

IBFT_TABLE = os.path.join(SOURCE, "scripts", "ibft-table")


class IbftTable(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="ibft_table_")
        cls.db = os.path.join(cls.dir, "e13.db")
        for scheme in ("cyclic", "opensm", "opensm_spread", "unicast"):
            keys = ["--set", "ibft.scheme=opensm", "--set", "ibft.opensm_root=spread"] if scheme == "opensm_spread" \
                else ["--set", f"ibft.scheme={scheme}"]
            for size in ("256", "4KB"):
                fabricsim(cls.db, "--study", "E13", *keys, "--set", f"ibft.message_bytes={size}", "--set",
                          "ibft.sources=40%", "--set", "ibft.group=10%", "--record", "summary", "--quiet")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def completion_us(self, scheme, size):
        spread = scheme == "opensm_spread"
        conn = sqlite3.connect(self.db)
        try:
            return conn.execute(
                "SELECT s.value / 1e6 FROM totals s JOIN runs r ON r.run_id = s.run_id JOIN flows f ON "
                "f.run_id = r.run_id AND f.flow_id = 0 WHERE s.metric = 'completion_ps' AND "
                "instr(r.config, 'ibft.scheme = ' || ?) > 0 AND (instr(r.config, 'ibft.opensm_root = spread') > 0) = ? "
                "AND f.frame_bytes = ?", ("opensm" if spread else scheme, spread, size)).fetchone()[0]
        finally:
            conn.close()

    def test_table_equals_the_database(self):
        prefix = os.path.join(self.dir, "e13")
        result = run_tool(IBFT_TABLE, self.db, "--plot", prefix)
        self.assertEqual(result.returncode, 0, result.stderr)
        header, rows = markdown_table(result.stdout, "Messages of 4096 B")
        self.assertEqual(len(rows), 1)
        got = dict(zip(header, rows[0]))
        self.assertEqual((got["sources"], got["group"]), ("51", "13"))
        for scheme, column in (("cyclic", "cyclic (us)"), ("opensm", "OpenSM first (us)"),
                               ("opensm_spread", "OpenSM spread (us)"), ("unicast", "unicast (us)")):
            self.assertAlmostEqual(float(got[column]), self.completion_us(scheme, 4096), delta=0.05)
        for scheme, column in (("opensm", "OpenSM first / cyclic"), ("opensm_spread", "OpenSM spread / cyclic")):
            self.assertAlmostEqual(float(got[column]),
                                   self.completion_us(scheme, 4096) / self.completion_us("cyclic", 4096), delta=0.005)
        self.assertAlmostEqual(float(got["unicast / OpenSM spread"]),
                               self.completion_us("unicast", 4096) / self.completion_us("opensm_spread", 4096),
                               delta=0.005)
        self.assertEqual(got["seeds"], "1")  # one seed: no interval
        # The roots spread over the 16 tied top switches take the hot spot
        # away (issue 36): OpenSM spread is faster than OpenSM first.
        self.assertLess(self.completion_us("opensm_spread", 4096), self.completion_us("opensm", 4096))
        # Two message sizes make a line; one group size (13) gives a speedup no x axis to stand on.
        self.assertIsNotNone(png_size(prefix + "-time.png"))
        self.assertFalse(os.path.exists(prefix + "-speedup.png"))
        self.assertIn(f"no {prefix}-speedup.png: speedups against group size need runs of two or more group sizes",
                      result.stdout)

    def test_fabric_report_adds_the_section(self):
        out = os.path.join(self.dir, "report")
        status, stdout, stderr = report(self.db, "--out", out)
        self.assertEqual(status, 0, stderr)
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        self.assertIn("## InfiniBand fat tree (E13): completion times and speedups", md)
        self.assertIn("IBFT(8, 3), unicast scheme, 51 sources", md)  # the last run's key parameters
        self.assertIn("OpenSM spread (us)", md)
        self.assertIsNotNone(png_size(os.path.join(out, "ibft_time.png")))
        self.assertFalse(os.path.exists(os.path.join(out, "ibft_speedup.png")))
        self.assertIn("No speedup figure: speedups against group size need runs of two or more group sizes at "
                      "4096 B, and this file has groups of 13 only", md)


if __name__ == "__main__":
    unittest.main()
