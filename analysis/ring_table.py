"""ring-table DB [--plot PREFIX]: the QuickRing ring studies (E14;
scripts/sweep E14) as a Markdown table from db/queries/ring_throughput.sql:
per run its rings, groups, pattern, flow-control mechanisms and offered
load, the throughput, tickets and retracts per packet and the reservation
and queueing latencies, with the source document's expectation beside each;
with --plot, PREFIX-throughput.png (throughput against offered load, a line
per rings / groups / pattern / mechanisms, runs at a steady load),
PREFIX-tickets.png (tickets and retracts per packet against load),
PREFIX-latency.png (reservation and queueing latency against load),
PREFIX-q.png (throughput against a fixed limit q, steady and under a load
schedule) and PREFIX-timeseries.png (the limit q, the SPQ length and the
throughput every sample interval of up to four runs whose pattern or load
changes over time, db/queries/ring_timeseries.sql).
fabric-report adds the same section and plots to its report of a file that
holds ring runs."""
import math
import os
import re

from analysis import table_tool
from fabricpy import tool
from analysis.cookbook import run_query
from analysis.labels import duration
from fabricpy.markdown import number, table


# A run delivering less than this share of its offered load is overloaded:
# its queues grow, and its latency with the run's length.
DELIVERED_SHARE_OF_STEADY = 0.95


def collect(conn):
    columns, rows = run_query(conn, "ring_throughput")
    length = dict(conn.execute("SELECT run_id, sim_time_ps FROM runs"))
    rows = [dict(zip(columns, row), sim_time_ps=length.get(row[0])) for row in rows]
    return table_tool.only_done_runs(conn, rows)


def overloaded(r):
    """Whether the run delivered less than DELIVERED_SHARE_OF_STEADY of its offered load."""
    return (not r["schedule"] and r["throughput_gbps"] is not None and r["offered_gbps"]
            and r["throughput_gbps"] < DELIVERED_SHARE_OF_STEADY * r["offered_gbps"])


def series_key(r):
    """A line: runs of one set-up and one length (runs of different lengths are never joined)."""
    return (r["rings"], r["groups"], r["pattern"], r["mechanisms"] or "none", r["schedule"], r["placement"] or "",
            r.get("sim_time_ps") or 0)


def series_label(key, lengths=1):
    """The line's name; its run length where the lines have `lengths` different ones."""
    rings, groups, pattern, mechanisms, schedule, placement, sim_time_ps = key
    where = f"{rings} rings ({placement}), " if rings > 1 and placement else f"{rings} rings, " if rings > 1 else ""
    runs = f", {duration(sim_time_ps)} runs" if lengths > 1 else ""
    return f"{where}{groups} {pattern}: {mechanisms}" + (f" ({schedule})" if schedule else "") + runs


def series(rows, x, keep, key=series_key):
    """The runs that `keep` selects, by series, each sorted by column x;
    only series with three or more values of x."""
    by_key = {}
    for r in rows:
        if keep(r):
            by_key.setdefault(key(r), []).append(r)
    return {k: sorted(v, key=lambda r: r[x]) for k, v in sorted(by_key.items()) if len({r[x] for r in v}) >= 3}


def load_series(rows):
    return series(rows, "offered_gbps", lambda r: not r["schedule"])


def q_series(rows):
    def any_q(r):  # the series of every q at one load: "q=4+delay" -> "fixed q+delay"
        rings, groups, pattern, mechanisms, schedule, placement, length = series_key(r)
        at = f"{r['offered_gbps']:g} Gb/s" + (f", {schedule}" if schedule else "")
        return rings, groups, pattern, re.sub(r"^q=\d+", "fixed q", mechanisms), at, placement, length
    return series(rows, "q", lambda r: (r["mechanisms"] or "").startswith("q="), any_q)


def expectation(r):
    """What platforms.md (E14) expects of such a run: below saturation
    (a steady run that delivers what it is offered), that it does so."""
    m = r["mechanisms"] or ""
    if not r["schedule"] and r["throughput_gbps"] is not None and not overloaded(r):
        return "carries what is offered (below saturation)"
    if r["rings"] > 1:
        return "stable at high load" if "bridge_fc" in m else "collapses at high load"
    if r["pattern"] == "one-to-all":
        return "a small q reaches saturation"
    if not m:
        return "rises, peaks, then falls (thrashing)"
    if m.startswith("adaptive") and "delay" in m and "backoff" in m:
        return "best: flat near saturation, about 1 ticket a packet"
    if m.startswith("q="):
        return "better than delayed retry alone; too small a q underloads, too large thrashes"
    if m == "+delay+backoff":
        return "a little better than delayed retry alone"
    if m == "+delay":
        return "does not stabilise"
    return ""


