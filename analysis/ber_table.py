"""ber-table DB [--links leaf_spine|cna_leaf] [--plot PNG]: the soft-error
sweep (scripts/sweep BER) as a Markdown table, one row per bit error rate on
one link class, one column per recovery setting, and a plot of both against
the bit error rate.

Leaf-spine (and spine-leaf) links: link retry on; off with the leaves'
end-to-end retransmission after each timeout swept. CNA-leaf links: the
CNAs' end-to-end transport on or off.

A cell is the mean receive rate per destination port after the warm-up
(frame bytes, Gb/s), the 99th percentile of frame latency over the whole
run (us), and what recovery cost: messages replayed by link retry, copies
or frames retransmitted end to end, and frames dropped on a link and not
delivered by the end of the run (lost for good, or still being recovered).
With several runs of a point (seeds), rate and p99 are their mean with its
95 % interval, the costs the mean per run, and N says how many runs."""
import numpy as np

from analysis import table_tool
from fabricpy import tool
from fabricpy.confidence import mean_sd, values_text
from fabricpy.markdown import table
from fabricpy.rates import gbps, warmup_ps
from analysis.rundb import run_ids, _config_dict


def setting(config, links):
    if links == "cna_leaf":
        on = config.get("cna.e2e.retransmit", "false") == "true"
        return "CNA transport on" if on else "CNA transport off"
    if config.get("link.retry", "true") == "true":
        return "link retry on"
    return f"retry off, e2e timeout {config.get('leaf.e2e.timeout', '1ms')}"


def run_point(conn, run_id, sim_time_ps):
    """Mean port rate after the warm-up (Gb/s), p99 latency (us), replays, retransmissions, frames lost."""
    start = warmup_ps(sim_time_ps)
    rates = [gbps(b, sim_time_ps - start) for (b,) in conn.execute(
        "SELECT sum(bytes) FROM deliveries WHERE run_id = ? AND t_delivered_ps >= ? GROUP BY dst_port",
        (run_id, start))]
    latencies = np.array([d for (d,) in conn.execute(
        "SELECT t_delivered_ps - t_created_ps FROM deliveries WHERE run_id = ?", (run_id,))], dtype=float)
    p99 = float(np.percentile(latencies, 99)) / 1e6 if latencies.size else float("nan")
    replays = conn.execute("SELECT coalesce(sum(value), 0) FROM totals WHERE run_id = ? AND metric = 'replays'",
                           (run_id,)).fetchone()[0]
    retransmissions = conn.execute("SELECT count(*) FROM events WHERE run_id = ? AND kind = 'retransmission'",
                                   (run_id,)).fetchone()[0]
    lost = conn.execute(
        "SELECT count(DISTINCT frame_id) FROM drops d WHERE run_id = ? AND reason = 'link' AND flow_id <> 4294967295 "
        "AND frame_id NOT IN (SELECT frame_id FROM deliveries WHERE run_id = ?)", (run_id, run_id)).fetchone()[0]
    rate = float(np.mean(rates)) if rates else float("nan")
    return rate, p99, int(replays), int(retransmissions), int(lost)


def collect(conn, links):
    table_tool.require_platform(conn, "fabric", "ber-table")
    points = {}
    for run_id in run_ids(conn):
        status, sim_time_ps, config_text = conn.execute(
            "SELECT status, sim_time_ps, config FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if status != "done":
            continue
        config = _config_dict(config_text)
        ber = float(config.get(f"errors.{links}.ber", "0"))
        points.setdefault((ber, setting(config, links)), []).append(run_point(conn, run_id, sim_time_ps))
    if not points:
        raise table_tool.no_finished_run(conn)
    return points


def mean_of(runs, i):
    return mean_sd([r[i] for r in runs])[0]


def build_table(points):
    bers = sorted({b for b, _ in points})
    settings = sorted({s for _, s in points})
    header = ["bit error rate"] + settings
    body = []
    for b in bers:
        line = [f"{b:g}"]
        for s in settings:
            if (b, s) not in points:
                line.append("-")
                continue
            runs = points[(b, s)]
            rate, p99 = values_text([r[0] for r in runs], 1), values_text([r[1] for r in runs], 2)
            replays, retx, lost = (round(mean_of(runs, i)) for i in (2, 3, 4))
            cost = f"{replays} replayed" if s == "link retry on" else f"{retx} retransmitted"
            if lost:
                cost += f", {lost} not recovered by the end"
            runs_note = f" (N {len(runs)})" if len(runs) > 1 else ""
            line.append(f"{rate} Gb/s, p99 {p99} us, {cost}{runs_note}")
        body.append(line)
    return table(header, body)


LINK_NAMES = {"leaf_spine": "leaf-spine and spine-leaf links", "cna_leaf": "CNA-leaf and leaf-CNA links"}


def plot(points, path, links):
    from fabricpy.style import pyplot
    plt = pyplot()
    bers = sorted({b for b, _ in points})
    # A log axis has no 0: the error-free point sits one decade below the lowest rate.
    positive = [b for b in bers if b > 0]
    zero_at = min(positive) / 10 if positive else 1e-10
    fig, (ax_rate, ax_p99) = plt.subplots(1, 2, figsize=(11, 4.2))
    for s in sorted({s for _, s in points}):
        xs = [b if b > 0 else zero_at for b in bers if (b, s) in points]
        runs = [points[(b, s)] for b in bers if (b, s) in points]
        ax_rate.plot(xs, [mean_of(r, 0) for r in runs], marker="o", label=s)
        ax_p99.plot(xs, [mean_of(r, 1) for r in runs], marker="o", label=s)
    for ax in (ax_rate, ax_p99):
        ax.set_xscale("log")
        ax.set_xticks([zero_at] + positive)
        ax.set_xticklabels(["0"] + [f"{b:g}" for b in positive])
        ax.minorticks_off()
        ax.set_xlabel(f"bit error rate on {LINK_NAMES[links]}")
        ax.grid(alpha=0.3)
    ax_p99.set_yscale("log")
    ax_rate.set_ylabel("mean receive rate per port (Gb/s)")
    ax_p99.set_ylabel("p99 frame latency (us)")
    ax_rate.legend(fontsize=8)
    fig.suptitle("Soft errors: 2-leaf full-load permutation, lossless priority", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def print_table(args):
    plots = [(args.plot, lambda points, path: plot(points, path, args.links))] if args.plot else []
    return table_tool.table_with_plots("ber-table", args.db, plots, lambda conn: collect(conn, args.links), build_table)


def main(argv=None):
    p = tool.Parser(prog="ber-table", description=__doc__.split("\n\n")[0])
    p.add_argument("db")
    p.add_argument("--links", choices=sorted(LINK_NAMES), default="leaf_spine",
                   help="the link class whose bit error rate was swept (default leaf_spine)")
    p.add_argument("--plot", metavar="PNG", help="also plot rate and p99 latency against the bit error rate")
    return tool.run("ber-table", lambda: print_table(p.parse_args(argv)))
