#!/usr/bin/python3
"""fabricsim-search end to end (issue 41), with the real fabricsim.

SmallestCacheEqualsTheGrid: on E2b at 1522 B (200 us), the smallest
leaf.cache.entries in 4..128 with every subflow at or above 95 Gb/s, by the
search and by the full grid of that key (fabricsim-sweep): the same answer,
in fewer runs.
StoppedAndRerun: a search stopped by SIGINT after its first runs is
continued by the same command: the finished trials are kept, no design runs
twice, and the answer is the uninterrupted search's.
TwoObjectives: E12a with 802.3x, memory against throughput: a front of
non-dominated designs, each met by its runs' figures.
AnyObjective: an objective that is not the varied key (TPE): the answer is
the best of the trials' designs by their runs' figure.
StudySection: a study file's [search] section declares the search; the
command line replaces what it names.
SameSearchSameDatabase: the same search twice into two files: scripts/db-diff
finds them the same (Optuna's timestamps are when, not what, issue 52 N12);
another sampler seed decides otherwise, and db-diff says so.
OldKeyNames: a renamed key's old name is one rule everywhere (issue 52,
N10): --vary takes it with a note naming the new one; given with its new
name (--set) it is refused naming both.
BadDeclarations: an empty range, an unknown figure, a key of another
platform, a text key as a range, no objective, a mistyped key, figure or
option (with the names near it): exit 2 before anything runs, naming the
option; a constraint no design meets: exit 1, "no design
met the constraints".

FABRICSIM_BINARY names the simulator. Run: /usr/bin/python3 tests/search/search_test.py [CLASS]"""
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
from database_polling import wait_for_rows  # noqa: E402
BINARY = os.path.abspath(os.environ.get("FABRICSIM_BINARY", os.path.join(ROOT, "build", "fabricsim")))
SEARCH = os.path.join(ROOT, "scripts", "fabricsim-search")
SWEEP = os.path.join(ROOT, "scripts", "fabricsim-sweep")
E2B = ["E2b", "--set", "flow.f1.frame_size=1522", "--time", "200us"]
CACHE = ["--vary", "leaf.cache.entries=4..128:int:log", "--minimize", "leaf.cache.entries",
         "--subject-to", "min_subflow_gbps >= 95"]


def tool(script, *args, cwd):
    r = subprocess.run(["/usr/bin/python3", script, *args, "--fabricsim", BINARY], capture_output=True, text=True,
                       cwd=cwd)
    return r.returncode, r.stdout, r.stderr


def answer_rows(stdout):
    """The answer table's rows as lists of cells."""
    return [[c.strip() for c in line.strip("|").split("|")] for line in stdout.splitlines()
            if line.startswith("| ") and not line.startswith("| trial")]


class Case(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="fabricsim_search_test_")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def search(self, *args):
        return tool(SEARCH, *args, cwd=self.dir)


class SmallestCacheEqualsTheGrid(Case):
    def test_the_search_finds_the_grids_answer_in_fewer_runs(self):
        values = ",".join(str(c) for c in range(4, 129))
        status, _, err = tool(SWEEP, *E2B, "--sweep", "inherit=false", "--sweep", f"leaf.cache.entries={values}",
                              "--db", "grid.db", "--jobs", "2", cwd=self.dir)
        self.assertEqual(status, 0, err)
        from search import run_metrics
        conn = sqlite3.connect(os.path.join(self.dir, "grid.db"))
        rows = conn.execute("SELECT CAST(v.value AS INTEGER), r.run_id, r.sim_time_ps FROM sweep_values v "
                            "JOIN runs r USING (run_id) WHERE v.key = 'leaf.cache.entries'").fetchall()
        met = sorted(c for c, run, t in rows if run_metrics.value(conn, "min_subflow_gbps", run, t) >= 95)
        conn.close()
        self.assertEqual(len(rows), 125)
        self.assertTrue(met, "no cache size of the grid meets the target: the test says nothing")
        status, out, err = self.search(*E2B, *CACHE, "--db", "search.db", "--jobs", "2")
        self.assertEqual(status, 0, err)
        answer = answer_rows(out)
        self.assertEqual(len(answer), 1, out)
        self.assertEqual(answer[0][1], f"leaf.cache.entries={met[0]}", out)
        conn = sqlite3.connect(os.path.join(self.dir, "search.db"))
        (runs,) = conn.execute("SELECT count(*) FROM runs").fetchone()
        conn.close()
        self.assertLess(runs, 125 // 5, out)  # the grid's 125 runs against a few
        self.assertIn(f"{runs} runs (the full grid: 125 runs)", out)
        # The search's runs are sweep runs: the table tools read them as any sweep's.
        r = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "sweep-table"), "search.db", "--rows",
                            "leaf.cache.entries", "--cols", "sim.seed"], capture_output=True, text=True, cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"| {met[0]} | ", r.stdout)
        self.assertEqual(r.stdout.count("\n| "), runs)  # a row per design run (the header starts the text)
        print(f"\nsmallest cache {met[0]}: the search {runs} runs, the grid 125", file=sys.stderr)


