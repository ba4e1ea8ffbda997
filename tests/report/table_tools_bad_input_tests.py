"""Bad input to the table tools (sweep-table, phase-table, ber-table) and
scripts/db-diff: exit status 2 and one line naming the option and the
value, never a traceback. Run through test_report.py (CTest:
FabricReport.TableToolsBadInput)."""
import os
import sqlite3
import tempfile
import unittest

from report_fixture import SOURCE, HandMadeDatabase, assert_user_error, fabricsim, run_tool, table_tool

# Arguments each tool needs besides its database.
TOOLS = {"sweep-table": ["--rows", "flow.f1.dst", "--cols", "leaf.cache.enable"],
         "phase-table": ["--phases", "0us-10us"],
         "ber-table": []}
DB_DIFF = os.path.join(SOURCE, "scripts", "db-diff")


class TableToolsBadInput(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.db = cls.path("e1.db")
        fabricsim(cls.db, "--study", "E1a", "--set", "flow.f1.dst=1", "--time", "20us", "--quiet")    # run 1
        fabricsim(cls.db, "--study", "E1a", "--set", "flow.f1.dst=1,2", "--time", "20us", "--quiet")  # run 2
        HandMadeDatabase(cls.path("empty.db")).close()
        with open(cls.path("text.db"), "w") as f:
            f.write("not a database\n" * 10)
        conn = sqlite3.connect(cls.path("other.db"))
        conn.execute("CREATE TABLE customers(id, name)")
        conn.commit()
        conn.close()
        os.mkdir(cls.path("folder.db"))
        # Each wrong database and a word of what the tools say of it.
        cls.bad_databases = {cls.path("nope.db"): "does not exist", cls.path("folder.db"): "not a",
                             cls.path("text.db"): "not an SQLite database",
                             cls.path("other.db"): "not a fabricsim database"}

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    @classmethod
    def path(cls, name):
        return os.path.join(cls.dir.name, name)

    def refused(self, tool, args, *words, db=None):
        result = table_tool(tool, db or self.db, *args)
        assert_user_error(self, result.returncode, result.stderr, tool, *words)

    def test_every_tool_refuses_a_wrong_database(self):
        for tool, args in TOOLS.items():
            for db, words in self.bad_databases.items():
                with self.subTest(tool=tool, db=os.path.basename(db)):
                    self.refused(tool, args, words, db=db)

    def test_every_tool_says_when_there_is_no_run(self):
        self.refused("sweep-table", TOOLS["sweep-table"], "no finished run", db=self.path("empty.db"))
        self.refused("phase-table", TOOLS["phase-table"], "holds no runs", db=self.path("empty.db"))
        self.refused("ber-table", [], "no finished run", db=self.path("empty.db"))

    def test_sweep_table_keys(self):
        self.refused("sweep-table", ["--rows", "flow.f1.dst", "--cols", "leaf.cache.enabl"],
                     "--cols leaf.cache.enabl", "did you mean leaf.cache.enable")
        rows_cols = TOOLS["sweep-table"]
        self.refused("sweep-table", rows_cols + ["--where", "leaf.cache.enable"], "--where 'leaf.cache.enable'",
                     "KEY=VALUE")
        self.refused("sweep-table", rows_cols + ["--where", "leaf.cache.enabled=true"],
                     "--where leaf.cache.enabled=true", "no finished run has the configuration key")
        self.refused("sweep-table", rows_cols + ["--where", "leaf.cache.enable=maybe"],
                     "--where leaf.cache.enable=maybe", "they have false")
        self.refused("sweep-table", rows_cols + ["--flow", "f9"], "--flow f9", "its flows: f1")
        # Issue 55: a mistyped option, or a value not among an option's choices, with the ones near it.
        self.refused("sweep-table", rows_cols + ["--flwo", "f1"], "unrecognized arguments: --flwo",
                     "did you mean --flow?")
        self.refused("ber-table", ["--links", "leaf_spin"], "invalid choice: 'leaf_spin'", "did you mean leaf_spine")

    def test_plot_paths(self):
        cases = [(self.dir.name, "is a folder"), (self.path("plot.txt"), "must end in .png"),
                 (self.path("no/such/plot.png"), "does not exist")]
        for option, tool, args in (("--occupancy", "sweep-table", TOOLS["sweep-table"]), ("--plot", "ber-table", [])):
            for path, words in cases:
                with self.subTest(tool=tool, path=path):
                    self.refused(tool, args + [option, path], f"{option} {path}", words)
        self.refused("sweep-table", TOOLS["sweep-table"] + ["--occupancy", self.path("e1.png"), "--label", "nokey"],
                     "--label nokey")
        self.assertFalse(os.path.exists(self.path("e1.png")))

    def test_phase_table_phases_and_focus(self):
        self.refused("phase-table", ["--phases", "10us-30us"], "--phases 10us-30us",
                     "'10us-30us' ends after run 1, which is 20 us")
        self.refused("phase-table", ["--phases", "0us-10us", "--focus", "1"], "--focus 1",
                     "run 1's flow f1 goes nowhere else")
        self.refused("phase-table", ["--phases", "0us-10us", "--focus", "one"], "--focus", "'one'")
        self.refused("phase-table", ["--phases", "0us-10us", "--focus", "7"], "--focus 7", "does not go there")

    def test_ber_table_link_class(self):
        self.refused("ber-table", ["--links", "spine_spine"], "--links", "spine_spine")

    def test_db_diff(self):
        result = run_tool(DB_DIFF, self.db)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("usage", result.stderr)
        for db, words in self.bad_databases.items():
            with self.subTest(db=os.path.basename(db)):
                result = run_tool(DB_DIFF, self.db, db)
                assert_user_error(self, result.returncode, result.stderr, "db-diff", words)
        same = run_tool(DB_DIFF, self.db, self.db)
        self.assertEqual(same.returncode, 0, same.stderr)
        self.assertIn("same    deliveries", same.stdout)

    def test_wrong_kinds_of_database(self):
        """Issue 37: a database of another platform, one with no run and one
        with a run that is not done are refused, not compared or tabled."""
        ring = self.path("ring.db")
        fabricsim(ring, "--study", "E14", "--time", "20us", "--quiet")
        self.refused("ber-table", [], "platform", "'ring'", db=ring)
        result = run_tool(DB_DIFF, self.db, ring)
        assert_user_error(self, result.returncode, result.stderr, "db-diff", "different platforms")
        empty = run_tool(DB_DIFF, self.path("empty.db"), self.path("empty.db"))
        assert_user_error(self, empty.returncode, empty.stderr, "db-diff", "holds no run")
        stopped = HandMadeDatabase(self.path("stopped.db"))
        stopped.add_run(1, status="interrupted", sim_time_ps=10**6)
        stopped.close()
        result = run_tool(DB_DIFF, stopped.path, stopped.path)
        assert_user_error(self, result.returncode, result.stderr, "db-diff", "not done", "1 interrupted")

    def test_ring_and_backplane_tables_leave_out_runs_that_are_not_done(self):
        for tool, study, db in (("ring-table", "E14", "ring-stopped.db"), ("backplane-table", "E12b", "bp-stopped.db")):
            with self.subTest(tool=tool):
                path = self.with_an_interrupted_run(db, study, runs=2)
                result = table_tool(tool, path)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIn("run 2 is 'interrupted', so it is not in the table", result.stderr)
                rows = [l for l in result.stdout.splitlines() if l.startswith("| ") and not l.startswith("| run")]
                self.assertTrue(rows, result.stdout)
                self.assertFalse(any(l.split("|")[1].strip() == "2" for l in rows), result.stdout)

    def with_an_interrupted_run(self, db, study, runs):
        """A file of `runs` runs of `study`, the last marked interrupted; its path."""
        path = self.path(db)
        for run in range(runs):
            fabricsim(path, "--study", study, "--time", f"{20 + 10 * run}us", "--quiet")
        conn = sqlite3.connect(path)
        conn.execute("UPDATE runs SET status = 'interrupted' WHERE run_id = ?", (runs,))
        conn.commit()
        conn.close()
        return path

    def test_a_table_whose_only_run_is_not_done_names_it(self):
        """Issue 52, D15: the only run of the platform was interrupted: the
        refusal names it and why it is left out."""
        for tool, study, db in (("ring-table", "E14", "ring-only.db"), ("backplane-table", "E12b", "bp-only.db"),
                                ("ibft-table", "E13", "ibft-only.db")):
            with self.subTest(tool=tool):
                result = table_tool(tool, self.with_an_interrupted_run(db, study, runs=1))
                assert_user_error(self, result.returncode, result.stderr, tool, "run that is done",
                                  "left out, as only runs that are done are tabulated: run 1 (",
                                  ", interrupted)")


if __name__ == "__main__":
    unittest.main()
