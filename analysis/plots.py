"""The report's figures, one PNG each, in the figures' one style
(style.py). Every function takes ready numbers; nothing here reads the
database. Times arrive in microseconds, latencies in nanoseconds and rates
in Gb/s, and are drawn in engineering units (1.5 µs, 25 Gb/s)."""
import re
import textwrap

import numpy as np
from matplotlib.ticker import EngFormatter, MaxNLocator, NullFormatter

from analysis.labels import duration, key_parameters, run_title
from fabricpy.style import bits_per_second, bytes_, log2_axis, marker_for, powers_of_two, pyplot, seconds

plt = pyplot()
# Above this many lines a legend is unreadable: draw them faintly, plus summary lines.
MAX_LABELLED_LINES = 16
# Above this many windows, matplotlib's search for the legend's best place is slow.
MAX_WINDOWS_LEGEND_BEST = 5000
US, NS, GBPS = 1e-6, 1e-9, 1e9


def _titles(fig, title, subtitle, columns):
    fig.suptitle(title, fontsize=11, y=0.985)
    fig.text(0.5, 0.935, "\n".join(textwrap.wrap(subtitle, 105 * columns)), ha="center", va="top", fontsize=7.5,
             color="0.3")


def _figure(run, what, panels=1):
    fig, axes = plt.subplots(1, panels, figsize=(6.4 * panels, 4.6), squeeze=False)
    _titles(fig, run_title(run, what), key_parameters(run), panels)
    return fig, list(axes[0])


def _save(fig, path, top=0.89):
    fig.tight_layout(rect=(0, 0, 1, top))
    fig.savefig(path)
    plt.close(fig)


def _time_axis(ax, label="simulated time"):
    ax.set_xlabel(label)
    seconds(ax.xaxis)


def _edges(times_us, window_ps):
    """Window edges (s) for per-window counts drawn as filled steps (one
    path however many windows, where bars would be a patch each)."""
    return (np.r_[times_us, times_us[-1] + window_ps / 1e6] if len(times_us) else np.zeros(1)) * US


def _legend(ax, windows, **kwargs):
    ax.legend(loc="best" if windows <= MAX_WINDOWS_LEGEND_BEST else "upper right", **kwargs)


def _window(window_ps):
    return f"{duration(window_ps)} windows"


def throughput_plot(run, window_ps, times_us, gbps_matrix, labels, path, line_gbps=None, mean_gbps=None,
                    unit="frame"):
    """Per subflow; `line_gbps` draws the ports' line rate for reference.
    Up to MAX_LABELLED_LINES subflows a line each; more become their mean,
    lowest and highest over time beside the distribution of their mean
    rates (`mean_gbps`: (rates, the span they cover or None for the run))."""
    many = len(labels) > MAX_LABELLED_LINES
    fig, axes = _figure(run, f"receive throughput per subflow ({_window(window_ps)})", panels=2 if many else 1)
    ax = axes[0]
    t = times_us * US
    marker = marker_for(len(times_us))
    if not many:
        for row, label in zip(gbps_matrix, labels):
            ax.plot(t, row * GBPS, label=label, marker=marker)
    else:
        ax.set_title(f"{len(labels)} subflows over time", fontsize=9)
        ax.plot(t, gbps_matrix.max(axis=0) * GBPS, color="C2", linewidth=1.0, label="highest subflow", marker=marker)
        ax.plot(t, gbps_matrix.mean(axis=0) * GBPS, color="C0", linewidth=1.6, label="mean of subflows", marker=marker)
        ax.plot(t, gbps_matrix.min(axis=0) * GBPS, color="C3", linewidth=1.0, label="lowest subflow", marker=marker)
    if line_gbps:
        ax.axhline(line_gbps * GBPS, color="0.4", linewidth=0.8, linestyle="--", label=f"line rate {line_gbps:g} Gb/s")
    _time_axis(ax, "simulated time (window start)")
    ax.set_ylabel(f"receive throughput ({unit} bytes)")
    bits_per_second(ax.yaxis)
    _headroom(ax, len(labels) if not many else 4)
    ax.legend(loc="upper left", ncol=2 if len(labels) > 8 and not many else 1, fontsize=7)
    if many:
        _rate_distribution(axes[1], *mean_gbps, line_gbps, unit)
    _save(fig, path)


def _headroom(ax, legend_entries):
    """y from 0, with room above the data for a legend of so many entries at the top."""
    low, high = ax.get_ylim()
    ax.set_ylim(0, max(high, 1e-12) * (1.12 + 0.06 * min(legend_entries + 1, 10)))