class WireRateFromAWarmUp(Case):
    """Issue 55: 'every port at 99 Gb/s on the wire after 20 us' on perm640
    (100 us) answers 5 packets of spine buffer; in frame bytes (98.7 Gb/s at
    most at 1522 B) no design can, and the answer says why."""

    ASK = ["perm640", "--time", "100us", "--vary", "spine.buffer_packets=4..64", "--minimize", "spine.buffer_packets",
           "--warmup", "20us", "--jobs", "2", "--db", "wire.db"]

    def test_the_wire_rate_after_the_warm_up_answers_and_the_frame_rate_is_told_its_ceiling(self):
        status, out, err = self.search(*self.ASK, "--subject-to", "min_subflow_wire_gbps >= 99", "--trials", "12",
                                       "--plot", os.path.join(self.dir, "wire"))
        self.assertEqual(status, 0, err)
        answer = answer_rows(out)
        self.assertEqual([row[1] for row in answer], ["spine.buffer_packets=5"], out)
        conn = sqlite3.connect(os.path.join(self.dir, "wire.db"))
        by_buffer = {int(n): run for run, n in conn.execute(
            "SELECT run_id, number FROM run_params WHERE key = 'spine.buffer_packets'")}
        def wire_gbps(run):  # every subflow's bytes and 20 B a frame on the wire, from 20 us to 100 us
            rates = [(b + 20 * n) * 8000.0 / 80e6 for b, n in conn.execute(
                "SELECT sum(bytes), count(*) FROM deliveries WHERE run_id = ? AND t_delivered_ps >= 20000000 "
                "GROUP BY flow_id, dst_port", (run,))]
            self.assertEqual(len(rates), 640)
            return min(rates)
        self.assertGreaterEqual(wire_gbps(by_buffer[5]), 99)
        self.assertAlmostEqual(float(answer[0][3]), wire_gbps(by_buffer[5]), delta=0.0005)
        self.assertLess(wire_gbps(by_buffer[4]), 99)  # the boundary sampler tried the design below
        self.check_history_plot(conn)
        conn.close()
        status, out, err = self.search(*self.ASK, "--subject-to", "min_subflow_gbps >= 99", "--trials", "2")
        self.assertEqual(status, 1, err)
        self.assertIn("no design can meet 'min_subflow_gbps >= 99': min_subflow_gbps is at most 98.703 Gb/s for this "
                      "traffic (the line rate 100 Gb/s x frame / (frame + 20 B) at 1522 B frames", out)
        self.assertIn("min_subflow_wire_gbps counts the wire", out)

    def check_history_plot(self, conn):
        """The history plot: log y (4 to 64 packets), titled with the study, the objective and the constraint."""
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib.figure import Figure
        from fabricpy.figure_layout import layout_faults
        from search import declaration, plots
        d = declaration.parse(["spine.buffer_packets=4..64"], ["spine.buffer_packets"], [],
                              ["min_subflow_wire_gbps >= 99"], key_type=lambda key: "integer")
        d.warmup_ps = 20_000_000
        seen = []
        save = Figure.savefig
        Figure.savefig = lambda fig, *args, **kwargs: seen.append(fig)
        try:
            plots.history_plot(conn, 1, d, os.path.join(self.dir, "again.png"), {"spine.buffer_packets": "packets"})
        finally:
            Figure.savefig = save
        (fig,) = seen
        self.assertEqual(layout_faults(fig), [])
        self.assertEqual(fig.axes[0].get_yscale(), "log")
        title = fig._suptitle.get_text().replace("\n", " ")
        for words in ("search 1 of perm640", "minimize spine.buffer_packets", "min_subflow_wire_gbps >= 99",
                      "from 20 us"):
            self.assertIn(words, title)


