"""sweep-table DB --rows KEY --cols KEY [--where KEY=VALUE]: the receive rate per subflow of
every run of a sweep as a Markdown table, one row per value of one
configuration key and one column per value of another. With --occupancy
PNG, also a plot of the sampled cache occupancy of every run.

A cell is the mean over the run's subflows of the received frame bytes per
second after the warm-up (as fabric-report), then the lowest subflow, both
in Gb/s, and the share of the offered frame-byte rate the mean reaches.
When several runs fall in one cell (a sweep's `seeds`), the cell is the
mean over them with its 95 % interval, the lowest subflow of any of them,
and the number of runs."""
import numpy as np

from analysis import table_tool
from fabricpy import tool
from fabricpy.confidence import values_text
from fabricpy.markdown import table
from fabricpy.rates import frame_share, gbps, warmup_ps
from fabricpy.option_values import config_key, output_file
from fabricpy.errors import ReportError
from analysis.rundb import open_database, run_ids, _config_dict



def shown(value):
    """A list value (a multicast group) shows its size first."""
    parts = [p for p in value.split(",") if p.strip()]
    return f"fanout {len(parts)}: {value}" if len(parts) > 1 or "," in value else value


def sort_key(value):
    parts = [p for p in value.split(",") if p.strip()]
    try:
        return (0, len(parts), float(parts[0]) if len(parts) == 1 else 0)
    except ValueError:
        return (1, len(parts), value)


def offered_frame_gbps(config, flow):
    """The offered frame-byte rate of the sweep's flow; NaN if its rate or
    frame size is not one number (a size distribution)."""
    try:
        rate = float(config.get(f"flow.{flow}.rate_gbps", "nan").rstrip("Gbps") or "nan")
        size = float(config.get(f"flow.{flow}.frame_size", "nan"))
    except ValueError:
        return float("nan")
    return rate * frame_share(size)


def check_flow(flow, run_id, config):
    if f"flow.{flow}.rate_gbps" not in config:
        names = sorted({k.split(".")[1] for k in config if k.startswith("flow.") and k.endswith(".rate_gbps")})
        raise ReportError(f"--flow {flow}: run {run_id} has no flow '{flow}' (its flows: "
                          f"{', '.join(names) or 'none; with traffic.pattern, use --per-port'})")


def check_where(where, seen):
    """Why no run matched --where: a key no finished run has, or a value none has."""
    for key, value in where:
        values = sorted(v for v in seen[key] if v is not None)
        if not values:
            raise ReportError(f"--where {key}={value}: no finished run has the configuration key '{key}'")
        if value not in values:
            raise ReportError(f"--where {key}={value}: no finished run has {key} = {value} (they have "
                              f"{', '.join(values[:12])})")


def port_rates(conn, run_id, sim_time_ps, warmup):
    """Per destination port: mean and lowest receive rate (all flows), and
    the mean delay in microseconds, after the warm-up."""
    start = warmup_ps(sim_time_ps, warmup)
    rows = conn.execute("SELECT dst_port, sum(bytes), avg(t_delivered_ps - t_created_ps) FROM deliveries "
                        "WHERE run_id = ? AND t_delivered_ps >= ? GROUP BY dst_port", (run_id, start)).fetchall()
    if not rows:
        return float("nan"), float("nan"), float("nan")
    rates = np.array([gbps(b, sim_time_ps - start) for _, b, _ in rows])
    delay = sum(d for _, _, d in rows) / len(rows) / 1e6
    return rates.mean(), rates.min(), delay


def run_rates(conn, run_id, config, sim_time_ps, warmup, flow="f1"):
    start = warmup_ps(sim_time_ps, warmup)
    # One scan of the run's deliveries (deliveries has no index), then every
    # configured subflow, 0 for those that received nothing.
    received = dict(((f, d), b) for f, d, b in conn.execute(
        "SELECT flow_id, dst_port, sum(bytes) FROM deliveries WHERE run_id = ? AND t_delivered_ps >= ? "
        "GROUP BY flow_id, dst_port", (run_id, start)))
    subflows = conn.execute("SELECT flow_id, dst_port FROM flow_dests WHERE run_id = ?", (run_id,)).fetchall()
    rates = np.array([gbps(received.get(tuple(s), 0), sim_time_ps - start) for s in subflows] or [np.nan])
    return rates.mean(), rates.min(), offered_frame_gbps(config, flow)


