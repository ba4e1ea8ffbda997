"""Bad input to fabric-report: every mistake a user can make ends with exit
status 2 and one line naming the option and the value, before anything is
written; and runs that are incomplete in a known way are reported with a
note. Run through test_report.py (CTest: FabricReport.BadInput)."""
import os
import re
import sqlite3
import tempfile
import unittest

from report_fixture import assert_user_error, fabricsim, png_size, report


class BadInput(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.db = os.path.join(cls.dir.name, "e11.db")
        fabricsim(cls.db, "--quiet")                                   # run 1: E11 (70 us), done
        fabricsim(cls.db, "--quiet", "--time", "100ns")                # run 2: nothing delivered yet
        fabricsim(cls.db, "--quiet", "--record", "summary")         # run 3: no per-frame rows
        fabricsim(cls.db, "--quiet", "--set", "traffic.pattern=permutation", "--set", "topology.racks=1",
                  "--set", "topology.leaves=2", "--set", "traffic.load_gbps=50", "--time", "30us")  # run 4
        conn = sqlite3.connect(cls.db)
        conn.execute("INSERT INTO runs(study, config, seed, model_version, started_at, status, log_level) "
                     "SELECT study, config, seed, model_version, started_at, 'running', log_level FROM runs "
                     "WHERE run_id = 1")  # run 5: still running
        conn.execute("INSERT INTO runs(study, config, seed, sim_time_ps, wall_seconds, model_version, started_at, "
                     "status, log_level) SELECT study, config, seed, 20000000, 0.1, model_version, started_at, "
                     "'interrupted', log_level FROM runs WHERE run_id = 1")  # run 6: interrupted
        conn.commit()
        conn.close()

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def expect_exit_2(self, db, args, *words, out=None):
        """Exit 2 with one line holding `words`; the output folder not made."""
        given = out is not None
        out = out if given else os.path.join(self.dir.name, "bad")
        status, _, err = report(db, *args, "--out", out)
        assert_user_error(self, status, err, "fabric-report", *words)
        if not given:
            self.assertFalse(os.path.exists(out), "a refused report made its folder")
        return err

    def report_text(self, *args):
        out = os.path.join(self.dir.name, "ok_" + "_".join(a.strip("-") for a in args))
        status, _, err = report(self.db, *args, "--out", out)
        self.assertEqual(status, 0, err)
        self.assertNotIn("Traceback", err)
        with open(os.path.join(out, "report.md")) as f:
            return f.read()

    def file(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    # ---- the database ----
    def test_missing_file(self):
        self.expect_exit_2(os.path.join(self.dir.name, "nope.db"), [], "does not exist")

    def test_a_directory(self):
        self.expect_exit_2(self.dir.name, [], "is a directory")

    def test_not_sqlite(self):
        self.expect_exit_2(self.file("text.db", "hello, this is not a database\n" * 10), [], "not an SQLite database")

    def test_damaged_sqlite(self):
        with open(self.db, "rb") as f:
            head = f.read(100)
        path = os.path.join(self.dir.name, "damaged.db")
        with open(path, "wb") as f:
            f.write(head + b"\xff" * 8000)
        self.expect_exit_2(path, [], "damaged.db")

    def test_another_tools_database(self):
        path = os.path.join(self.dir.name, "other.db")
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE customers(id, name)")
        conn.commit()
        conn.close()
        self.expect_exit_2(path, [], "not a fabricsim database")

    def meta_only_database(self, name, schema_version):
        """A database with fabricsim's meta table alone, at a schema version."""
        path = os.path.join(self.dir.name, name)
        conn = sqlite3.connect(path)
        conn.executescript("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES "
                           f"('schema', 'fabricsim'), ('schema_version', '{schema_version}');")
        conn.close()
        return path

    def test_other_schema_version(self):
        self.expect_exit_2(self.meta_only_database("v1.db", 1), [], "schema version '1'")

    def test_fabricsim_meta_without_its_tables(self):
        self.expect_exit_2(self.meta_only_database("bare.db", 2), [], "incomplete fabricsim database", "runs")

    # ---- --run ----
    def test_run_that_does_not_exist(self):
        self.expect_exit_2(self.db, ["--run", "42"], "--run 42", "run 42 does not exist", "runs 1 to 6")

    def test_run_zero_negative_or_not_a_number(self):
        self.expect_exit_2(self.db, ["--run", "0"], "--run 0", "from 1")
        self.expect_exit_2(self.db, ["--run", "-3"], "--run -3", "from 1")
        self.expect_exit_2(self.db, ["--run", "x"], "--run 'x'")

    def test_run_still_running(self):
        self.expect_exit_2(self.db, ["--run", "5"], "run 5 is still 'running'", "--partial")
        self.assertIn("**Status: running, nothing recorded yet (70 us configured)**",
                      self.report_text("--run", "5", "--partial"))

    # ---- --compare ----
    def test_compare_with_an_unknown_or_empty_key(self):
        self.expect_exit_2(self.db, ["--compare", "traffic.load"], "--compare traffic.load", "traffic.load_gbps")
        self.expect_exit_2(self.db, ["--compare", ""], "--compare ''")

    # ---- --window and --warmup ----
    def test_window_that_is_not_a_duration_above_zero(self):
        self.expect_exit_2(self.db, ["--window", "fast"], "--window 'fast'")
        self.expect_exit_2(self.db, ["--window", "0"], "--window 0", "above zero")
        self.expect_exit_2(self.db, ["--window=-1"], "--window '-1'")
        self.expect_exit_2(self.db, ["--window", "0.2ps"], "--window 0.2ps", "above zero")
        self.expect_exit_2(self.db, ["--window", "99999999s"], "--window 99999999s", "10000s")

    def test_window_too_small_for_the_run_says_the_smallest_allowed(self):
        err = self.expect_exit_2(self.db, ["--run", "1", "--window", "1ps"], "--window 1ps",
                                 "at most 100000 windows per run", "for run 1 (70 us) use 700ps or more")
        smallest = re.search(r"use (\S+) or more", err).group(1)
        # Accepted; E11's one frame per subflow then gives rates over time no point, which the report says.
        self.assertIn("No figure: the slowest subflow received 1 frame",
                      self.report_text("--run", "1", "--window", smallest))

    def test_warmup_that_is_not_a_duration_or_outlasts_the_run(self):
        self.expect_exit_2(self.db, ["--warmup", "soon"], "--warmup 'soon'")
        self.expect_exit_2(self.db, ["--warmup", "-1us"], "--warmup", "expected one argument", "--warmup=VALUE")
        self.expect_exit_2(self.db, ["--warmup=-1us"], "--warmup '-1us'")
        self.expect_exit_2(self.db, ["--run", "1", "--warmup", "70us"], "--warmup 70us", "run 1 is 70 us")
        self.expect_exit_2(self.db, ["--run", "6", "--warmup", "30us"], "--warmup 30us",
                           "run 6 (interrupted) reached only 20 us")

    # ---- --out ----
    def test_out_onto_a_file(self):
        path = self.file("a_file", "x")
        self.expect_exit_2(self.db, [], f"--out {path}", "not a folder", out=path)

    def test_out_with_a_missing_parent(self):
        path = os.path.join(self.dir.name, "no", "such", "folder")
        self.expect_exit_2(self.db, [], f"--out {path}", "does not exist", out=path)
        self.assertFalse(os.path.exists(os.path.join(self.dir.name, "no")))

    def test_out_below_a_file(self):
        path = os.path.join(self.file("plain", "x"), "report")
        self.expect_exit_2(self.db, [], f"--out {path}", "is not a folder", out=path)

    def test_out_where_nothing_can_be_written(self):
        if os.geteuid() != 0:
            locked = os.path.join(self.dir.name, "locked")
            os.mkdir(locked, 0o500)
        elif os.path.isdir("/sys"):
            locked = "/sys"  # root may write anywhere, but not into sysfs
        else:
            self.skipTest("no folder this user cannot write into")
        self.expect_exit_2(self.db, [], f"--out {locked}", "cannot write", out=locked)
        self.expect_exit_2(self.db, [], f"--out {locked}/report", "cannot write", out=f"{locked}/report")

    def test_out_empty(self):
        self.expect_exit_2(self.db, [], "--out ''", out="")

    # ---- runs that ended early, or hold less ----
    def test_interrupted_run_states_where_it_stopped(self):
        self.assertIn("**Status: interrupted at 20 us of 70 us** (killed or stopped; the data up to then is "
                      "complete)", self.report_text("--run", "6"))

    def test_run_without_deliveries_says_so(self):
        md = self.report_text("--run", "2")
        self.assertIn("**Missing:** no copy was delivered in this run", md)

    def test_summary_run_says_what_is_missing(self):
        md = self.report_text("--run", "3")
        self.assertIn("log level 'summary'", md)
        self.assertIn("Receive throughput per subflow (totals)", md)

    def test_compare_against_a_key(self):
        out = os.path.join(self.dir.name, "cmp")
        status, _, err = report(self.db, "--run", "1", "--run", "4", "--compare", "traffic.load_gbps", "--out", out)
        self.assertEqual(status, 0, err)
        for name in ("compare_traffic.load_gbps.png", "comparison.csv"):
            self.assertTrue(os.path.exists(os.path.join(out, name)), name)
        # Every copy crossed 0 surrogate levels: no figure per level.
        self.assertFalse(os.path.exists(os.path.join(out, "compare_traffic.load_gbps_by_level.png")))
        self.assertGreater(png_size(os.path.join(out, "compare_traffic.load_gbps.png"))[0], 1000)
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        self.assertIn("## Runs against traffic.load_gbps", md)
        self.assertNotIn("## Run 1: E11", md)  # the comparison alone, unless --per-run


if __name__ == "__main__":
    unittest.main()