def build_table(rows):
    header = ["run", "rings", "groups", "pattern", "mechanisms", "offered Gb/s", "schedule", "throughput Gb/s",
              "tickets / packet", "retracts / packet", "reservation us", "queueing us", "the document expects"]
    body = [[r["run_id"], f'{r["rings"]} ({r["placement"]})' if r["placement"] else r["rings"], r["groups"], r["pattern"], r["mechanisms"] or "none", number(r["offered_gbps"], 2),
             r["schedule"] or "-", number(r["throughput_gbps"], 3), number(r["tickets_per_packet"], 2), number(r["retracts_per_packet"], 3),
             number(r["reservation_us"], 1), number(r["queueing_us"], 1), expectation(r)] for r in rows]
    return ("Offered load is the base load (`traffic.load_gbps`); a run with a load schedule offers more.\n\n" +
            table(header, body))


def _pyplot():
    from fabricpy.style import pyplot
    return pyplot()


def plot_series(by_series, x, xlabel, path, metrics, title, references=()):
    """metrics: [(column, y label, log scale)], a panel each; a line per
    series; an overloaded run (overloaded()) a hollow marker. references:
    [(column, label)]: y = x on that column's panel (delivered = offered)."""
    plt = _pyplot()
    from fabricpy import style
    lengths = len({key[-1] for key in by_series})
    # The legend goes below the panels, two columns where there are two panels: the series' names are long.
    columns = 2 if len(metrics) > 1 else 1
    legend_rows = (len(by_series) + 1 + columns - 1) // columns
    legend_inches = 0.3 + 0.17 * legend_rows
    fig, axes = plt.subplots(1, len(metrics), figsize=(6 * len(metrics) + 2, 4.6 + legend_inches), squeeze=False)
    colors = plt.get_cmap("tab20").colors
    any_overloaded = False
    for ax, (column, label, log) in zip(axes[0], metrics):
        ax.set_prop_cycle(color=colors)
        # Engineering units from the column's own: latencies in s, rates in b/s.
        scale, formatter = {"us": (1e-6, style.seconds), "gbps": (1e9, style.bits_per_second)}.get(
            column.rsplit("_", 1)[-1], (1, None))
        for key, runs in by_series.items():
            points = [(r[x], r[column] * scale, overloaded(r)) for r in runs if r[column] is not None]
            if not points:
                continue
            line, = ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=3,
                            label=series_label(key, lengths))
            over = [p for p in points if p[2]]
            if over:
                any_overloaded = True
                ax.plot([p[0] for p in over], [p[1] for p in over], linestyle="none", marker="o", markersize=7,
                        markerfacecolor="none", markeredgecolor=line.get_color())
        for ref_column, ref_label in references:
            if ref_column == column:
                xs = sorted({r[x] for runs in by_series.values() for r in runs})
                ax.plot(xs, [v * scale for v in xs], color="0.5", linewidth=0.8, linestyle=":", label=ref_label)
        if log and formatter is style.seconds:  # latencies are never 0: a plain log axis
            style.log_seconds(ax)
        elif log:
            _ratio_axis(ax, [r[column] for runs in by_series.values() for r in runs if r[column] is not None])
        else:
            ax.set_ylim(bottom=0)
            if formatter:
                formatter(ax.yaxis)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    if any_overloaded:
        handles.append(plt.Line2D([], [], linestyle="none", marker="o", markersize=7, markerfacecolor="none",
                                  markeredgecolor="0.3"))
        labels.append(f"overloaded: delivered < {DELIVERED_SHARE_OF_STEADY:.0%} of offered "
                      "(its latency grows with the run)")
    if handles:
        fig.legend(handles, labels, loc="lower center", ncol=columns, fontsize=7, frameon=False)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout(rect=(0, legend_inches / (4.6 + legend_inches), 1, 0.97))
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _ratio_axis(ax, values):
    """Counts per packet that may be 0 and span decades (retracts): linear
    below the smallest positive value, log above, ticks as plain numbers."""
    from matplotlib.ticker import FuncFormatter, SymmetricalLogLocator
    positive = [v for v in values if v > 0]
    if not positive or max(positive) / min(positive) < 10:
        ax.set_ylim(bottom=0)
        return
    threshold = 10 ** math.floor(math.log10(min(positive)))
    ax.set_yscale("symlog", linthresh=threshold, linscale=0.5)
    ax.yaxis.set_major_locator(SymmetricalLogLocator(base=10, linthresh=threshold))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_ylim(bottom=0)


def plot_against_load(rows, path, metrics, title, references=()):
    plot_series(load_series(rows), "offered_gbps", "offered load, aggregate payload (Gb/s)", path, metrics, title,
                references)


def plot_throughput(rows, path):
    plot_against_load(rows, path, [("throughput_gbps", "throughput (payload)", False)],
                      "E14: throughput against offered load", [("throughput_gbps", "delivered = offered")])


def plot_tickets(rows, path):
    plot_against_load(rows, path, [("tickets_per_packet", "tickets per packet multicast", False),
                                   ("retracts_per_packet", "retracts per packet multicast", True)],
                      "E14: tickets and retracts per packet against offered load")


def plot_latency(rows, path):
    plot_against_load(rows, path, [("reservation_us", "reservation latency, mean", True),
                                   ("queueing_us", "queueing latency, mean", True)],
                      "E14: latency against offered load")


