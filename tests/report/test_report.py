"""fabric-report end to end: a small study's report, its numbers against
the SQL cookbook, Jain's index on a hand-made database, every cookbook
query, and the table tools; bad input (bad_input_tests.py,
table_tools_bad_input_tests.py), runs that did not finish
(run_status_tests.py) and scripts/sweep (sweep_script_tests.py) are run
from here too. Run by CTest (one process per class) or directly:
/usr/bin/python3 tests/report/test_report.py [CLASS]"""
import glob
import os
import re
import sqlite3
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_fixture import (SOURCE, HandMadeDatabase, StudyDatabase, fabricsim, interval,  # noqa: E402
                            markdown_table, png_size, report, table_tool)
from analysis.cookbook import run_query  # noqa: E402
# The classes of the other files, so that CTest names them here (CMakeLists.txt).
from backplane_report_tests import BackplaneSweepTable, ReportOfABackplaneRun  # noqa: E402,F401
from bad_input_tests import BadInput  # noqa: E402,F401
from figure_layout_tests import FigureLayout  # noqa: E402,F401
from vocabulary_tests import Vocabulary  # noqa: E402,F401
from ibft_report_tests import IbftTable  # noqa: E402,F401
from job_report_tests import JobTable  # noqa: E402,F401
from platform_report_tests import ReportPerPlatform  # noqa: E402,F401
from ring_report_tests import RingTable  # noqa: E402,F401
from run_status_tests import RunStatusOnAHandMadeDatabase  # noqa: E402,F401
from sweep_script_tests import SweepScript  # noqa: E402,F401
from table_tools_bad_input_tests import TableToolsBadInput  # noqa: E402,F401

QUERIES = os.path.join(SOURCE, "db", "queries")


def close(a, b, decimals):
    """A Markdown number printed with `decimals` against the exact value."""
    if a == "-":
        return b is None
    return abs(float(a) - b) <= 0.5 * 10 ** -decimals + 1e-9 * abs(b)


