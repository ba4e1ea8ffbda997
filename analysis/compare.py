"""Several runs side by side: one row each, and --compare KEY plots of the
main figures against a configuration key. The figures are those each run's
RunReport computed."""
import os
import re

from analysis import plots
from fabricpy import param_descriptions
from analysis.platform_reports import for_run
from fabricpy.markdown import number, table, write_csv
from fabricpy.option_values import config_key

_NUMBER = re.compile(r"^\s*(-?[0-9]+(?:\.[0-9]*)?(?:[eE]-?[0-9]+)?)")


def key_value(run, key):
    return run.config[config_key("--compare", key, run.run_id, run.config)]


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

    def check(self, run):
        """Before any work: the run has the key compared against."""
        if self.key is not None:
            key_value(run, self.key)

    def add(self, run, headline):
        """A run and its headline numbers (RunReport.headline)."""
        self.rows.append((run, headline))

    def _one_shot(self):
        """Whether every run is a one-shot workload (the fat tree's multicast): its figure is when it completed."""
        return all("completion" in f["platform"].sections for _, f in self.rows)

    def _figure_columns(self):
        if self._one_shot():
            return ["completion us", "mean latency us", "p99 us", "drops"]
        return ["subflows", "mean Gb/s per subflow", "min Gb/s", "mean latency ns", "p99 ns", "drops"]

    def _figures(self, f):
        if self._one_shot():
            us = lambda ns: None if ns is None else ns / 1000  # noqa: E731
            return [number(f.get("completion_us"), 1), number(us(f.get("mean_ns")), 1), number(us(f.get("p99_ns")), 1),
                    f["drops"]]
        return [f["subflows"], number(f.get("mean_gbps"), 3), number(f.get("min_gbps"), 3),
                number(f.get("mean_ns"), 1), number(f.get("p99_ns"), 1), f["drops"]]

    def markdown(self, out_dir):
        runs = [r for r, _ in self.rows]
        others = differing_keys(runs, [self.key, "sim.seed"] if self.key else ["sim.seed"])
        header = ["run", "study", "status"] + ([self.key] if self.key else []) + others + self._figure_columns()
        rows = []
        for run, f in self.rows:
            rows.append([run.run_id, run.study, run.status] + ([run.config[self.key]] if self.key else []) +
                        [run.config.get(k, "-") or "(empty)" for k in others] + self._figures(f))
        write_csv(os.path.join(out_dir, "comparison.csv"), header, rows)
        title = f"against {self.key}" if self.key else "side by side"
        measure = ("Completion is when the last delivery of the one-shot workload was made" if self._one_shot() else
                   "Throughput is the mean over each run's subflows of the receive rate after the warm-up (--warmup; "
                   "by default 0.5 ms for runs of 1 ms or more, else none)")
        text = (f"## Runs {title}\n\n{measure}; latency over every delivered copy. Keys that differ between the "
                "runs are shown. All rows: `comparison.csv`.\n\n")
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
                by_level.setdefault(label, {}).setdefault(int(lvl), []).append((x, mean_ns))
        studies = sorted({r.study for r, _ in self.rows})
        runs_of = f"runs of {studies[0]}" if len(studies) == 1 else f"runs of {len(studies)} studies"
        subtitle = f"{len(self.rows)} runs of {', '.join(studies)}; {len(series)} series"
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", self.key)
        main_png, level_png = f"compare_{name}.png", f"compare_{name}_by_level.png"
        key_label = param_descriptions.label(self.key)
        references = self._references()
        plots.compare_plot(f"{runs_of}: throughput and delay against {self.key}", subtitle, self.key,
                           series, [("mean_gbps", "mean receive throughput per subflow (frame bytes)"),
                                    ("min_gbps", "lowest subflow's throughput (frame bytes)"),
                                    ("mean_ns", "mean latency"), ("p99_ns", "p99 latency")],
                           os.path.join(out_dir, main_png), categorical, key_label, references)
        text = f"![against {self.key}]({main_png})\n\n"
        if any(len(f["levels"]) > 1 for _, f in self.rows):  # replication through surrogate levels
            plots.levels_plot(f"{runs_of}: mean delay per surrogate level against {self.key}", subtitle,
                              self.key, by_level, os.path.join(out_dir, level_png), categorical, key_label)
            text += f"![delay per surrogate level]({level_png})\n"
        return text

    def _references(self):
        """The line rate on the throughput panels, where the runs share one
        and a subflow comes near it (a quarter of it or more: else it only
        squeezes the data); the offered load itself where it is the key
        compared against and bounds a subflow (one flow per source port)."""
        rates = {for_run(run).line_gbps(run) for run, _ in self.rows}
        highest = max((f.get("mean_gbps") or 0 for _, f in self.rows), default=0)
        references = []
        if len(rates) == 1 and None not in rates:
            rate = rates.pop()
            if highest >= rate / 4:
                references += [(m, rate, f"line rate {rate:g} Gb/s") for m in ("mean_gbps", "min_gbps")]
        one_flow_a_port = all(len(run.flows) == len({f["src_port"] for f in run.flows.values()})
                              for run, _ in self.rows)
        if self.key == "traffic.load_gbps" and one_flow_a_port:  # counting preamble and gap: an upper bound
            references += [(m, None, "offered per source port, on the wire (an upper bound)")
                           for m in ("mean_gbps", "min_gbps")]
        return references