def _rate_distribution(ax, rates_gbps, span, line_gbps, unit):
    """The CDF of the subflows' mean rates, lowest, median and highest named."""
    values = np.sort(np.asarray(rates_gbps, dtype=float))
    n = len(values)
    ax.step(values * GBPS, np.arange(1, n + 1) / n, where="post", color="C0")
    rate = EngFormatter(unit="b/s", sep=" ", places=1)
    for value, name in ((values[0], "lowest"), (values[(n - 1) // 2], "median"), (values[-1], "highest")):
        ax.axvline(value * GBPS, color="0.55", linewidth=0.7, linestyle=":")
        ax.annotate(f"{name} {rate(value * GBPS)}", (value * GBPS, 0.02 if name != "median" else 0.5),
                    xytext=(3, 0), textcoords="offset points", fontsize=7, color="0.3", rotation=90, va="bottom")
    if line_gbps:
        ax.axvline(line_gbps * GBPS, color="0.4", linewidth=0.8, linestyle="--")
    ax.set_title(f"mean rate of each of {n} subflows ({span or 'the whole run'})", fontsize=9)
    ax.set_xlabel(f"mean receive throughput ({unit} bytes)")
    bits_per_second(ax.xaxis)
    ax.set_xlim(0, max(line_gbps or 0, values[-1]) * 1.05 * GBPS or None)
    ax.set_ylabel("fraction of subflows at or below")
    ax.set_ylim(0, 1.02)


def _percentile_lines(ax, n):
    """p99 and p99.9 as the fractions 1e-2 and 1e-3 of a CCDF, where n copies reach them."""
    for fraction, name in ((1e-2, "p99"), (1e-3, "p99.9")):
        if n * fraction >= 1:
            ax.axhline(fraction, color="0.45", linewidth=0.7, linestyle=":")
            ax.annotate(name, (1.0, fraction), xycoords=("axes fraction", "data"), xytext=(-2, 2),
                        textcoords="offset points", ha="right", fontsize=7, color="0.35")


# Below this many deliveries per curve a CCDF says little: each delivery is drawn.
MIN_CCDF_POINTS = 10


def latency_ccdf_plot(run, by_flow, by_level, path):
    """by_flow / by_level: lists of (label, latencies ns, fraction at or
    above, stats); by_level None on a platform without surrogate levels.
    A CCDF on a log axis: the tail (p99, p99.9) is where a design differs.
    A panel whose curves have fewer than MIN_CCDF_POINTS deliveries each
    shows every delivery on a row of its own instead."""
    panels = [(by_flow, "per flow")] + ([(by_level, "per surrogate level")] if by_level is not None else [])
    few = [all(stats["n"] < MIN_CCDF_POINTS for _, _, _, stats in curves) for curves, _ in panels]
    fig, axes = _figure(run, "latency of each delivered copy" if all(few) else
                        "latency: fraction of delivered copies at or above a latency", panels=len(panels))
    for ax, (curves, what), strip in zip(axes, panels, few):
        ax.set_title(what)
        ax.set_xlabel("latency")
        if strip:
            _latency_strip(ax, curves)
            continue
        most = 0
        for label, x, y, stats in curves:
            ax.step(x * NS, y, where="post", marker=marker_for(len(x)),
                    label=f"{label}: p50 {stats['p50']:.0f}, p99 {stats['p99']:.0f}, p99.9 {stats['p99.9']:.0f} ns")
            most = max(most, stats["n"])
        ax.set_yscale("log")
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_ylim(top=1.3, bottom=min(0.1, 0.5 / max(most, 1)))
        _percentile_lines(ax, most)
        seconds(ax.xaxis)
        ax.set_ylabel("fraction of copies at or above")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize=7, frameon=False)
    _save(fig, path)


def _latency_strip(ax, curves):
    """Each delivery's latency, a row per curve: few deliveries, no distribution."""
    for row, (label, x, _, stats) in enumerate(curves):
        ax.plot(x * NS, [row] * len(x), linestyle="none", marker="o", color=f"C{row % 10}")
    ax.set_yticks(range(len(curves)), [f"{label} ({stats['n']})" for label, _, _, stats in curves])
    ax.set_ylim(-0.6, len(curves) - 0.4)
    ax.invert_yaxis()
    ax.set_xlim(left=0)
    seconds(ax.xaxis)
    ax.set_ylabel("(deliveries)")


def drops_plot(run, window_ps, times_us, counts_by_reason, path, unit="frame"):
    fig, (ax,) = _figure(run, f"drops by reason ({_window(window_ps)})")
    bottom = np.zeros(len(times_us))
    for i, (reason, counts) in enumerate(sorted(counts_by_reason.items())):
        ax.stairs(bottom + counts, _edges(times_us, window_ps), baseline=bottom.copy(), fill=True, color=f"C{i}",
                  label=f"{reason} ({int(counts.sum())})")
        bottom += counts
    _time_axis(ax)
    ax.set_ylabel(f"{unit}s or copies dropped per window")
    _legend(ax, len(times_us))
    _save(fig, path)


def pause_plot(run, window_ps, times_us, stopped, pause_counts, path):
    fig, (ax,) = _figure(run, f"PAUSE activity ({_window(window_ps)})")
    ax.plot(times_us * US, stopped, color="C0", label="stopped (port, priority) pairs, mean",
            marker=marker_for(len(times_us)))
    ax.stairs(pause_counts, _edges(times_us, window_ps), fill=True, color="C1", alpha=0.5, label="STOPs sent")
    _legend(ax, len(times_us))
    _time_axis(ax)
    ax.set_ylabel("count")
    _save(fig, path)


def cnm_plot(run, window_ps, times_us, cnm_counts, path):
    fig, (ax,) = _figure(run, f"QCN congestion notifications ({_window(window_ps)})")
    ax.stairs(cnm_counts, _edges(times_us, window_ps), fill=True, color="C2", label="CNMs sent")
    _legend(ax, len(times_us))
    _time_axis(ax)
    ax.set_ylabel("CNMs per window")
    _save(fig, path)


def occupancy_plot(run, series, path):
    """series: list of (metric, title, unit, times_us, mean, maximum, busiest: [(entity, values)], limit: None or
    (metric, times_us, values), a limit drawn dashed where it is set, 0 meaning none)."""
    fig, axes = _figure(run, "queue occupancy (sampled)", panels=len(series))
    for ax, (metric, title, unit, times_us, mean, maximum, busiest, limit) in zip(axes, series):
        t, marker = times_us * US, marker_for(len(times_us))
        if len(busiest) > 1:
            entries = 2 + len(busiest) + (limit is not None)
            ax.plot(t, maximum, color="C3", label="maximum over entities", marker=marker)
            ax.plot(t, mean, color="C0", label="mean over entities", marker=marker)
            for entity, values in busiest:
                ax.plot(t, values, linewidth=0.7, alpha=0.7, label=entity)
        else:  # one entity: its own line (mean and maximum are it)
            entries = 1 + (limit is not None)
            ax.plot(t, busiest[0][1], color="C0", label=busiest[0][0], marker=marker)
        if limit is not None:
            name, limit_t, values = limit
            ax.plot(limit_t * US, np.where(values > 0, values, np.nan), color="0.35", linestyle="--", linewidth=0.9,
                    label=f"{name}, the limit (unset where 0)")
        ax.set_title(f"{title.split(', ')[0]} ({metric})", fontsize=9)
        _time_axis(ax)
        ax.set_ylabel(unit if unit != "B" else "bytes")
        if unit == "B":
            bytes_(ax.yaxis)
        _headroom(ax, entries)
        ax.legend(loc="upper left", fontsize=6.5)
    _save(fig, path)


def fairness_plot(run, window_ps, times_us, jain, subflows, path):
    fig, (ax,) = _figure(run, f"Jain's fairness index of {subflows} subflows ({_window(window_ps)})")
    ax.plot(times_us * US, jain, marker=marker_for(len(times_us)) or ".", markersize=3, linewidth=1.0)
    ax.axhline(1.0, color="0.5", linewidth=0.6, linestyle=":")
    if subflows > 0:
        ax.axhline(1.0 / subflows, color="0.5", linewidth=0.6, linestyle=":")
    _time_axis(ax, "simulated time (window start)")
    ax.set_ylabel("Jain's index (1 = equal shares)")
    ax.set_ylim(0, 1.05)
    _save(fig, path)


# How compare_plot draws each metric: scale to SI, the axis' formatter.
COMPARE_UNITS = {"gbps": (GBPS, bits_per_second), "ns": (NS, seconds)}


def compare_plot(title, subtitle, key, series, metrics, path, categorical=False, key_label=None, references=()):
    """series: {label: [(x, {metric: value})]}; metrics: [(metric, axis
    label)], drawn two panels to a row; `key_label` labels the x axis (the
    key's description); references: [(metric, value, label)] drawn as
    dashed lines (a line rate, the offered load)."""
    columns = min(2, len(metrics))
    rows = (len(metrics) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(5.6 * columns, 3.9 * rows + 0.7), squeeze=False)
    _titles(fig, title, subtitle, columns)
    xs_all = [x for points in series.values() for x, _ in points]
    log2 = not categorical and powers_of_two(xs_all)
    for ax, (metric, axis_label) in zip(axes.flat, metrics):
        scale, formatter = COMPARE_UNITS.get(metric.rsplit("_", 1)[-1], (1, None))
        for label, points in sorted(series.items()):
            points = [(x, v[metric]) for x, v in points if v.get(metric) is not None]
            if not points:
                continue
            xs, ys = zip(*points)
            ax.plot(range(len(xs)) if categorical else xs, [y * scale for y in ys], marker="o", label=label)
            if categorical:
                ax.set_xticks(range(len(xs)), [str(x) for x in xs])
        for ref_metric, value, ref_label in references:
            if ref_metric != metric:
                continue
            if value is None and not categorical:  # y = x: the key is the quantity drawn (an offered load)
                xs = sorted({x for points in series.values() for x, _ in points if x is not None})
                ax.plot(xs, [x * scale for x in xs], color="0.55", linewidth=0.8, linestyle=":", label=ref_label)
            elif value is not None:
                ax.axhline(value * scale, color="0.4", linewidth=0.8, linestyle="--", label=ref_label)
        _compare_axes(ax, key, key_label, axis_label, log2, formatter)
        if formatter is bits_per_second:  # rates from 0: one scale for every rate panel
            ax.set_ylim(bottom=0)
        if len(series) > 1 or references:
            ax.legend()
    for ax in list(axes.flat)[len(metrics):]:
        ax.set_visible(False)
    _save(fig, path, top=1 - 0.75 / (3.9 * rows + 0.7))


def _compare_axes(ax, key, key_label, axis_label, log2, formatter):
    """The axes of a comparison panel: the key (its description) on x, log2
    for a power-of-two sweep, the metric in its unit on y."""
    if log2:
        log2_axis(ax.xaxis, ax)
    if formatter:
        formatter(ax.yaxis)
    ax.set_xlabel("\n".join(textwrap.wrap(key_label or key, 60)))
    ax.set_ylabel(axis_label)


def levels_plot(title, subtitle, key, panels, path, categorical=False, key_label=None):
    """panels: {series label: {surrogate levels: [(x, mean latency ns)]}}: a
    panel per series (two to a row), a line per number of levels passed,
    coloured from the source's leaf (0) to the deepest."""
    columns = min(2, len(panels))
    rows = (len(panels) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(5.6 * columns, 3.9 * rows + 0.7), squeeze=False)
    _titles(fig, title, subtitle, columns)
    xs_all = [x for levels in panels.values() for points in levels.values() for x, _ in points]
    log2 = not categorical and powers_of_two(xs_all)
    deepest = max((lvl for levels in panels.values() for lvl in levels), default=0)
    colours = plt.get_cmap("viridis")
    def natural(item):  # flow.b.frame_size=512 before =1522
        return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", item[0])]
    for ax, (label, levels) in zip(axes.flat, sorted(panels.items(), key=natural)):
        for lvl, points in sorted(levels.items()):
            xs, ys = zip(*sorted(points, key=lambda p: p[0]))
            ax.plot(range(len(xs)) if categorical else xs, [y * NS for y in ys], marker="o",
                    color=colours(lvl / max(deepest, 1) * 0.9), label=f"{lvl} level{'s' if lvl != 1 else ''}")
            if categorical:
                ax.set_xticks(range(len(xs)), [str(x) for x in xs])
        ax.set_title(label, fontsize=9)
        _compare_axes(ax, key, key_label, "mean latency", log2, seconds)
        ax.legend(title="surrogate levels passed", fontsize=7, title_fontsize=7, loc="upper left",
                  bbox_to_anchor=(1.01, 1.0), frameon=False)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    _save(fig, path, top=1 - 0.75 / (3.9 * rows + 0.7))


def job_steps_plot(run, lines, path):
    """lines: [(job label, steps, durations in us)], a line per job; steps
    that did not complete are left out by the caller."""
    fig, (ax,) = _figure(run, "duration of each step of its closed-loop jobs")
    for label, steps, durations_us in lines:
        ax.plot(steps, np.asarray(durations_us) * US, marker=marker_for(len(steps)), label=label)
    ax.set_xlabel("step (the algorithm's, counted over iterations)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("step duration (first start to last end)")
    seconds(ax.yaxis)
    highest = max((max(d) for _, _, d in lines if len(d)), default=0) * US
    ax.set_ylim(0, highest * 1.1 or None)  # room above the highest point's marker
    ax.legend(loc="best")
    _save(fig, path)