class ReportOfASmallStudy(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.study = StudyDatabase()
        cls.out = cls.study.out("report1")
        cls.status, cls.stdout, cls.stderr = report(cls.study.db, "--run", "1", "--out", cls.out)
        with open(os.path.join(cls.out, "report.md")) as f:
            cls.md = f.read()
        cls.conn = cls.study.connect()

    @classmethod
    def tearDownClass(cls):
        cls.conn.close()
        cls.study.close()

    def test_succeeds_and_says_where(self):
        self.assertEqual(self.status, 0, self.stderr)
        self.assertIn(self.out, self.stdout)

    def test_every_plot_is_a_real_image(self):
        # Run 1 (lossless fan-in) has data for each of these figures.
        for plot in ("throughput", "latency", "fairness", "pause", "occupancy"):
            self.assertIn(f"(run1_{plot}.png)", self.md)
        for plot in re.findall(r"\]\((run1_[a-z_]+\.png)\)", self.md):
            path = os.path.join(self.out, plot)
            self.assertTrue(os.path.exists(path), path)
            size = png_size(path)
            self.assertIsNotNone(size, f"{path} is not a PNG")
            self.assertGreaterEqual(size[0], 500)
            self.assertGreaterEqual(size[1], 400)
            self.assertGreater(os.path.getsize(path), 15_000, f"{path} is almost empty")
        # Nothing drawn that the report does not show, and no empty figure:
        # the lossless run drops nothing, and says so instead.
        written = {os.path.basename(p) for p in glob.glob(os.path.join(self.out, "run1_*.png"))}
        self.assertEqual(written, set(re.findall(r"\]\((run1_[a-z_]+\.png)\)", self.md)))
        self.assertIn("no frame or copy was dropped (no figure)", self.md)

    def test_mean_throughput_equals_the_cookbook(self):
        heading = "### Receive throughput per subflow"
        frm, to = interval(self.md, heading)
        header, rows = markdown_table(self.md, heading)
        _, expected = run_query(self.conn, "subflow_mean_throughput", run=1, from_ps=frm, to_ps=to)
        self.assertEqual(len(rows), len(expected))
        self.assertEqual(len(rows), 5)  # five sources to one port
        for row, (flow_id, name, dst, frames, byte_count, gbps) in zip(rows, expected):
            self.assertEqual([int(row[0]), row[1], int(row[2]), int(row[3]), int(row[4])],
                             [flow_id, name, dst, frames, byte_count])
            self.assertTrue(close(row[5], gbps, 3), (row, gbps))
        self.assertGreater(sum(e[5] for e in expected), 90)  # the congested port is busy

    def test_latency_percentiles_equal_the_cookbook(self):
        header, rows = markdown_table(self.md, "### Latency")
        columns, expected = run_query(self.conn, "latency_percentiles", run=1)
        self.assertEqual(len(rows), len(expected))
        for row, exp in zip(rows, expected):
            self.assertEqual(int(row[0]), exp[0])
            self.assertEqual(int(row[2]), exp[2])
            for cell, value in zip(row[3:], exp[3:]):
                self.assertTrue(close(cell, value, 1), (row, exp))
        _, rows = markdown_table(self.md, "### Latency", after="Per flow and surrogate level")
        _, expected = run_query(self.conn, "latency_percentiles_by_level", run=1)
        self.assertEqual([(int(r[0]), int(r[2]), int(r[3])) for r in rows], [(e[0], e[2], e[3]) for e in expected])
        for row, exp in zip(rows, expected):
            for cell, value in zip(row[4:], exp[4:]):
                self.assertTrue(close(cell, value, 1), (row, exp))

    def test_jain_index_per_window_equals_the_cookbook(self):
        window = int(re.search(r"@window_ps = (\d+)", self.md).group(1))
        _, expected = run_query(self.conn, "jain_fairness", run=1, window_ps=window)
        with open(os.path.join(self.out, "run1_jain.csv")) as f:
            rows = [line.strip().split(",") for line in f][1:]
        self.assertEqual(len(rows), len(expected))
        for row, (w, start, subflows, total, jain) in zip(rows, expected):
            self.assertEqual((int(row[0]), int(row[1]), int(row[2])), (w, start, subflows))
            self.assertAlmostEqual(float(row[3]), total, places=6)
            if jain is None:
                self.assertEqual(row[4], "")
            else:
                self.assertAlmostEqual(float(row[4]), jain, places=9)
        valid = [e[4] for e in expected if e[4] is not None]
        m = re.search(r"windows with deliveries: mean ([0-9.]*[0-9]), min ([0-9.]*[0-9])", self.md)
        self.assertTrue(close(m.group(1), sum(valid) / len(valid), 4))
        self.assertTrue(close(m.group(2), min(valid), 4))

    def test_pause_table_equals_the_cookbook(self):
        _, expected = run_query(self.conn, "pause_time", run=1)
        self.assertTrue(expected, "the lossless 5:1 overload must send PAUSE")
        _, rows = markdown_table(self.md, "### PAUSE")
        self.assertEqual([(r[0], int(r[1]), int(r[2])) for r in rows], [(e[0], e[1], e[2]) for e in expected])
        for row, exp in zip(rows, expected):
            self.assertTrue(close(row[3], exp[3], 3) and close(row[4], exp[4], 3), (row, exp))

    def test_drops_of_the_lossy_run_equal_the_cookbook(self):
        out = self.study.out("report2")
        status, _, err = report(self.study.db, "--run", "2", "--out", out)
        self.assertEqual(status, 0, err)
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        _, expected = run_query(self.conn, "drops_by_reason", run=2)
        self.assertTrue(expected, "the lossy 5:1 overload must drop")
        _, rows = markdown_table(md, "### Drops by reason")
        self.assertEqual([[str(c) for c in e] for e in expected], rows)
        self.assertIn("No PAUSE was sent", md)


class JainOnAHandMadeDatabase(unittest.TestCase):
    """Four subflows: equal shares in window 0, one takes all in window 1,
    and 64 frames each over a run of four windows, so that a 1000 ps window
    holds 16 mean inter-arrival times of the slowest subflow."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.db = os.path.join(self.dir.name, "hand.db")
        hand = HandMadeDatabase(self.db)
        hand.add_run(1, sim_time_ps=4000)
        frame = 0
        for flow in range(4):
            hand.add_flow(1, flow, 9)
            for i in range(64):
                hand.deliver(1, frame, flow, 9, 0, 10 * i, 100)
                frame += 1
        for i in range(64):
            hand.deliver(1, frame, 0, 9, 1000, 1000 + 10 * i, 400)
            frame += 1
        hand.close()

    def tearDown(self):
        self.dir.cleanup()

    def jain_column(self, out):
        with open(os.path.join(out, "run1_jain.csv")) as f:
            return [float(r[4]) if r[4] else None for r in (line.strip().split(",") for line in f) if r[0] != "window"]

    def test_one_for_equal_shares_and_one_over_n_for_one_taker(self):
        out = os.path.join(self.dir.name, "out")
        status, _, err = report(self.db, "--window", "1000ps", "--out", out)
        self.assertEqual(status, 0, err)
        self.assertEqual(self.jain_column(out), [1.0, 0.25, None, None])
        _, sql = run_query(sqlite3.connect(self.db), "jain_fairness", run=1, window_ps=1000)
        self.assertEqual([r[4] for r in sql], [1.0, 0.25, None, None])

    def test_a_window_shorter_than_16_frames_of_the_slowest_subflow_is_raised_and_said(self):
        out = os.path.join(self.dir.name, "short")
        status, _, err = report(self.db, "--window", "100ps", "--out", out)
        self.assertEqual(status, 0, err)
        self.assertEqual(self.jain_column(out), [1.0, 0.25, None, None])  # drawn in 1000 ps windows
        with open(os.path.join(out, "report.md")) as f:
            self.assertIn("--window 100 ps was shorter, and was raised", f.read())

    def test_a_run_too_short_for_16_frames_a_window_draws_no_rate_over_time_and_says_why(self):
        hand = HandMadeDatabase(self.db)
        hand.add_run(2, sim_time_ps=4000)
        for flow in range(4):
            hand.add_flow(2, flow, 9)
            hand.deliver(2, flow, flow, 9, 0, 500, 100)  # one frame each: E11's kind of run
        hand.close()
        out = os.path.join(self.dir.name, "one_frame")
        status, _, err = report(self.db, "--run", "2", "--out", out)
        self.assertEqual(status, 0, err)
        self.assertEqual(sorted(f for f in os.listdir(out) if "throughput.png" in f or "fairness.png" in f), [])
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        self.assertIn("No figure: the slowest subflow received 1 frame in 4 ns", md)
        self.assertIn("No figure of Jain's index per window: the slowest subflow received 1 frame", md)


class EveryCookbookQuery(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.study = StudyDatabase()
        cls.conn = cls.study.connect()

    @classmethod
    def tearDownClass(cls):
        cls.conn.close()
        cls.study.close()

    @staticmethod
    def documented_columns(text):
        """The names after '-- Columns:' in a query's header comment."""
        block = re.search(r"-- Columns:(.*?)\n(?!--   )", text, re.S).group(1)
        block = re.sub(r"\n--\s+", " ", block)
        while re.search(r"\([^()]*\)", block):
            block = re.sub(r"\([^()]*\)", "", block)
        return [part.strip().split()[0].rstrip(".") for part in block.split(",") if part.strip()]

    def test_each_runs_and_returns_its_documented_columns(self):
        files = sorted(glob.glob(os.path.join(QUERIES, "*.sql")))
        self.assertGreaterEqual(len(files), 9)
        for path in files:
            name = os.path.basename(path)[:-4]
            with open(path) as f:
                text = f.read()
            for needed in ("Answers", "Parameters", "Usage"):
                self.assertIn(needed, text, name)
            if "Columns:" not in text:  # frames_index.sql creates an index, returns nothing
                continue
            with self.subTest(query=name):
                columns, rows = run_query(self.conn, name, run=1, window_ps=10_000_000, from_ps=0,
                                          to_ps=150_000_000)
                self.assertEqual(columns, self.documented_columns(text))
                if name in ("subflow_throughput", "subflow_mean_throughput", "latency_percentiles",
                            "latency_percentiles_by_level", "jain_fairness", "pause_time"):
                    self.assertTrue(rows, f"{name} returned nothing on the fan-in study")


class SweepTable(unittest.TestCase):
    """scripts/sweep-table on a small E1 sweep: each cell against SQL."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="sweep_table_test_")
        cls.db = os.path.join(cls.dir, "e1.db")
        for study in ("E1a", "E1b"):
            for group in ("1,2", "1,2,3,5"):
                fabricsim(cls.db, "--study", study, "--set", f"flow.f1.dst={group}", "--time", "200us", "--quiet")

    def run_table(self, *args):
        return table_tool("sweep-table", self.db, *args)

    def test_cells_equal_the_rates_in_the_database(self):
        result = self.run_table("--rows", "flow.f1.dst", "--cols", "leaf.cache.enable")
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = [l for l in result.stdout.splitlines() if l.startswith("| fanout")]
        self.assertEqual(len(lines), 2)
        conn = sqlite3.connect(self.db)
        expected = {}
        for run_id, config in conn.execute("SELECT run_id, config FROM runs"):
            cfg = dict(l.split(" = ", 1) for l in config.splitlines() if " = " in l)
            per_subflow = [b * 8000.0 / 200e6 for (b,) in conn.execute(
                "SELECT sum(bytes) FROM deliveries WHERE run_id = ? GROUP BY dst_port", (run_id,))]
            expected[(cfg["flow.f1.dst"], cfg["leaf.cache.enable"])] = sum(per_subflow) / len(per_subflow)
        for line in lines:
            cells = [c.strip() for c in line.strip("|").split("|")]
            group = cells[0].split(": ")[1]
            for enable, cell in zip(("false", "true"), cells[1:]):
                self.assertAlmostEqual(float(cell.split(" ")[0]), expected[(group, enable)], delta=0.051)
        # The cache keeps 2 and 4 copies at the offered rate; without it they share the interface.
        self.assertGreater(expected[("1,2", "true")], 1.5 * expected[("1,2", "false")])
        self.assertGreater(expected[("1,2,3,5", "true")], 3 * expected[("1,2,3,5", "false")])

    def test_runs_of_one_cell_are_their_mean_with_its_interval(self):
        db = os.path.join(self.dir, "seeds.db")
        for seed in ("1", "2", "3"):
            fabricsim(db, "--study", "E3b", "--time", "300us", "--seed", seed, "--quiet")
        args = ("--rows", "leaf.cache.enable", "--cols", "flow.f1.frame_size")
        both = table_tool("sweep-table", db, *args)
        self.assertEqual(both.returncode, 0, both.stderr)
        cell = [l for l in both.stdout.splitlines() if l.startswith("| true")][0].strip("|").split("|")[1].strip()
        self.assertIn("3 runs", cell)
        singles = []
        for seed in ("1", "2", "3"):
            one = table_tool("sweep-table", db, *args, "--where", f"sim.seed={seed}")
            self.assertEqual(one.returncode, 0, one.stderr)
            line = [l for l in one.stdout.splitlines() if l.startswith("| true")][0]
            singles.append(float(line.strip("|").split("|")[1].split()[0]))
        mean, half = (float(x) for x in cell.split(" (")[0].split(" ± "))
        self.assertAlmostEqual(mean, sum(singles) / 3, delta=0.051)
        m = sum(singles) / 3
        sd = (sum((x - m) ** 2 for x in singles) / 2) ** 0.5
        self.assertAlmostEqual(half, 4.303 * sd / 3 ** 0.5, delta=0.2)  # the singles are rounded to 0.1

    def test_unknown_key_exits_2(self):
        result = self.run_table("--rows", "flow.f1.dstt", "--cols", "leaf.cache.enable")
        self.assertEqual(result.returncode, 2)
        self.assertIn("flow.f1.dstt", result.stderr)
        self.assertNotIn("Traceback", result.stderr)


class PhaseTable(unittest.TestCase):
    """scripts/phase-table on a short E3a run: each cell against SQL."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="phase_table_test_")
        cls.db = os.path.join(cls.dir, "e3.db")
        fabricsim(cls.db, "--study", "E3a", "--time", "300us", "--quiet")

    def run_table(self, *args):
        return table_tool("phase-table", self.db, *args)

    def expected(self, dst, a_ps, b_ps):
        conn = sqlite3.connect(self.db)
        (got,) = conn.execute("SELECT coalesce(sum(bytes), 0) FROM deliveries WHERE flow_id = 0 AND dst_port = ? "
                              "AND t_delivered_ps >= ? AND t_delivered_ps < ?", (dst, a_ps, b_ps)).fetchone()
        return got * 8000.0 / (b_ps - a_ps)

    def test_cells_per_subflow_and_focus_equal_the_database(self):
        result = self.run_table("--phases", "100us-200us,200us-300us")
        self.assertEqual(result.returncode, 0, result.stderr)
        rows = [l for l in result.stdout.splitlines() if l.startswith("| f1 -> ")]
        self.assertEqual(len(rows), 8)
        for line in rows:
            cells = [c.strip() for c in line.strip("|").split("|")]
            dst = int(cells[0].split("-> ")[1])
            self.assertAlmostEqual(float(cells[1]), self.expected(dst, 100 * 10**6, 200 * 10**6), delta=0.051)
            self.assertAlmostEqual(float(cells[2]), self.expected(dst, 200 * 10**6, 300 * 10**6), delta=0.051)
        focus = self.run_table("--phases", "100us-300us", "--focus", "1")
        self.assertEqual(focus.returncode, 0, focus.stderr)
        line = [l for l in focus.stdout.splitlines() if l.startswith("| E3a")][0]
        cell = line.strip("|").split("|")[1].strip()
        self.assertAlmostEqual(float(cell.split(" / ")[0]), self.expected(1, 100 * 10**6, 300 * 10**6), delta=0.051)
        others = [self.expected(d, 100 * 10**6, 300 * 10**6) for d in (5, 10, 15, 20, 25, 30, 35)]
        self.assertAlmostEqual(float(cell.split(" / ")[1].split(" ")[0]), sum(others) / 7, delta=0.051)

    def test_over_seeds_is_the_mean_and_interval_of_each_studys_runs(self):
        db = os.path.join(self.dir, "seeds.db")
        for seed in ("1", "2", "3"):
            fabricsim(db, "--study", "E3b", "--time", "300us", "--seed", seed, "--quiet")
        result = table_tool("phase-table", db, "--phases", "100us-300us", "--over-seeds")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("E3b (3 runs)", result.stdout)
        conn = sqlite3.connect(db)
        for line in [l for l in result.stdout.splitlines() if l.startswith("| f1 -> ")]:
            cells = [c.strip() for c in line.strip("|").split("|")]
            dst = int(cells[0].split("-> ")[1])
            rates = [got * 8000.0 / (200 * 10**6) for (got,) in conn.execute(
                "SELECT coalesce(sum(bytes), 0) FROM deliveries WHERE dst_port = ? AND t_delivered_ps >= 100000000 "
                "AND t_delivered_ps < 300000000 GROUP BY run_id ORDER BY run_id", (dst,))]
            self.assertEqual(len(rates), 3)
            mean = sum(rates) / 3
            sd = (sum((r - mean) ** 2 for r in rates) / 2) ** 0.5
            got_mean, got_half = (float(x) for x in cells[1].split(" ± "))
            self.assertAlmostEqual(got_mean, mean, delta=0.051)
            self.assertAlmostEqual(got_half, 4.303 * sd / 3 ** 0.5, delta=0.051)  # t(0.975, 2)
        focus = table_tool("phase-table", db, "--phases", "100us-300us", "--focus", "1", "--over-seeds")
        self.assertEqual(focus.returncode, 0, focus.stderr)
        self.assertEqual(len([l for l in focus.stdout.splitlines() if l.startswith("| E3b (3 runs)")]), 1)

    def test_bad_phases_and_focus_exit_2(self):
        for args in (["--phases", "2ms-1ms"], ["--phases", "soon"], ["--phases", "0-1ms"],
                     ["--phases", "1us-2us", "--focus", "77"], ["--phases", "1us-2us", "--flow", "nope"]):
            result = self.run_table(*args)
            self.assertEqual(result.returncode, 2, args)
            self.assertNotIn("Traceback", result.stderr)


class BerTable(unittest.TestCase):
    """scripts/ber-table on short runs with errors on the CNA links, with the
    CNAs' transport on and off: each cell against SQL."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="ber_table_test_")
        cls.db = os.path.join(cls.dir, "ber-cna.db")
        for transport in ("false", "true"):
            for ber in ("0", "1e-6"):
                fabricsim(cls.db, "--study", "ber", "--time", "200us", "--quiet", "--set", "errors.leaf_spine.ber=0",
                          "--set", "errors.spine_leaf.ber=0", "--set", f"errors.cna_leaf.ber={ber}",
                          "--set", f"cna.e2e.retransmit={transport}")
        cls.seeds_db = os.path.join(cls.dir, "ber-seeds.db")
        for seed in ("1", "2"):
            fabricsim(cls.seeds_db, "--study", "ber", "--time", "200us", "--quiet", "--seed", seed,
                      "--set", "errors.leaf_spine.ber=0", "--set", "errors.spine_leaf.ber=0",
                      "--set", "errors.cna_leaf.ber=1e-6", "--set", "cna.e2e.retransmit=true")

    def run_table(self, *args):
        return table_tool("ber-table", self.db, *args)

    def test_runs_of_one_point_over_seeds_are_averaged(self):
        result = table_tool("ber-table", self.seeds_db, "--links", "cna_leaf")
        self.assertEqual(result.returncode, 0, result.stderr)
        row = [l for l in result.stdout.splitlines() if l.startswith("| 1e-06")]
        self.assertEqual(len(row), 1, result.stdout)
        cell = row[0].strip("|").split("|")[1].strip()
        rates, resent = [], []
        conn = sqlite3.connect(self.seeds_db)
        for run_id in (1, 2):
            port_rates = [b * 8000.0 / 200e6 for (b,) in conn.execute(
                "SELECT sum(bytes) FROM deliveries WHERE run_id = ? GROUP BY dst_port", (run_id,))]
            rates.append(sum(port_rates) / len(port_rates))
            resent.append(conn.execute("SELECT count(*) FROM events WHERE run_id = ? AND kind = 'retransmission'",
                                       (run_id,)).fetchone()[0])
        self.assertAlmostEqual(float(cell.split(" ")[0]), sum(rates) / 2, delta=0.051)
        self.assertIn(" ± ", cell.split("Gb/s")[0])
        self.assertIn(f"{round(sum(resent) / 2)} retransmitted", cell)
        self.assertTrue(cell.endswith("(N 2)"), cell)

    def expected(self, run_id):
        conn = sqlite3.connect(self.db)
        rates = [b * 8000.0 / 200e6 for (b,) in conn.execute(
            "SELECT sum(bytes) FROM deliveries WHERE run_id = ? GROUP BY dst_port", (run_id,))]
        (retransmitted,) = conn.execute(
            "SELECT count(*) FROM events WHERE run_id = ? AND kind = 'retransmission'", (run_id,)).fetchone()
        (lost,) = conn.execute(
            "SELECT count(*) FROM frames WHERE run_id = ? AND t_injected_ps IS NOT NULL "
            "AND frame_id NOT IN (SELECT frame_id FROM deliveries WHERE run_id = ?) "
            "AND frame_id IN (SELECT frame_id FROM drops WHERE run_id = ?)", (run_id, run_id, run_id)).fetchone()
        return sum(rates) / len(rates), retransmitted, lost

    def test_cells_equal_the_database(self):
        result = self.run_table("--links", "cna_leaf", "--plot", os.path.join(self.dir, "ber-cna.png"))
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(lines[0], "| bit error rate | CNA transport off | CNA transport on |")
        rows = {l.split("|")[1].strip(): [c.strip() for c in l.strip("|").split("|")[1:]]
                for l in lines[2:] if l.startswith("| ")}
        self.assertEqual(sorted(rows), ["0", "1e-06"])
        # Runs 1-4: off at 0 and 1e-6, then on at 0 and 1e-6.
        for run_id, (ber, column) in enumerate([("0", 0), ("1e-06", 0), ("0", 1), ("1e-06", 1)], start=1):
            rate, retransmitted, lost = self.expected(run_id)
            cell = rows[ber][column]
            self.assertAlmostEqual(float(cell.split(" ")[0]), rate, delta=0.051)
            self.assertIn(f"{retransmitted} retransmitted", cell)
            if lost:
                self.assertIn(f"{lost} not recovered by the end", cell)
            else:
                self.assertNotIn("not recovered", cell)
        # Errors at 1e-6 cost frames without the transport, resends with it.
        self.assertIn("not recovered", rows["1e-06"][0])
        self.assertNotIn(" 0 retransmitted", rows["1e-06"][1])
        self.assertGreater(png_size(os.path.join(self.dir, "ber-cna.png"))[0], 500)

    def test_bad_link_class_exits_2(self):
        result = self.run_table("--links", "spine_spine")
        self.assertEqual(result.returncode, 2)
        self.assertNotIn("Traceback", result.stderr)


if __name__ == "__main__":
    unittest.main()
