"""Several runs side by side: one row each, and --compare KEY plots of the
main figures against a configuration key."""
import difflib
import os
import re

import numpy as np

from report import metrics, plots
from report.labels import duration
from report.markdown import number, table, write_csv
from report.rundb import ReportError

_NUMBER = re.compile(r"^\s*(-?[0-9]+(?:\.[0-9]*)?(?:[eE]-?[0-9]+)?)")


def run_figures(conn, run, warmup_ps=None):
    """The headline numbers of one run (None where it has no data)."""
    if warmup_ps is None:
        warmup_ps = 500_000_000 if run.sim_time_ps >= 1_000_000_000 else 0
    warmup_ps = min(warmup_ps, max(run.sim_time_ps - 1, 0))
    figures = {"drops": conn.execute("SELECT count(*) FROM drops WHERE run_id = ?", (run.run_id,)).fetchone()[0],
               "subflows": len(run.subflows), "levels": {}}
    d = run.deliveries
    if d is None or len(d) == 0:
        return figures
    _, _, rates = metrics.mean_throughput(d, len(run.subflows), warmup_ps, run.sim_time_ps)
    every = metrics.latency_stats(np.zeros(len(d), dtype=np.int64), d.latency_ps)[0]
    figures.update(mean_gbps=float(rates.mean()), min_gbps=float(rates.min()), total_gbps=float(rates.sum()),
                   mean_ns=every["mean"], p99_ns=every["p99"], p50_ns=every["p50"], warmup_ps=warmup_ps)
    figures["levels"] = {lvl: s["mean"] for lvl, s in
                         metrics.latency_stats(d.levels.astype(np.int64), d.latency_ps).items()}
    return figures


def key_value(run, key):
    if key not in run.config:
        close = difflib.get_close_matches(key, list(run.config), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ReportError(f"--compare {key}: run {run.run_id} has no configuration key '{key}'{hint} "
                          "(keys as in fabricsim --list-params)")
    return run.config[key]


def as_number(text):
    m = _NUMBER.match(text)
    return float(m.group(1)) if m else None


def differing_keys(runs, exclude):
    keys = set().union(*(r.config.keys() for r in runs)) - set(exclude)
    return sorted(k for k in keys if len({r.config.get(k) for r in runs}) > 1)


class Comparison:
    def __init__(self, key=None):
        self.key = key
        self.rows = []  # (run, figures)

    def add(self, conn, run, warmup_ps=None):
        if self.key is not None:
            key_value(run, self.key)
        self.rows.append((run, run_figures(conn, run, warmup_ps)))

    def markdown(self, out_dir):
        runs = [r for r, _ in self.rows]
        others = differing_keys(runs, [self.key, "sim.seed"] if self.key else ["sim.seed"])
        header = ["run", "study", "status"] + ([self.key] if self.key else []) + others + [
            "subflows", "mean Gb/s per subflow", "min Gb/s", "mean latency ns", "p99 ns", "drops"]
        rows = []
        for run, f in self.rows:
            rows.append([run.run_id, run.study, run.status] + ([run.config[self.key]] if self.key else []) +
                        [run.config.get(k, "-") or "(empty)" for k in others] +
                        [f["subflows"], number(f.get("mean_gbps"), 3), number(f.get("min_gbps"), 3),
                         number(f.get("mean_ns"), 1), number(f.get("p99_ns"), 1), f["drops"]])
        write_csv(os.path.join(out_dir, "comparison.csv"), header, rows)
        title = f"against {self.key}" if self.key else "side by side"
        text = (f"## Runs {title}\n\nThroughput is the mean over each run's subflows of the receive rate "
                "after the warm-up (0.5 ms for runs of 1 ms or more, else none); latency over every delivered "
                "copy. Keys that differ between the runs are shown. All rows: `comparison.csv`.\n\n")
        text += table(header, rows) + "\n"
        if self.key:
            text += self._plots(out_dir, others)
        return text

    def _plots(self, out_dir, others):
        values = [(as_number(r.config[self.key]), r.config[self.key]) for r, _ in self.rows]
        categorical = any(v is None for v, _ in values)
        series, by_level = {}, {}
        for (run, f), (num, text) in sorted(zip(self.rows, values), key=lambda p: (p[1][0] is None, p[1][0] or 0,
                                                                                   p[1][1])):
            label = ", ".join(f"{k}={run.config.get(k, '-')}" for k in others) or "all runs"
            x = text if categorical else num
            series.setdefault(label, []).append((x, f))
            for lvl, mean_ns in f["levels"].items():
                by_level.setdefault(f"{label}, {lvl} levels", []).append((x, {"mean_ns": mean_ns}))
        studies = sorted({r.study for r, _ in self.rows})
        subtitle = f"{len(self.rows)} runs of {', '.join(studies)}; {len(series)} series"
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", self.key)
        main_png, level_png = f"compare_{name}.png", f"compare_{name}_by_level.png"
        plots.compare_plot(f"{', '.join(studies)}: throughput and delay against {self.key}", subtitle, self.key,
                           series, [("mean_gbps", "mean receive throughput per subflow (Gb/s)"),
                                    ("min_gbps", "lowest subflow's throughput (Gb/s)"),
                                    ("mean_ns", "mean latency (ns)"), ("p99_ns", "p99 latency (ns)")],
                           os.path.join(out_dir, main_png), categorical)
        plots.compare_plot(f"{', '.join(studies)}: mean delay per surrogate level against {self.key}", subtitle,
                           self.key, by_level, [("mean_ns", "mean latency (ns)")],
                           os.path.join(out_dir, level_png), categorical)
        return f"![against {self.key}]({main_png})\n\n![delay per surrogate level]({level_png})\n"


def describe_runs(runs):
    return ", ".join(f"{r.run_id} ({r.study}, {duration(r.sim_time_ps)})" for r in runs)