def plot_q(rows, path):
    plot_series(q_series(rows), "q", "fixed SPQ limit q", path, [("throughput_gbps", "throughput (payload)", False)],
                "E14: throughput against a fixed limit q (at a base load, steady or with a load schedule)")


def timeseries_runs(rows, most=4):
    """Up to `most` runs whose pattern changes over time, else whose load does."""
    by_pattern = [r["run_id"] for r in rows if "pattern" in r["schedule"]]
    by_load = [r["run_id"] for r in rows if r["schedule"] == "load"]
    return (by_pattern + by_load)[:most]


def plot_timeseries(conn, rows, path):
    plt = _pyplot()
    runs = timeseries_runs(rows)
    label = {r["run_id"]: series_label(series_key(r)) for r in rows}
    columns, data = run_query(conn, "ring_timeseries")
    points = [dict(zip(columns, d)) for d in data if d[0] in runs]
    legend_inches = 0.3 + 0.17 * len(runs)
    fig, axes = plt.subplots(3, 1, figsize=(11, 8 + legend_inches), sharex=True)
    for run in runs:
        mine = [p for p in points if p["run_id"] == run]
        if not mine:
            continue
        t = [p["t_us"] / 1000 for p in mine]
        name = f"run {run}: {label.get(run, '')}"
        axes[0].plot(t, [p["q_mean"] for p in mine], label=name)
        axes[1].plot(t, [p["spq_mean"] for p in mine], label=name)
        axes[2].plot(t, [p["throughput_gbps"] for p in mine], label=name)
    for ax, y in zip(axes, ("limit q, mean over senders", "SPQ length, mean", "throughput (Gb/s)")):
        ax.set_ylabel(y)
        ax.grid(alpha=0.3)
    axes[2].set_xlabel("time (ms)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=1, fontsize=7, frameon=False)
    fig.suptitle("E14: the SPQ limit, the SPQ and throughput over time (runs with a load or pattern schedule)",
                 fontsize=11)
    fig.tight_layout(rect=(0, legend_inches / (8 + legend_inches), 1, 0.97))
    fig.savefig(path, dpi=90)
    plt.close(fig)


# (name, draw, whether the rows have what it draws, caption, what it needs)
LOAD_NEEDS = "a series (rings, groups, pattern, mechanisms) run at 3 or more steady offered loads"
PLOTS = (("throughput", plot_throughput, load_series, "throughput against offered load", LOAD_NEEDS),
         ("tickets", plot_tickets, load_series, "tickets and retracts per packet against offered load", LOAD_NEEDS),
         ("latency", plot_latency, load_series, "latency against offered load", LOAD_NEEDS),
         ("q", plot_q, q_series, "throughput against a fixed q", "runs of 3 or more fixed limits q at one load"))


def section(conn, out_dir):
    """fabric-report's section for a file with ring runs, or None."""
    rows = collect(conn)
    if not rows:
        return None
    text = "## QuickRing rings (E14): throughput, tickets and latency\n\n"
    text += "Every ring run of the file, as `db/queries/ring_throughput.sql`. " + build_table(rows) + "\n"
    missing = {}
    for name, draw, has, caption, needs in PLOTS:
        if has(rows):
            draw(rows, os.path.join(out_dir, f"ring_{name}.png"))
            text += f"![{caption}](ring_{name}.png)\n\n"
        elif name != "q" or any((r["mechanisms"] or "").startswith("q=") for r in rows):
            missing.setdefault(needs, []).append(caption)
    for needs, captions in missing.items():
        text += f"No figure of {', '.join(captions)}: it needs {needs}.\n\n"
    if timeseries_runs(rows):
        plot_timeseries(conn, rows, os.path.join(out_dir, "ring_timeseries.png"))
        text += "![the limit q, the SPQ and throughput over time](ring_timeseries.png)\n"
    return text


def print_table(args):
    plots = []
    if args.plot:
        from analysis.rundb import open_database
        plots = [(f"{args.plot}-{name}.png", draw, lambda rows, has=has, needs=needs: None if has(rows) else
                  f"it needs {needs}") for name, draw, has, _, needs in PLOTS]
        plots.append((f"{args.plot}-timeseries.png",
                      lambda rows, path: plot_timeseries(open_database(args.db), rows, path),
                      lambda rows: None if timeseries_runs(rows) else "it needs a run with a load or pattern schedule"))
    return table_tool.table_with_plots("ring-table", args.db, plots, collect, build_table,
                                 empty=f"'{args.db}' holds no ring run that is done (platform = ring)")


def main(argv=None):
    p = tool.Parser(prog="ring-table", description=__doc__.split("\n\n")[0])
    p.add_argument("db")
    p.add_argument("--plot", metavar="PREFIX",
                   help="also write PREFIX-throughput.png, PREFIX-tickets.png, PREFIX-latency.png, PREFIX-q.png "
                        "and PREFIX-timeseries.png")
    return tool.run("ring-table", lambda: print_table(p.parse_args(argv)))
