"""The report of one run: its figures (PNG), CSVs and Markdown section.
Which sections a run's report holds, and their words, are its platform's
(platform_reports.py); a figure is drawn only where it has something to
show, and the text says why where it has not."""
import os

import numpy as np

from analysis import metrics, plots
from fabricpy.rates import gbps
from analysis.backplane_section import backplane_section
from analysis.cookbook import run_query
from analysis.job_section import jobs_section
from analysis.labels import duration, key_parameters, run_state
from fabricpy.markdown import MAX_TABLE_ROWS, cells, image, note, number, table, write_csv
from analysis.platform_reports import for_run

MAX_CDF_CURVES = 12


def plot_name(run, plot):
    return f"run{run.run_id}_{plot}.png"


class RunReport:
    """Computes a run's figures once; writes its plots and Markdown section."""

    def __init__(self, conn, run, out_dir, window_ps=None, warmup_ps=None):
        self.conn, self.run, self.out = conn, run, out_dir
        self.platform = for_run(run)
        d = run.deliveries
        self.has_deliveries = d is not None and len(d) > 0
        asked = window_ps or metrics.default_window_ps(run.sim_time_ps)
        floor, self.fewest_frames = (metrics.slowest_series_floor_ps(d, len(run.subflows), run.sim_time_ps)
                                     if self.has_deliveries else (None, 0))
        self.window_ps = metrics.floored_window_ps(asked, floor)
        # An explicit --window shorter than the floor is raised to it, and the report says so.
        self.raised_window_ps = window_ps if window_ps and self.window_ps != window_ps else None
        self.warmup_ps = self.platform.warmup_ps(run, warmup_ps)
        last = int(d.t_ps.max()) if self.has_deliveries else -1
        self.windows = metrics.window_count(run.sim_time_ps, last, self.window_ps)
        self.over_time_reason = self._over_time_reason()
        self.times_us = np.arange(self.windows) * self.window_ps / 1e6
        # Windows a figure of rates draws: those that end by the run's end (a delivery while the run
        # drained falls in a window the run did not fill).
        self.rate_windows = min(self.windows, max(1, run.sim_time_ps // self.window_ps))
        self.sections = []
        self.plots = []  # the PNG files written, by name
        # The run's headline numbers, for runs side by side (compare.py).
        self.headline = self._headline()

    def _headline(self):
        r, d = self.run, self.run.deliveries
        figures = {"subflows": len(r.subflows), "levels": {},
                   "drops": self._drop_count(), "platform": self.platform}
        if "completion" in self.platform.sections:
            done = self.conn.execute("SELECT value FROM totals WHERE run_id = ? AND metric = 'completion_ps'",
                                     (r.run_id,)).fetchone()
            figures["completion_us"] = done[0] / 1e6 if done else None
        if self.has_deliveries:
            _, _, rates = metrics.mean_throughput(d, len(r.subflows), self.warmup_ps, r.sim_time_ps)
            every = metrics.overall_latency_stats(d.latency_ps)
            by_level = metrics.latency_stats(d.levels.astype(np.int64), d.latency_ps)
            figures.update(mean_gbps=float(rates.mean()), min_gbps=float(rates.min()), mean_ns=every["mean"],
                           p99_ns=every["p99"], levels={lvl: s["mean"] for lvl, s in by_level.items()})
        return figures

    def _over_time_reason(self):
        """Why rates over time have no point in this run (one line), or None."""
        if not self.has_deliveries or self.windows >= metrics.MIN_WINDOWS_OVER_TIME:
            return None
        span = duration(self.run.sim_time_ps)
        units = self.platform.units
        return (f"the slowest subflow received {self.platform.count(self.fewest_frames)} in {span}: a window of "
                f"{metrics.FRAMES_PER_WINDOW} of its {units} leaves fewer than {metrics.MIN_WINDOWS_OVER_TIME} "
                f"windows in the run, so rates over time would show single {units}, not a rate")

    def _window_words(self):
        """How the window was chosen, for the sections that draw per window."""
        text = (f"{duration(self.window_ps)} windows (at least {metrics.FRAMES_PER_WINDOW} mean inter-arrival times "
                f"of the slowest subflow, {self.platform.count(self.fewest_frames)} over the run)")
        if self.raised_window_ps:
            text += f"; --window {duration(self.raised_window_ps)} was shorter, and was raised"
        return text

    def _drop_count(self):
        columns, rows = run_query(self.conn, "drops_by_reason", run=self.run.run_id)
        return sum(row[columns.index("drops")] for row in rows)

    # ---- what is missing, said plainly ----
    def missing_deliveries(self):
        if not self.run.frames_recorded:
            return (f"the deliveries of each {self.platform.unit} were not recorded (log level 'summary'); run "
                    "fabricsim with `--record frames` for throughput over time, latency distributions and fairness")
        if not self.has_deliveries:
            return "no copy was delivered in this run"
        return None

    def _png(self, plot):
        """The path of a figure about to be drawn, noted as written."""
        name = plot_name(self.run, plot)
        self.plots.append(name)
        return os.path.join(self.out, name)

    def write(self):
        self.sections.append(self._header())
        missing = self.missing_deliveries()
        shares = None
        draw = {"throughput": lambda: self._throughput(shares), "latency": self._latency,
                "fairness": lambda: self._fairness(shares), "drops": self._drops, "pause": self._pause,
                "cnm": self._cnm, "cache": self._cache,
                "backplane": lambda: backplane_section(self.conn, self.run, self.warmup_ps),
                "completion": self._completion, "occupancy": self._occupancy,
                "jobs": lambda: jobs_section(self.conn, self.run, self._png, lambda plot: plot_name(self.run, plot))}
        for section in self.platform.sections:
            if section in ("throughput", "latency", "fairness") and missing:
                if section == "throughput":
                    self.sections.append(self._summary_level_throughput())
                continue  # the header says what is missing, once
            if section in ("throughput", "fairness") and shares is None:
                shares = metrics.bytes_per_window(self.run.deliveries, len(self.run.subflows), self.window_ps,
                                                  self.windows)
            text = draw[section]()
            if text is not None:  # a section that does not apply to this run (jobs) says nothing
                self.sections.append(text)
        return "\n".join(self.sections)

    # ---- sections ----
    def _header(self):
        r = self.run
        wall = f"{r.wall_seconds:.2f} s wall" if r.wall_seconds is not None else "wall time not recorded"
        text = f"## Run {r.run_id}: {r.study} ({r.status})\n\n"
        state = run_state(r)
        if state:
            covers = f" Every figure covers 0 to {duration(r.sim_time_ps)}." if r.sim_time_ps else ""
            text += note(f"**Status: {state[0]}** ({state[1]}).{covers}") + "\n"
        text += (f"{duration(r.sim_time_ps)} simulated in {wall}; seed {r.seed}; log level {r.log_level}; "
                 f"model {r.model_version}; started {r.started_at}.\n\n"
                 f"Key parameters: {key_parameters(r)}.\n\n")
        for check, message in self._warnings():
            text += note(f"**Warning** ({check}): {message}.") + "\n"
        missing = self.missing_deliveries()
        if missing:
            text += note(f"**Missing:** {missing}.")
        return text

    def _warnings(self):
        """The checks of physical constraints the run broke (run_warnings; none in schema version 2)."""
        has = self.conn.execute("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'run_warnings'")
        if not has.fetchone()[0]:
            return []
        return self.conn.execute("SELECT check_name, message FROM run_warnings WHERE run_id = ? ORDER BY rowid",
                                 (self.run.run_id,)).fetchall()

    def _throughput(self, shares):
        r, d = self.run, self.run.deliveries
        frm, to = self.warmup_ps, r.sim_time_ps
        frames, received, rates = metrics.mean_throughput(d, len(r.subflows), frm, to)
        if not self.over_time_reason:
            labels = [r.subflow_label(i) for i in range(len(r.subflows))]
            n = self.rate_windows
            plots.throughput_plot(r, self.window_ps, self.times_us[:n], gbps(shares[:, :n], self.window_ps),
                                  labels, self._png("throughput"), line_gbps=self.platform.line_gbps(r),
                                  mean_gbps=(rates, f"{duration(frm)} to {duration(to)}" if frm else None),
                                  unit=self.platform.unit)
        rows = [(f, r.flow_name(f), dst, int(frames[i]), int(received[i]), rates[i])
                for i, (f, dst) in enumerate(r.subflows)]
        header = ["flow_id", "flow", "dst_port", self.platform.units, "bytes", "Gb/s"]
        csv_name = f"run{r.run_id}_subflow_throughput.csv"
        write_csv(os.path.join(self.out, csv_name), header, rows)
        text = (f"### Receive throughput per subflow\n\nMean over [{frm}, {to}) ps "
                f"({duration(frm) if frm else '0'} to {duration(to)}; {self.platform.unit} bytes, no preamble or gap), as "
                f"`db/queries/subflow_mean_throughput.sql` with @from_ps = {frm}, @to_ps = {to}. "
                f"All rows: `{csv_name}`.\n\n")
        fmt = lambda row: [row[0], row[1], row[2], row[3], row[4], number(row[5], 3)]  # noqa: E731
        if len(rows) <= MAX_TABLE_ROWS:
            text += table(header, [fmt(row) for row in rows])
        else:
            text += (f"{len(rows)} subflows: mean {number(float(rates.mean()), 3)} Gb/s, "
                     f"min {number(float(rates.min()), 3)}, max {number(float(rates.max()), 3)}. "
                     "The 8 lowest:\n\n")
            text += table(header, [fmt(row) for row in sorted(rows, key=lambda x: x[5])[:8]])
        if self.over_time_reason:
            return text + f"\nNo figure: {self.over_time_reason}.\n"
        return (text + f"\nDrawn in {self._window_words()}.\n\n" +
                image(plot_name(r, "throughput"), "receive throughput per subflow"))

    def _latency(self):
        r, d = self.run, self.run.deliveries
        flow_of = np.array([f for f, _ in r.subflows], dtype=np.int64)[d.subflow]
        per_flow = metrics.latency_stats(flow_of, d.latency_ps)
        per_level = metrics.latency_stats(flow_of * 64 + d.levels, d.latency_ps)
        by_level_total = metrics.latency_stats(d.levels.astype(np.int64), d.latency_ps)
        every = metrics.overall_latency_stats(d.latency_ps)
        by_level = self.platform.latency_by_level

        if len(per_flow) <= MAX_CDF_CURVES:
            flow_curves = [(r.flow_name(f), *metrics.ccdf_points(d.latency_ps[flow_of == f]), per_flow[f])
                           for f in per_flow]
        else:
            flow_curves = [(f"all {len(per_flow)} flows", *metrics.ccdf_points(d.latency_ps), every)]
        level_curves = [(f"{lvl} surrogate levels", *metrics.ccdf_points(d.latency_ps[d.levels == lvl]), s)
                        for lvl, s in by_level_total.items()] if by_level and len(by_level_total) > 1 else None
        plots.latency_ccdf_plot(r, flow_curves, level_curves, self._png("latency"))

        stat_header = ["deliveries", "p50 ns", "p99 ns", "p99.9 ns", "min ns", "max ns", "mean ns"]
        stat_cells = lambda s: [s["n"]] + [number(s[k], 1) for k in ("p50", "p99", "p99.9", "min", "max", "mean")]  # noqa: E731
        flow_rows = [[f, r.flow_name(f)] + stat_cells(s) for f, s in per_flow.items()]
        level_rows = [[key // 64, r.flow_name(key // 64), key % 64] + stat_cells(s) for key, s in per_level.items()]
        write_csv(os.path.join(self.out, f"run{r.run_id}_latency_per_flow.csv"), ["flow_id", "flow"] + stat_header,
                  flow_rows)
        text = (f"### Latency\n\n{self.platform.latency_span}, nearest-rank percentiles, per flow as "
                "`db/queries/latency_percentiles.sql`:\n\n")
        if len(flow_rows) <= MAX_TABLE_ROWS:
            text += table(["flow_id", "flow"] + stat_header, flow_rows)
        else:
            text += (f"{len(flow_rows)} flows (all rows: `run{r.run_id}_latency_per_flow.csv`); over every "
                     "delivery, and the 8 flows with the highest p99:\n\n")
            worst = sorted(flow_rows, key=lambda row: -float(row[4]))[:8]
            text += table(["flow_id", "flow"] + stat_header, [["all", "all flows"] + stat_cells(every)] + worst)
        if not by_level:
            return text + "\n" + image(plot_name(r, "latency"), "latency CCDF")
        text += "\nPer flow and surrogate level, as `db/queries/latency_percentiles_by_level.sql`:\n\n"
        if len(level_rows) <= MAX_TABLE_ROWS:
            text += table(["flow_id", "flow", "surrogate_levels"] + stat_header, level_rows)
        else:
            text += table(["surrogate_levels"] + stat_header,
                          [[lvl] + stat_cells(s) for lvl, s in by_level_total.items()])
        return text + "\n" + image(plot_name(r, "latency"), "latency CCDF")

    def _fairness(self, shares):
        r = self.run
        if self.over_time_reason:
            return f"### Fairness\n\nNo figure of Jain's index per window: {self.over_time_reason}.\n"
        jain = metrics.jain_index(shares)
        plots.fairness_plot(r, self.window_ps, self.times_us[:self.rate_windows], jain[:self.rate_windows],
                            len(r.subflows), self._png("fairness"))
        rows = [(w, w * self.window_ps, len(r.subflows), gbps(float(shares[:, w].sum()), self.window_ps),
                 None if np.isnan(jain[w]) else float(jain[w])) for w in range(self.windows)]
        header = ["window", "window_start_ps", "subflows", "total_gbps", "jain_index"]
        csv_name = f"run{r.run_id}_jain.csv"
        write_csv(os.path.join(self.out, csv_name), header, rows)
        valid = jain[~np.isnan(jain)]
        text = (f"### Fairness\n\nJain's index of the {len(r.subflows)} subflows' received bytes per "
                f"window ({self._window_words()}), as `db/queries/jain_fairness.sql` with "
                f"@window_ps = {self.window_ps} (all windows: `{csv_name}`). ")
        if len(valid):
            after = jain[int(self.warmup_ps // self.window_ps):]
            after = after[~np.isnan(after)]
            text += (f"Over the {len(valid)} windows with deliveries: mean {number(float(valid.mean()), 4)}, "
                     f"min {number(float(valid.min()), 4)}")
            if self.warmup_ps and len(after):
                text += f"; from {duration(self.warmup_ps)} on: mean {number(float(after.mean()), 4)}, " \
                        f"min {number(float(after.min()), 4)}"
            text += ".\n\n"
        else:
            text += "No window had deliveries.\n\n"
        if self.windows <= 24:
            text += table(header, [[w, s, n, number(g, 3), number(j, 4)] for w, s, n, g, j in rows]) + "\n"
        return text + image(plot_name(r, "fairness"), "Jain's fairness index")

    def _summary_level_throughput(self):
        r = self.run
        if not r.summary:
            return "### Receive throughput per subflow\n\nNo subflow received anything.\n"
        rows = []
        for s in r.summary:
            span = (s["last_delivered_ps"] or 0) - (s["first_delivered_ps"] or 0)
            mean_ns = s["latency_sum_ps"] / s["frames"] / 1000 if s["frames"] else None
            rows.append([s["flow_id"], r.flow_name(s["flow_id"]), s["dst_port"], s["frames"], s["bytes"],
                         number(s["bytes"] * 8000.0 / span if span > 0 else None, 3), number(mean_ns, 1)])
        text = ("### Receive throughput per subflow (totals)\n\nFrom `subflow_summary`: Gb/s between the first "
                "and the last delivery; mean latency.\n\n")
        header = ["flow_id", "flow", "dst_port", self.platform.units, "bytes", "Gb/s", "mean latency ns"]
        return text + table(header, rows[:MAX_TABLE_ROWS]) + (
            f"\n({len(rows) - MAX_TABLE_ROWS} more subflows not shown.)\n" if len(rows) > MAX_TABLE_ROWS else "")

    def _drops(self):
        r = self.run
        columns, rows = run_query(self.conn, "drops_by_reason", run=r.run_id)
        windows = max(self.windows, 1)
        counts = {}
        for reason, w, n in self.conn.execute(
                "SELECT reason, t_ps / ?2, count(*) FROM drops WHERE run_id = ?1 GROUP BY 1, 2",
                (r.run_id, self.window_ps)):
            counts.setdefault(reason, np.zeros(windows))[min(w, windows - 1)] += n
        text = "### Drops by reason\n\nAs `db/queries/drops_by_reason.sql`:\n\n"
        if not rows:
            return text.replace(":\n\n", ": ") + f"no {self.platform.unit} or copy was dropped (no figure).\n"
        plots.drops_plot(r, self.window_ps, np.arange(windows) * self.window_ps / 1e6, counts, self._png("drops"),
                         self.platform.unit)
        return text + table(columns, rows) + "\n" + image(plot_name(r, "drops"), "drops by reason")

    def _per_window(self, kinds):
        """Events of these kinds per window: {kind: counts}."""
        windows = max(self.windows, 1)
        counts = {kind: np.zeros(windows) for kind in kinds}
        for kind, w, n in self.conn.execute(
                f"SELECT kind, t_ps / ?2, count(*) FROM events WHERE run_id = ?1 AND kind IN "
                f"({', '.join('?' * len(kinds))}) GROUP BY 1, 2", (self.run.run_id, self.window_ps, *kinds)):
            counts[kind][min(w, windows - 1)] += n
        return counts

    def _pause(self):
        r = self.run
        text = "### PAUSE\n\n"
        columns, rows = run_query(self.conn, "pause_time", run=r.run_id)
        if not rows:
            return text + "No PAUSE was sent (`db/queries/pause_time.sql` returns no rows; no figure).\n"
        pause_events = self.conn.execute(
            "SELECT kind, t_ps, entity_id, CAST(value AS INTEGER) FROM events WHERE run_id = ? AND kind IN "
            "('pause', 'go') ORDER BY t_ps, rowid", (r.run_id,)).fetchall()
        intervals = metrics.paused_intervals(pause_events, r.sim_time_ps)
        windows = max(self.windows, 1)
        stopped = metrics.paused_count_over_time(intervals, self.window_ps, windows)
        plots.pause_plot(r, self.window_ps, np.arange(windows) * self.window_ps / 1e6, stopped,
                         self._per_window(("pause",))["pause"], self._png("pause"))
        text += "PAUSE per port and priority, as `db/queries/pause_time.sql`:\n\n" + table(
            columns, [cells(row, 3) for row in rows[:MAX_TABLE_ROWS]])
        if len(rows) > MAX_TABLE_ROWS:
            text += f"\n({len(rows) - MAX_TABLE_ROWS} more (port, priority) pairs not shown.)\n"
        return text + "\n" + image(plot_name(r, "pause"), "PAUSE activity")

    def _cnm(self):
        r = self.run
        text = "### QCN congestion notifications\n\n"
        columns, rows = run_query(self.conn, "cnms_per_flow", run=r.run_id)
        if not rows:
            return text + ("No CNM was sent: QCN off, or no congestion point crossed its set point "
                           "(`db/queries/cnms_per_flow.sql` returns no rows; no figure).\n")
        windows = max(self.windows, 1)
        plots.cnm_plot(r, self.window_ps, np.arange(windows) * self.window_ps / 1e6,
                       self._per_window(("cnm",))["cnm"], self._png("cnm"))
        text += "CNMs per flow, as `db/queries/cnms_per_flow.sql`:\n\n" + table(
            columns, [cells(row, 3) for row in rows[:MAX_TABLE_ROWS]])
        return text + "\n" + image(plot_name(r, "cnm"), "CNMs sent")

    def _completion(self):
        """A one-shot workload (the fat tree's multicast): when it completed,
        and whether every delivery it was to make was made."""
        figures = dict(self.conn.execute(
            "SELECT metric, value FROM totals WHERE run_id = ? AND metric IN ('completion_ps', 'deliveries', "
            "'expected_deliveries', 'switch_copies')", (self.run.run_id,)).fetchall())
        text = "### Completion\n\n"
        if "completion_ps" not in figures:
            return text + "The run recorded no completion time (`completion_ps` in `totals`).\n"
        done, expected = figures.get("deliveries"), figures.get("expected_deliveries")
        complete = done is not None and expected is not None and done >= expected
        text += (f"{'Every' if complete else 'Not every'} delivery was made: {number(done, 0)} of "
                 f"{number(expected, 0)} expected, {'completed' if complete else 'the last'} at "
                 f"{number(figures['completion_ps'] / 1e6, 3)} us (`completion_ps` in `totals`); "
                 f"{number(figures.get('switch_copies'), 0)} copies made by the switches.\n")
        return text

    def _cache(self):
        columns, rows = run_query(self.conn, "cache_hit_rate", run=self.run.run_id)
        text = "### Multicast packet cache\n\n"
        if not rows:
            return text + "No cache counters were recorded (`db/queries/cache_hit_rate.sql` returns no rows).\n"
        return text + "As `db/queries/cache_hit_rate.sql`:\n\n" + table(
            columns, [cells(row, 4) for row in rows])

    def _occupancy(self):
        r = self.run
        present = {m for (m,) in self.conn.execute(
            "SELECT metric FROM samples WHERE run_id = ? GROUP BY metric HAVING count(DISTINCT t_ps) > 1 "
            "AND max(abs(value)) > 0", (r.run_id,))}
        chosen = [m for m in self.platform.occupancy_metrics if m in present][:3]
        text = "### Queue occupancy\n\n"
        if not chosen:
            sampled = r.config.get("record.sample_interval", "")
            return text + (f"None of {', '.join(self.platform.occupancy_metrics)} was sampled above zero more than "
                           f"once (record.sample_interval = {sampled or 'its default'}; no figure).\n")
        series, lines = [], []
        for metric in chosen:
            rows = self.conn.execute("SELECT t_ps, entity, value FROM v_samples WHERE run_id = ? AND metric = ? "
                                     "ORDER BY t_ps", (r.run_id, metric)).fetchall()
            defined = self.conn.execute("SELECT unit, description FROM metrics WHERE name = ?", (metric,)).fetchone()
            limit = self.platform.occupancy_limits.get(metric)
            limit_rows = self.conn.execute(
                "SELECT t_ps, avg(value) FROM v_samples WHERE run_id = ? AND metric = ? GROUP BY t_ps ORDER BY t_ps",
                (r.run_id, limit)).fetchall() if limit in present else []
            times = sorted({t for t, _, _ in rows})
            entities = sorted({e for _, e, _ in rows})
            grid = np.zeros((len(entities), len(times)))
            t_index = {t: i for i, t in enumerate(times)}
            e_index = {e: i for i, e in enumerate(entities)}
            for t, e, v in rows:
                grid[e_index[e], t_index[t]] = v
            peaks = grid.max(axis=1)
            busiest = [(entities[i], grid[i]) for i in np.argsort(-peaks)[:3]]
            unit = defined[0] if defined else metric.rsplit("_", 1)[-1]  # the metric's definition (table metrics)
            title = defined[1] if defined else metric
            limit_line = (limit, np.array([t for t, _ in limit_rows]) / 1e6, np.array([v for _, v in limit_rows])) \
                if limit_rows else None
            series.append((metric, title, unit, np.array(times) / 1e6, grid.mean(axis=0), grid.max(axis=0), busiest,
                           limit_line))
            lines.append(f"- `{metric}` ({unit}), {len(entities)} {'entity' if len(entities) == 1 else 'entities'}, "
                         f"{len(times)} samples: highest "
                         f"{peaks.max():g} at {busiest[0][0]}; mean over entities and time {grid.mean():.1f}.")
        plots.occupancy_plot(r, series, self._png("occupancy"))
        return text + "\n".join(lines) + "\n\n" + image(plot_name(r, "occupancy"), "occupancy")
