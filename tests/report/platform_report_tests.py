"""fabric-report per platform (issue 40): a run's report holds its
platform's sections only, in that platform's words, with its warm-up; a
file's study section says why a figure it cannot draw is missing; --compare
writes the comparison alone unless --per-run; a platform the report does not
know is refused. Run through test_report.py (CTest:
FabricReport.ReportPerPlatform)."""
import glob
import os
import re
import shutil
import sqlite3
import tempfile
import unittest

from report_fixture import back_to_version, fabricsim, report

# Words and sections that belong to one platform only.
FABRIC_ONLY = ("### Multicast packet cache", "### QCN congestion notifications", "surrogate level", "source CNA")
PAUSE = "### PAUSE"


class ReportPerPlatform(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="fabric_report_platforms_")
        cls.md = {}
        for name, args in (("E11", ["--study", "E11"]),
                           ("E12c", ["--study", "E12c", "--time", "200us"]),
                           ("E13", ["--study", "E13", "--set", "ibft.sources=10%", "--set", "ibft.group=10%"]),
                           ("E14", ["--study", "E14", "--time", "200us"])):
            db = os.path.join(cls.dir, f"{name}.db")
            fabricsim(db, *args, "--quiet")
            out = os.path.join(cls.dir, name)
            status, stdout, stderr = report(db, "--out", out)
            if status != 0:
                raise RuntimeError(f"fabric-report {name}: {stderr}")
            with open(os.path.join(out, "report.md")) as f:
                cls.md[name] = f.read()
            cls.md[name + " stdout"] = stdout

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def sections(self, name):
        return re.findall(r"^### (.+)$", self.md[name], re.M)

    def test_each_run_shows_its_platforms_sections_in_order(self):
        self.assertEqual(self.sections("E11"), ["Receive throughput per subflow", "Latency", "Fairness",
                                                "Drops by reason", "PAUSE", "QCN congestion notifications",
                                                "Multicast packet cache", "Queue occupancy"])
        self.assertEqual(self.sections("E12c"), ["Receive throughput per subflow", "Latency", "Fairness",
                                                 "Drops by reason", "PAUSE", "Backplane switch and 802.3x",
                                                 "Queue occupancy"])
        self.assertEqual(self.sections("E13"), ["Completion", "Latency", "Drops by reason"])
        self.assertEqual(self.sections("E14"), ["Receive throughput per subflow", "Latency", "Drops by reason",
                                                "Queue occupancy"])

    def test_no_other_platforms_words(self):
        for name in ("E12c", "E13", "E14"):
            for words in FABRIC_ONLY:
                self.assertNotIn(words, self.md[name], name)
        for name in ("E13", "E14"):
            self.assertNotIn(PAUSE, self.md[name], name)
            self.assertNotIn("Jain", self.md[name], name)
        self.assertIn("From the message's start at its source node", self.md["E13"])
        self.assertIn("at its source station's host", self.md["E14"])

    def test_a_one_shot_multicast_reports_its_completion_without_a_warmup(self):
        md = self.md["E13"]
        self.assertRegex(md, r"Every delivery was made: (\d+) of \1 expected, completed at [0-9.]+ us")
        self.assertNotIn("Receive throughput", md)  # no rates of subflows that each receive one message
        self.assertNotIn("0.5 ms", md)

    def test_every_figure_shown_exists_and_none_other(self):
        for name in ("E11", "E12c", "E13", "E14"):
            out = os.path.join(self.dir, name)
            shown = set(re.findall(r"\]\(([A-Za-z0-9_]+\.png)\)", self.md[name]))
            written = {os.path.basename(p) for p in glob.glob(os.path.join(out, "*.png"))}
            self.assertEqual(shown, written, name)
            self.assertIn(f"{len(written)} plots", self.md[name + " stdout"], name)

    def test_nothing_to_draw_says_why_instead_of_an_empty_figure(self):
        md = self.md["E11"]  # six frames: no PAUSE, no CNM, no drop
        self.assertIn("No PAUSE was sent", md)
        self.assertIn("No CNM was sent", md)
        self.assertNotIn("run1_pause.png", md)
        self.assertNotIn("run1_cnm.png", md)

    def test_a_zero_load_run_draws_no_rate_over_time_and_the_load_is_per_port(self):
        md = self.md["E11"]  # 6 single frames of 512-9022 B over 70 us: no rate, no fairness to show
        self.assertIn("No figure: the slowest subflow received 1 frame in 70 us", md)
        self.assertIn("No figure of Jain's index per window", md)
        self.assertNotIn("run1_throughput.png", md)
        self.assertNotIn("run1_fairness.png", md)
        self.assertIn("6 frames in all", md)  # not "600 Gb/s offered"

    def test_a_ring_file_says_why_its_load_figures_are_missing(self):
        self.assertIn("## QuickRing rings (E14)", self.md["E14"])
        self.assertIn("No figure of throughput against offered load", self.md["E14"])
        self.assertIn("3 or more steady offered loads", self.md["E14"])

    def test_an_ibft_file_of_one_scheme_draws_no_speedups_and_says_why(self):
        md = self.md["E13"]
        self.assertIn("## InfiniBand fat tree (E13)", md)
        self.assertIn("No speedup figure: a speedup needs runs of two schemes", md)
        self.assertNotIn("ibft_speedup.png", md)

    def test_compare_writes_only_the_comparison_unless_per_run(self):
        db = os.path.join(self.dir, "E11.db")
        fabricsim(db, "--study", "E11", "--set", "sim.seed=2", "--quiet")
        for extra, per_run in (([], False), (["--per-run"], True)):
            out = os.path.join(self.dir, "cmp" + "".join(extra))
            status, _, err = report(db, "--compare", "sim.seed", "--out", out, *extra)
            self.assertEqual(status, 0, err)
            with open(os.path.join(out, "report.md")) as f:
                md = f.read()
            self.assertIn("## Runs against sim.seed", md)
            self.assertEqual("## Run 1: E11" in md, per_run)
            self.assertEqual(bool(glob.glob(os.path.join(out, "run*_*.png"))), per_run)
        status, _, err = report(db, "--per-run", "--out", os.path.join(self.dir, "alone"))
        self.assertEqual(status, 2)
        self.assertIn("--per-run: only with --compare", err)

    def test_a_platform_the_report_does_not_know_is_refused(self):
        db = os.path.join(self.dir, "other.db")
        shutil.copy(os.path.join(self.dir, "E14.db"), db)
        conn = sqlite3.connect(db)
        conn.execute("UPDATE runs SET config = replace(config, 'platform = ring', 'platform = torus')")
        conn.commit()
        conn.close()
        status, _, err = report(db, "--out", os.path.join(self.dir, "other"))
        self.assertEqual(status, 2, err)
        self.assertIn("run 1 is of platform 'torus', which this report does not know (it knows fabric, backplane, "
                      "ibft, ring)", err)
        self.assertNotIn("Traceback", err)

    def test_a_file_of_schema_version_3_is_brought_up_or_refused_with_why(self):
        """Version 3 spelled the ring's metrics otherwise and had no metric
        definitions: the report brings a writable file up to this version
        (db/migrations.sql) and reports it; a read-only one is refused."""
        old = os.path.join(self.dir, "v3.db")
        shutil.copy(os.path.join(self.dir, "E14.db"), old)
        back_to_version(old, 3)
        os.chmod(old, 0o444)
        readonly_dir = os.path.join(self.dir, "ro")
        status, _, err = report(old, "--out", readonly_dir)
        if os.geteuid() != 0:  # root writes a read-only file all the same
            self.assertEqual(status, 2, err)
            self.assertIn("schema version 3, which this fabric-report brings up to version 6 in place, but it "
                          "cannot write the file", err)
        os.chmod(old, 0o644)
        status, _, err = report(old, "--out", os.path.join(self.dir, "v3"))
        self.assertEqual(status, 0, err)
        conn = sqlite3.connect(old)
        try:
            self.assertEqual(conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0], "6")
            self.assertEqual(conn.execute("SELECT count(*) FROM totals WHERE metric IN ('attempts', "
                                          "'segment_utilisation')").fetchone()[0], 0)
            self.assertGreater(conn.execute("SELECT count(*) FROM totals WHERE metric = 'tickets'").fetchone()[0], 0)
            self.assertGreater(conn.execute("SELECT count(*) FROM v_samples WHERE metric = 'busy_fraction' AND "
                                            "entity_kind = 'segment'").fetchone()[0], 0)
        finally:
            conn.close()
        with open(os.path.join(self.dir, "v3", "report.md")) as f:
            self.assertEqual(re.findall(r"^\| 1 \| 1 \| 3x5 .*$", f.read(), re.M),
                             re.findall(r"^\| 1 \| 1 \| 3x5 .*$", self.md["E14"], re.M))  # the same ring table

    def test_a_file_of_schema_version_2_is_brought_up_through_every_step(self):
        """From version 2 the report runs every step of db/migrations.sql, as
        fabricsim does (whose comments hold ';', which must not split a statement)."""
        old = os.path.join(self.dir, "v2.db")
        shutil.copy(os.path.join(self.dir, "E14.db"), old)
        back_to_version(old, 2)
        status, _, err = report(old, "--out", os.path.join(self.dir, "v2"))
        self.assertEqual(status, 0, err)
        self.assertIn("brought up from schema version 2 to 6", err)
        conn = sqlite3.connect(old)
        try:
            self.assertEqual(conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0], "6")
            self.assertEqual(conn.execute("SELECT count(*) FROM runs WHERE platform IS NULL").fetchone()[0], 1)
            self.assertGreater(conn.execute("SELECT count(*) FROM v_run_totals WHERE metric = 'tickets' AND "
                                            "entity = 'ring' AND entity_kind = 'system'").fetchone()[0], 0)
        finally:
            conn.close()