class StoppedAndRerun(Case):
    def test_a_rerun_continues_without_running_a_design_twice(self):
        args = ["/usr/bin/python3", SEARCH, *E2B, *CACHE, "--db", "stopped.db", "--jobs", "1", "--fabricsim", BINARY]
        p = subprocess.Popen(args, cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        db = os.path.join(self.dir, "stopped.db")
        wait_for_rows(db, "SELECT count(*) FROM runs", 3)  # stop it once a few of its runs are in
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 128 + signal.SIGINT, err)
        self.assertIn("rerun the same command to continue", err)
        conn = sqlite3.connect(db)
        before = conn.execute("SELECT count(*) FROM search_trials").fetchone()[0]
        conn.close()
        self.assertGreater(before, 0)
        status, out, err = tool(SEARCH, *E2B, *CACHE, "--db", "stopped.db", "--jobs", "1", cwd=self.dir)
        self.assertEqual(status, 0, err)
        status, whole, err = self.search(*E2B, *CACHE, "--db", "whole.db", "--jobs", "1")
        self.assertEqual(status, 0, err)
        self.assertEqual(answer_rows(out)[0][1], answer_rows(whole)[0][1])
        conn = sqlite3.connect(db)
        runs = conn.execute("SELECT count(*) FROM runs").fetchone()[0]
        designs = conn.execute("SELECT count(DISTINCT design) FROM search_trials WHERE status = 'complete'").fetchone()[0]
        repeated = conn.execute("SELECT count(*) FROM (SELECT v.value FROM sweep_values v WHERE v.key = "
                                "'leaf.cache.entries' GROUP BY v.value HAVING count(*) > 1)").fetchone()[0]
        trials = conn.execute("SELECT count(*) FROM search_trials").fetchone()[0]
        conn.close()
        self.assertEqual(repeated, 0, "a design ran twice")
        self.assertEqual(runs, designs)
        self.assertGreaterEqual(trials, before)


class TwoObjectives(Case):
    def test_the_front_is_not_dominated(self):
        status, out, err = self.search("E12a", "--set", "backplane.pause=true", "--time", "20ms",
                                       "--vary", "backplane.memory=16KB..2MB:log", "--minimize", "backplane.memory",
                                       "--maximize", "throughput_gbps", "--trials", "12", "--jobs", "2",
                                       "--db", "front.db")
        self.assertEqual(status, 0, err)
        self.assertIn("the front (", out)
        front = [(float(r[2]), float(r[3])) for r in answer_rows(out)]
        self.assertGreater(len(front), 0)
        conn = sqlite3.connect(os.path.join(self.dir, "front.db"))
        every = [(m, t) for m, t in conn.execute(
            "SELECT p.number, t.value FROM runs r JOIN run_params p ON p.run_id = r.run_id AND p.key = "
            "'backplane.memory' JOIN totals t ON t.run_id = r.run_id AND t.metric = 'throughput_gbps'")]
        conn.close()
        self.assertEqual(len(every), 12)
        for memory, throughput in front:
            self.assertIn(round(memory), [round(m) for m, _ in every])
            dominated = [e for e in every if e[0] <= memory and e[1] >= throughput and
                         (e[0] < memory or e[1] > throughput + 1e-9)]
            self.assertEqual(dominated, [], f"({memory}, {throughput}) is dominated")


