"""The report's figures, one PNG each, drawn with matplotlib (Agg).
Every function takes ready numbers; nothing here reads the database."""
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402

from report.labels import key_parameters, run_title  # noqa: E402

# Above this many lines a legend is unreadable: draw them faintly, plus summary lines.
MAX_LABELLED_LINES = 16
# Above this many windows, matplotlib's search for the legend's best place is slow.
MAX_WINDOWS_LEGEND_BEST = 5000


def _titles(fig, title, subtitle, panels):
    fig.suptitle(title, fontsize=11, y=0.985)
    fig.text(0.5, 0.935, "\n".join(textwrap.wrap(subtitle, 105 * panels)), ha="center", va="top", fontsize=7.5,
             color="0.3")


def _figure(run, what, panels=1):
    fig, axes = plt.subplots(1, panels, figsize=(6.4 * panels, 4.6), squeeze=False)
    _titles(fig, run_title(run, what), key_parameters(run), panels)
    return fig, list(axes[0])


def _save(fig, path):
    fig.tight_layout(rect=(0, 0, 1, 0.89))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _edges(times_us, window_ps):
    """Window edges (us) for per-window counts drawn as filled steps (one
    path however many windows, where bars would be a patch each)."""
    return np.r_[times_us, times_us[-1] + window_ps / 1e6] if len(times_us) else np.zeros(1)


def _legend(ax, windows, **kwargs):
    ax.legend(loc="best" if windows <= MAX_WINDOWS_LEGEND_BEST else "upper right", **kwargs)


def throughput_plot(run, window_ps, times_us, gbps_matrix, labels, path):
    fig, (ax,) = _figure(run, f"receive throughput per subflow ({window_ps / 1e6:g} us windows)")
    if len(labels) <= MAX_LABELLED_LINES:
        for row, label in zip(gbps_matrix, labels):
            ax.plot(times_us, row, label=label, linewidth=1.2)
    else:
        segments = [np.column_stack((times_us, row)) for row in gbps_matrix]
        ax.add_collection(LineCollection(segments, colors="0.6", linewidths=0.4, alpha=0.35,
                                         label=f"each of {len(labels)} subflows"))
        ax.plot(times_us, gbps_matrix.mean(axis=0), color="C0", linewidth=1.6, label="mean of subflows")
        ax.plot(times_us, gbps_matrix.min(axis=0), color="C3", linewidth=1.0, label="lowest subflow")
        ax.autoscale()
    ax.set_xlabel("simulated time (us, window start)")
    ax.set_ylabel("receive throughput (Gb/s, frame bytes)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower right", ncol=2 if len(labels) > 8 else 1)
    _save(fig, path)


def latency_cdf_plot(run, by_flow, by_level, path):
    """by_flow / by_level: lists of (label, latencies ns, cumulative fraction,
    stats); by_level None on a platform without surrogate levels."""
    panels = [(by_flow, "per flow")] + ([(by_level, "per surrogate level")] if by_level is not None else [])
    fig, axes = _figure(run, "latency distribution (creation at the source to delivery)", panels=len(panels))
    for ax, (curves, what) in zip(axes, panels):
        for label, x, y, stats in curves:
            ax.step(x, y, where="post", linewidth=1.1,
                    label=f"{label}: p50 {stats['p50']:.0f}, p99 {stats['p99']:.0f}, p99.9 {stats['p99.9']:.0f} ns")
        ax.set_title(what, fontsize=9)
        ax.set_xlabel("latency (ns)")
        ax.set_ylabel("fraction of delivered copies")
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6.5, loc="upper left")
    _save(fig, path)


def drops_plot(run, window_ps, times_us, counts_by_reason, path):
    fig, (ax,) = _figure(run, f"drops by reason ({window_ps / 1e6:g} us windows)")
    bottom = np.zeros(len(times_us))
    for i, (reason, counts) in enumerate(sorted(counts_by_reason.items())):
        ax.stairs(bottom + counts, _edges(times_us, window_ps), baseline=bottom.copy(), fill=True, color=f"C{i}",
                  label=f"{reason} ({int(counts.sum())})")
        bottom += counts
    ax.set_xlabel("simulated time (us)")
    ax.set_ylabel("frames or copies dropped per window")
    ax.grid(alpha=0.3)
    _legend(ax, len(times_us), fontsize=7)
    _save(fig, path)