def build_table(conn, rows_key, cols_key, where=(), warmup=None, flow="f1", per_port=False):
    cells, row_values, col_values = {}, set(), set()
    seen = {key: set() for key, _ in where}  # each --where key's values among the finished runs
    for run_id in run_ids(conn):
        status, sim_time_ps, config_text = conn.execute(
            "SELECT status, sim_time_ps, config FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        config = _config_dict(config_text)
        config_key("--rows", rows_key, run_id, config)
        config_key("--cols", cols_key, run_id, config)
        if status != "done":
            continue
        for key in seen:
            seen[key].add(config.get(key))
        if any(config.get(k) != v for k, v in where):
            continue
        if not per_port:
            check_flow(flow, run_id, config)
        r, c = config[rows_key], config[cols_key]
        row_values.add(r)
        col_values.add(c)
        cells.setdefault((r, c), []).append(port_rates(conn, run_id, sim_time_ps, warmup) if per_port
                                            else run_rates(conn, run_id, config, sim_time_ps, warmup, flow))
    if not cells:
        if any(seen.values()):
            check_where(where, seen)
        raise table_tool.no_finished_run(conn)
    cols = sorted(col_values, key=sort_key)
    header = [rows_key + " \\ " + cols_key] + [shown(c) for c in cols]
    body = []
    for r in sorted(row_values, key=sort_key):
        line = [shown(r)]
        for c in cols:
            if (r, c) not in cells:
                line.append("-")
                continue
            line.append(cell_text(cells[(r, c)], per_port))
        body.append(line)
    return table(header, body)


def cell_text(runs, per_port):
    """One run: its mean, lowest and delay or share; several (seeds): each
    the mean over the runs with its interval, the lowest of all, and N."""
    means, lows, thirds = (np.array(v, dtype=float) for v in zip(*runs))
    low = lows.min()
    if len(runs) == 1:
        mean, third = means[0], thirds[0]
        share = "-" if np.isnan(third) else f"{100 * mean / third:.0f}"
        return (f"{mean:.1f} (min {low:.1f}, delay {third:.1f} us)" if per_port
                else f"{mean:.1f} (min {low:.1f}, {share} %)")
    mean = float(np.mean(means))
    mean_shown = values_text(list(means), 1)
    if per_port:
        return f"{mean_shown} (min {low:.1f}, delay {values_text(list(thirds), 1)} us, {len(runs)} runs)"
    share = "-" if np.isnan(thirds[0]) else f"{100 * mean / thirds[0]:.0f}"
    return f"{mean_shown} (min {low:.1f}, {share} %, {len(runs)} runs)"


def occupancy_plot(conn, path, differing):
    from fabricpy import style
    plt = style.pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.5))
    capacity = 0
    for run_id in run_ids(conn):
        config = _config_dict(conn.execute("SELECT config FROM runs WHERE run_id = ?", (run_id,)).fetchone()[0])
        points = conn.execute("SELECT t_ps, value FROM v_samples WHERE run_id = ? AND metric = 'cache_entries' "
                              "AND entity = 'leaf0' ORDER BY t_ps", (run_id,)).fetchall()
        if not points:
            continue
        t, v = np.array(points, dtype=float).T
        label = ", ".join(f"{k}={config.get(k, '-')}" for k in differing)
        ax.plot(t / 1e12, v, label=f"run {run_id}: {label}", linewidth=0.8)
        capacity = max(capacity, int(config.get("leaf.cache.entries", 0)))
    ax.set_xlabel("simulated time")
    style.seconds(ax.xaxis)
    ax.set_ylabel("cache entries in use at leaf 0 (packets)")
    ax.set_ylim(0, capacity * 1.05 if capacity else None)
    ax.set_title("E2: multicast cache occupancy (sampled)", fontsize=11)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)


def print_table(args):
    if args.occupancy:
        output_file("--occupancy", args.occupancy)
    where = []
    for item in args.where:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ReportError(f"--where '{item}': expected KEY=VALUE")
        where.append((key.strip(), value.strip()))
    conn = open_database(args.db)
    print(build_table(conn, args.rows, args.cols, where, flow=args.flow, per_port=args.per_port))
    table_tool.note_unfinished_runs("sweep-table", conn)
    if args.occupancy:
        last_id, last_config = conn.execute("SELECT run_id, config FROM runs ORDER BY run_id DESC").fetchone()
        for key in args.label:
            config_key("--label", key, last_id, _config_dict(last_config))
        occupancy_plot(conn, args.occupancy, args.label or [args.rows, args.cols])
        print(f"\nwrote {args.occupancy}")
    return 0


def main(argv=None):
    p = tool.Parser(prog="sweep-table", description=__doc__.split("\n\n")[0])
    p.add_argument("db")
    p.add_argument("--rows", required=True, metavar="KEY")
    p.add_argument("--cols", required=True, metavar="KEY")
    p.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                   help="only runs with this configuration value (repeatable)")
    p.add_argument("--per-port", action="store_true",
                   help="cells per destination port over all flows, with the mean delay, instead of per subflow")
    p.add_argument("--flow", default="f1", metavar="NAME", help="the swept flow, for its offered rate (default f1)")
    p.add_argument("--occupancy", metavar="PNG", help="also plot cache occupancy of every run here")
    p.add_argument("--label", action="append", default=[], metavar="KEY",
                   help="keys naming each run in the occupancy plot (repeatable)")
    return tool.run("sweep-table", lambda: print_table(p.parse_args(argv)))