class AnyObjective(Case):
    def test_the_best_trial_is_the_answer(self):
        status, out, err = self.search(*E2B, "--vary", "leaf.cache.entries=8..64:int:log",
                                       "--vary", "leaf.sync.enable=true,false", "--maximize", "mean_subflow_gbps",
                                       "--trials", "8", "--jobs", "2", "--db", "tpe.db")
        self.assertEqual(status, 0, err)
        best = answer_rows(out)
        self.assertEqual(len(best), 1, out)
        from search import run_metrics
        conn = sqlite3.connect(os.path.join(self.dir, "tpe.db"))
        rates = [run_metrics.value(conn, "mean_subflow_gbps", run, t)
                 for run, t in conn.execute("SELECT run_id, sim_time_ps FROM runs")]
        designs = conn.execute("SELECT count(DISTINCT design) FROM search_trials").fetchone()[0]
        conn.close()
        self.assertEqual(len(rates), designs)  # one run per design, none twice
        self.assertAlmostEqual(float(best[0][2]), max(rates), places=3)


class StudySection(Case):
    def test_the_section_declares_and_the_command_line_replaces(self):
        with open(os.path.join(self.dir, "cache.ini"), "w") as f:
            f.write("include = " + os.path.join(ROOT, "platforms", "studies", "E2b.ini") + "\n"
                    "[flow.f1]\nframe_size = 1522\n[sim]\ntime = 200us\n"
                    "[search]\nvary = leaf.cache.entries=4..128:int:log\nminimize = leaf.cache.entries\n"
                    "subject_to = min_subflow_gbps >= 95\ntrials = 20\n")
        status, out, err = self.search("--config", "cache.ini", "--db", "a.db", "--jobs", "2")
        self.assertEqual(status, 0, err)
        self.assertEqual(len(answer_rows(out)), 1, out)
        status, out, err = self.search("--config", "cache.ini", "--subject-to", "min_subflow_gbps >= 1000",
                                       "--db", "b.db", "--jobs", "2")
        self.assertEqual(status, 1, err)
        self.assertIn("no design met the constraints", out)


class SameSearchSameDatabase(Case):
    def test_db_diff_compares_what_the_searches_decided(self):
        tpe = [*E2B[:-1], "100us", "--vary", "leaf.cache.entries=4..128:int", "--maximize", "min_subflow_gbps",
               "--trials", "6", "--jobs", "2"]
        for db, seed in (("a.db", "0"), ("b.db", "0"), ("c.db", "7")):
            status, _, err = self.search(*tpe, "--sampler-seed", seed, "--db", db)
            self.assertEqual(status, 0, err)
        diff = os.path.join(ROOT, "scripts", "db-diff")
        same = subprocess.run([diff, "a.db", "b.db"], cwd=self.dir, capture_output=True, text=True)
        self.assertEqual(same.returncode, 0, same.stdout + same.stderr)
        self.assertIn("same    trials", same.stdout)
        other = subprocess.run([diff, "a.db", "c.db"], cwd=self.dir, capture_output=True, text=True)
        self.assertEqual(other.returncode, 1, other.stdout + other.stderr)
        self.assertIn("DIFFER  trial_params", other.stdout)


class OldKeyNames(Case):
    def test_the_old_name_is_taken_with_a_note_and_not_with_the_new(self):
        declaration = ["--vary", "leaf.coalesce_control=true,false", "--maximize", "mean_subflow_gbps",
                       "--trials", "2"]
        status, _, err = self.search(*E2B, *declaration, "--db", "old.db")
        self.assertIn(status, (0, 1), err)
        self.assertIn("fabricsim-search: note: key 'leaf.coalesce_control' is now 'leaf.control.merge_queued'", err)
        status, _, err = self.search(*E2B, *declaration, "--set", "leaf.control.merge_queued=true", "--db", "both.db")
        self.assertEqual(status, 2, err)
        self.assertIn("leaf.coalesce_control", err.strip().splitlines()[-1])
        self.assertIn("leaf.control.merge_queued", err.strip().splitlines()[-1])
        self.assertFalse(os.path.exists(os.path.join(self.dir, "both.db")), "something ran")