def pause_plot(run, window_ps, times_us, stopped, pause_counts, path):
    fig, (ax,) = _figure(run, f"PAUSE activity ({window_ps / 1e6:g} us windows)")
    ax.plot(times_us, stopped, color="C0", label="stopped (port, priority) pairs, mean")
    ax.stairs(pause_counts, _edges(times_us, window_ps), fill=True, color="C1", alpha=0.5, label="STOPs sent")
    _legend(ax, len(times_us), fontsize=7)
    ax.set_xlabel("simulated time (us)")
    ax.set_ylabel("count")
    ax.grid(alpha=0.3)
    _save(fig, path)


def cnm_plot(run, window_ps, times_us, cnm_counts, path):
    fig, (ax,) = _figure(run, f"QCN congestion notifications ({window_ps / 1e6:g} us windows)")
    ax.stairs(cnm_counts, _edges(times_us, window_ps), fill=True, color="C2", label="CNMs sent")
    _legend(ax, len(times_us), fontsize=7)
    ax.set_xlabel("simulated time (us)")
    ax.set_ylabel("CNMs per window")
    ax.grid(alpha=0.3)
    _save(fig, path)


def occupancy_plot(run, series, path):
    """series: list of (metric, unit, times_us, mean, maximum, busiest: [(entity, values)])."""
    fig, axes = _figure(run, "queue and cache occupancy (sampled)", panels=len(series))
    for ax, (metric, unit, times_us, mean, maximum, busiest) in zip(axes, series):
        ax.plot(times_us, maximum, color="C3", linewidth=1.2, label="maximum over entities")
        ax.plot(times_us, mean, color="C0", linewidth=1.2, label="mean over entities")
        for entity, values in busiest:
            ax.plot(times_us, values, linewidth=0.7, alpha=0.7, label=entity)
        ax.set_title(metric, fontsize=9)
        ax.set_xlabel("simulated time (us)")
        ax.set_ylabel(f"{metric} ({unit})")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6.5)
    _save(fig, path)


def fairness_plot(run, window_ps, times_us, jain, subflows, path):
    fig, (ax,) = _figure(run, f"Jain's fairness index of {subflows} subflows ({window_ps / 1e6:g} us windows)")
    ax.plot(times_us, jain, marker=".", markersize=3, linewidth=1.0)
    ax.axhline(1.0, color="0.5", linewidth=0.6, linestyle=":")
    if subflows > 0:
        ax.axhline(1.0 / subflows, color="0.5", linewidth=0.6, linestyle=":")
    ax.set_xlabel("simulated time (us, window start)")
    ax.set_ylabel("Jain's index (1 = equal shares)")
    ax.set_ylim(0, 1.05)
    ax.grid(alpha=0.3)
    _save(fig, path)


def compare_plot(title, subtitle, key, series, metrics, path, categorical=False):
    """series: {label: [(x, {metric: value})]}; metrics: [(metric, axis label)]."""
    fig, axes = plt.subplots(1, len(metrics), figsize=(5.2 * len(metrics), 4.6), squeeze=False)
    _titles(fig, title, subtitle, len(metrics))
    for ax, (metric, axis_label) in zip(axes[0], metrics):
        for label, points in sorted(series.items()):
            points = [(x, v[metric]) for x, v in points if v.get(metric) is not None]
            if not points:
                continue
            xs, ys = zip(*points)
            ax.plot(range(len(xs)) if categorical else xs, ys, marker="o", markersize=4, label=label)
            if categorical:
                ax.set_xticks(range(len(xs)), [str(x) for x in xs])
        ax.set_xlabel(key)
        ax.set_ylabel(axis_label)
        ax.grid(alpha=0.3)
        if len(series) > 1:
            ax.legend(fontsize=7)
    _save(fig, path)
