"""Issue 55: no figure's title, label or legend is clipped by the figure's
edge, and no legend covers data. Every figure that fabric-report and the
table tools draw for a set of small studies of every platform goes through
fabricpy.figure_layout before it is saved; the checker itself is shown to
find a clipped title and a covering legend."""
import os
import shutil
import tempfile
import unittest

from report_fixture import FANIN, fabricsim  # noqa: F401  (sets up the path to the source)

import matplotlib  # noqa: E402

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402

from analysis import backplane_table, cli, ibft_table, job_table, ring_table  # noqa: E402
from fabricpy.figure_layout import layout_faults  # noqa: E402
from fabricpy.style import pyplot  # noqa: E402

# (database, fabricsim runs: lists of arguments)
STUDIES = {
    "zero_load": [["--study", "E11", "--record", "frames"]],
    "many_subflows": [["--study", "perm640", "--set", "topology.racks=1", "--set", "topology.leaves=8",
                       "--time", "60us", "--record", "frames"]],
    "fanin": [FANIN],
    "backplane": [["--study", "E12a", "--time", "4ms", "--set", "backplane.warmup=1ms", "--set", "backplane.pause=true",
                   "--set", f"backplane.xoff={x}", "--record", "frames"] for x in ("4KB", "16KB", "64KB")],
    "ibft": [["--study", "E13", "--set", f"ibft.scheme={s}", "--set", f"ibft.group={g}", "--set",
              f"ibft.message_bytes={m}", "--set", "ibft.sources=40%", "--record", "summary"]
             for s in ("cyclic", "opensm", "unicast") for g in ("10%", "40%") for m in ("256", "4KB")],
    "ring": [["--study", "E14", "--set", f"sim.time={t}", "--set", f"traffic.load_gbps={load}"]
             for t in ("1ms", "3ms") for load in (0.5, 1.5, 3)],
    "jobs": [["--study", "allreduce8", "--set", "job.ar.bytes=256KB", "--record", "summary"]],
    "compare": [["--study", "perm640", "--set", "topology.racks=1", "--set", "topology.leaves=4", "--time", "40us",
                 "--set", f"traffic.load_gbps={load}", "--record", "frames"] for load in (25, 50, 100)],
}
# Reports beyond the default one: (database, options).
MORE_REPORTS = (("compare", ["--compare", "traffic.load_gbps", "--per-run"]),)
TOOLS = {"backplane": (backplane_table, "--plot"), "ibft": (ibft_table, "--plot"), "ring": (ring_table, "--plot"),
         "jobs": (job_table, "--plot")}


class FigureLayout(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="figure_layout_")
        cls.dbs = {}
        for name, runs in STUDIES.items():
            cls.dbs[name] = os.path.join(cls.dir, f"{name}.db")
            for args in runs:
                fabricsim(cls.dbs[name], *args, *([] if "--quiet" in args else ["--quiet"]))
        cls.faults, cls.figures = [], []
        save = Figure.savefig

        def checked_save(fig, path, *args, **kwargs):
            cls.figures.append(os.path.basename(str(path)))
            cls.faults += [f"{os.path.basename(str(path))}: {fault}" for fault in layout_faults(fig)]
            return save(fig, path, *args, **kwargs)

        Figure.savefig = checked_save
        cls.status = []
        try:
            for name, db in cls.dbs.items():
                cls.status.append(cli.main([db, "--out", os.path.join(cls.dir, f"{name}_report")]))
                for options in (more for db_name, more in MORE_REPORTS if db_name == name):
                    cls.status.append(cli.main([db, *options, "--out", os.path.join(cls.dir, f"{name}_more")]))
                if name in TOOLS:
                    module, option = TOOLS[name]
                    cls.status.append(module.main([db, option, os.path.join(cls.dir, name + ".png" if
                                                                           name == "backplane" else name)]))
        finally:
            Figure.savefig = save

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_every_figure_has_its_texts_inside_and_its_legends_off_the_data(self):
        self.assertEqual(self.faults, [], f"of {len(self.figures)} figures")

    def test_every_platform_drew_figures(self):
        self.assertEqual(self.status, [0] * len(self.status))
        for kind in ("_latency", "_throughput", "_pause", "_drops", "_occupancy", "_fairness", "backplane",
                     "ibft_time", "ibft_speedup", "ring_throughput", "ring_latency", "ring_tickets", "job", "compare"):
            self.assertTrue(any(kind in f for f in self.figures), f"no {kind} figure among {sorted(self.figures)}")

    def test_the_checker_finds_a_clipped_title_and_a_legend_over_data(self):
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(3, 2.4))
        ax.plot([0, 1, 2, 3], [3, 3, 3, 3], label="flat at the top")
        ax.plot([0, 3], [0, 1], label="low")
        ax.legend(loc="upper left")
        fig.suptitle("E13 IBFT(8, 3): completion time against message size, per case, far too long to fit")
        faults = layout_faults(fig)
        plt.close(fig)
        self.assertEqual(len(faults), 2, faults)
        self.assertIn("clipped: 'E13 IBFT(8, 3)", faults[0])
        self.assertIn("covers 'flat at the top'", faults[1])