class BadDeclarations(Case):
    def refused(self, expected, *args):
        status, _, err = self.search(*args, "--db", "bad.db")
        self.assertEqual(status, 2, err)
        self.assertIn(expected, err)
        self.assertNotIn("Traceback", err)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "bad.db")), "something ran")

    def test_each_is_refused_naming_what_is_wrong(self):
        self.refused("--vary leaf.cache.entries=64..16: the range is empty", *E2B,
                     "--vary", "leaf.cache.entries=64..16", "--minimize", "leaf.cache.entries")
        self.refused("'tail_latency' is neither a run metric", *E2B, "--vary", "leaf.cache.entries=4..128",
                     "--minimize", "tail_latency")
        self.refused("a key of platform 'fabric', not of this run's platform 'backplane'", "E12a", "--vary", "leaf.cache.entries=4..128",
                     "--minimize", "throughput_gbps")
        self.refused("leaf.cache.impl is a choice key, not a number's: give its values as a list", *E2B,
                     "--vary", "leaf.cache.impl=1..4", "--minimize", "leaf.cache.entries")
        # Issue 52, N8 and N9: every listed value, and a range's ends read by the key's own type and unit.
        self.refused("--vary leaf.cache.entries=4,abc,8: 'abc' is not a value of leaf.cache.entries; expected an "
                     "integer", *E2B, "--vary", "leaf.cache.entries=4,abc,8", "--maximize", "min_subflow_gbps")
        self.refused("key 'leaf.cache.entries' has value '5000'; allowed: 1 .. 4096", *E2B,
                     "--vary", "leaf.cache.entries=4,5000,8", "--maximize", "min_subflow_gbps")
        for vary, end in (("leaf.cache.entries=4KB..8KB", "4KB"), ("leaf.cache.entries=0x4..0x40", "0x4"),
                          ("leaf.cache.entries=1e1..1e2", "1e1")):
            self.refused(f"--vary {vary}: '{end}' is not a value of leaf.cache.entries", *E2B, "--vary", vary,
                         "--maximize", "min_subflow_gbps")
        self.refused("--vary backplane.memory=1us..1ms: '1us' is not a value of backplane.memory; expected a size",
                     "E12a", "--vary", "backplane.memory=1us..1ms", "--minimize", "backplane.memory")
        self.refused("no objective", *E2B, "--vary", "leaf.cache.entries=4..128")
        self.refused("a robustness axis (:all) takes a list of values", *E2B, "--vary", "leaf.cache.entries=4..8:all",
                     "--minimize", "leaf.cache.entries")
        self.refused("expected NAME OP NUMBER", *E2B, *CACHE[:4], "--subject-to", "min_subflow_gbps at least 95")
        # Issue 55: a mistyped key, figure or option is told with the names near it.
        self.refused("--vary spine.bufer_packets=4..64:int: 'spine.bufer_packets' is not a key (fabricsim "
                     "--list-params); did you mean spine.buffer_packets?", "perm640", "--vary", "spine.bufer_packets=4..64",
                     "--minimize", "spine.buffer_packets")
        self.refused("'min_subflow_gbp' is neither a run metric", *E2B, *CACHE[:2], "--maximize", "min_subflow_gbp")
        self.refused("did you mean min_subflow_gbps", *E2B, *CACHE[:2], "--maximize", "min_subflow_gbp")
        self.refused("unrecognized arguments: --tirals 5; did you mean --trials?", *E2B, *CACHE, "--tirals", "5")

    def test_a_constraint_no_design_meets(self):
        status, out, err = self.search(*E2B, "--vary", "leaf.cache.entries=4..128:int:log", "--minimize",
                                       "leaf.cache.entries", "--subject-to", "min_subflow_gbps >= 200", "--db", "x.db")
        self.assertEqual(status, 1, err)
        self.assertIn("no design met the constraints", out)
        self.assertNotIn("Traceback", err)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[1:2], verbosity=2)
