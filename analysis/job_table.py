"""job-table DB [--where KEY=VALUE] [--plot PREFIX]: the closed-loop jobs of
a database (docs/jobs.md; scripts/sweep JOBS) as NCCL-tests' table: one row
per (collective, ranks, size), a column group per algorithm with the time
of one iteration (us), algbw and busbw (Gb/s), as the jobs table holds
them; with several seeds the mean with its 95 % interval, and a job that
did not finish said in words. With --plot, PREFIX-busbw.png (busbw against
size, NCCL-tests' picture, with the path's ceiling) and PREFIX-time.png
(time against size, log-log), a line per (collective, ranks, algorithm).

Runs of one (collective, ranks, size, algorithm) are repetitions when they
differ only in their seed; a key that differs between them otherwise (a
swept leaf.qcn.position, say) splits the row, and the row names it."""
import math

from analysis import table_tool
from fabricpy import tool
from fabricpy.confidence import half_width, mean_sd, values_text
from fabricpy.markdown import table
from fabricpy.option_values import did_you_mean, parse_rate_gbps
from fabricpy.errors import ReportError

# The path's ceiling of busbw: a CNA link carries 1500 B of payload in a
# frame of 1538 B on the wire (header, FCS, preamble and inter-frame gap).
FRAME_EFFICIENCY = 1500 / 1538
DEFAULT_LINE_GBPS = 100.0
# Keys that cannot tell two repetitions apart: the seed, how much is
# recorded, and what the cell already names.
_NOT_A_SETTING = ("sim.seed", "job.algorithm", "job.bytes", "job.collective")


def has_jobs_table(conn):
    return conn.execute("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'jobs'").fetchone()[0] > 0


def _run_params(conn, run_ids):
    """{run_id: {key: value}} of the runs' keys as they resolved them (not the derived ones)."""
    params = {run_id: {} for run_id in run_ids}
    for run_id, key, value, source in conn.execute("SELECT run_id, key, value, source FROM run_params"):
        if run_id in params and source != "derived":
            params[run_id][key] = value
    return params


def _matches(have, want):
    if have == want:
        return True
    try:  # '65536' for '64KB' is not guessed; numbers written two ways are (1 and 1.0)
        return have is not None and float(have) == float(want)
    except ValueError:
        return False


def _filter(jobs, params, where):
    """The jobs of runs whose keys have every --where value, or a ReportError saying why none has."""
    for key, value in where:
        seen = sorted({params[j["run_id"]].get(key) for j in jobs} - {None})
        if not seen:
            keys = {k for j in jobs for k in params[j["run_id"]]}
            raise ReportError(f"--where {key}={value}: no finished job run has the key '{key}'"
                              + did_you_mean(key, sorted(keys)))
        if not any(_matches(v, value) for v in seen):
            raise ReportError(f"--where {key}={value}: no finished job run has {key} = {value} (they have "
                              f"{', '.join(seen[:12])})")
        jobs = [j for j in jobs if _matches(params[j["run_id"]].get(key), value)]
    return jobs


def _settings(job, params):
    """The job's run's keys, its own job.NAME.* written job.*, without those that name the cell."""
    own = f"job.{job['name']}."
    keys = {}
    for key, value in params.items():
        if key.startswith("record."):
            continue
        if key.startswith("job.") and not key.startswith(own):
            other = key.split(".")[1]  # another tenant: named by its collective and algorithm, not its ranks
            keys["beside job " + other] = " ".join(
                params.get(f"job.{other}.{k}", "") for k in ("collective", "algorithm")).strip() or "yes"
            continue
        key = "job." + key[len(own):] if key.startswith(own) else key
        if key not in _NOT_A_SETTING:
            keys[key] = value
    return keys


def _setting_text(key, value):
    if key.startswith("beside job "):
        return "not " + key if value == "-" else f"{key} ({value})"
    return f"{key}={value}"


def collect(conn, where=()):
    """The finished runs' jobs, each a dict of its jobs row plus `seed`,
    `time_us` (one iteration), `settings` and `setting` (the keys that set it
    apart from jobs of the same collective, ranks, size and algorithm)."""
    if not has_jobs_table(conn):
        raise ReportError("this database has no jobs table (written by a fabricsim before closed-loop jobs, "
                          "issue 54): run the job studies again into a new file")
    columns = ("run_id", "seed", "job_id", "name", "collective", "algorithm", "ranks", "bytes", "iterations",
               "operations", "completed_operations", "time_ps", "algbw_gbps", "busbw_gbps")
    every = [dict(zip(columns, row)) for row in conn.execute(
        "SELECT j.run_id, r.seed, j.job_id, j.name, j.collective, j.algorithm, j.ranks, j.bytes, j.iterations, "
        "j.operations, j.completed_operations, j.time_ps, j.algbw_gbps, j.busbw_gbps "
        "FROM jobs j JOIN runs r ON r.run_id = j.run_id ORDER BY j.run_id, j.job_id")]
    if not every:
        raise ReportError("no closed-loop job in this database (its jobs table is empty): run a study with "
                          "[job.NAME] sections, such as allreduce8")
    jobs = table_tool.only_done_runs(conn, every)
    if not jobs:
        left = table_tool.runs_not_done(conn)
        raise ReportError("no run with jobs is done; left out, as only runs that are done are tabulated: "
                          + ", ".join(left))
    params = _run_params(conn, {j["run_id"] for j in jobs})
    jobs = _filter(jobs, params, where)
    for j in jobs:
        j["settings"] = _settings(j, params[j["run_id"]])
        j["time_us"] = None if j["time_ps"] is None else j["time_ps"] / max(j["iterations"] or 1, 1) / 1e6
        rate = parse_rate_gbps(params[j["run_id"]].get("topology.user_port_gbps"))
        j["line_gbps"] = rate or DEFAULT_LINE_GBPS
    _name_settings(jobs)
    return jobs


def _name_settings(jobs):
    """Sets each job's `setting`: the keys in which the jobs of its cell
    differ, only those that also differ within its row (collective, ranks, size)."""
    def differing(group):
        keys = set().union(*(j["settings"] for j in group))
        return {k for k in keys if len({j["settings"].get(k) for j in group}) > 1}
    split = set()
    for group in _group(jobs, lambda j: (j["collective"], j["ranks"], j["bytes"], j["algorithm"])).values():
        split |= differing(group)
    for group in _group(jobs, lambda j: (j["collective"], j["ranks"], j["bytes"])).values():
        shown = sorted(split & differing(group))
        for j in group:
            j["setting"] = ", ".join(_setting_text(k, j["settings"].get(k, "-")) for k in shown)


def _group(items, key):
    groups = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return groups


def size_text(n):
    """1 KB, 4 MB, 1 GB (1024-based, as fabricsim writes sizes)."""
    if n is None:
        return "-"
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n} B"


def _order(value):
    return (value is None, value if value is not None else 0)


def row_key(j):
    return j["collective"], j["ranks"], j["setting"], j["bytes"]


def line_key(j):
    return j["collective"], j["ranks"], j["setting"], j["algorithm"]


def line_label(key):
    collective, ranks, setting, algorithm = key
    return f"{collective}, {ranks} ranks, {algorithm}" + (f" ({setting})" if setting else "")


def cell(jobs):
    """(time, algbw, busbw) texts of one algorithm's jobs in one row: the
    mean over them with its interval, or that one did not finish."""
    unfinished = [j for j in jobs if j["time_ps"] is None]
    if unfinished:
        if len(jobs) == 1:
            j = jobs[0]
            return (f"did not finish ({j['completed_operations']} of {j['operations']} operations)", "-", "-")
        return (f"did not finish ({len(unfinished)} of {len(jobs)} runs)", "-", "-")
    return tuple(values_text([j[f] for j in jobs], 2) if all(j[f] is not None for j in jobs) else "-"
                 for f in ("time_us", "algbw_gbps", "busbw_gbps"))


def build_table(jobs):
    algorithms = sorted({j["algorithm"] for j in jobs})
    rows = _group(jobs, row_key)
    with_setting = any(j["setting"] for j in jobs)
    header = ["collective", "ranks", "size", "bytes"] + (["setting"] if with_setting else [])
    for a in algorithms:
        header += [f"{a} time (us)", f"{a} algbw (Gb/s)", f"{a} busbw (Gb/s)"]
    header.append("runs")
    body = []
    for key in sorted(rows, key=lambda k: (k[0], k[1], k[2], _order(k[3]))):
        collective, ranks, setting, size = key
        by_algorithm = _group(rows[key], lambda j: j["algorithm"])
        line = [collective, ranks, size_text(size), "-" if size is None else size]
        line += [setting or "-"] if with_setting else []
        for a in algorithms:
            line += list(cell(by_algorithm[a])) if a in by_algorithm else ["-", "-", "-"]
        counts = {len(v) for v in by_algorithm.values()}
        line.append(str(counts.pop()) if len(counts) == 1 else
                    ", ".join(f"{a} {len(by_algorithm[a])}" for a in algorithms if a in by_algorithm))
        body.append(line)
    return ("Closed-loop jobs as NCCL-tests reports them (the `jobs` table): time of one iteration, "
            "algbw = bytes x iterations / time and busbw = algbw x the collective's bus factor, in Gb/s; with "
            "several runs (seeds), the mean with its 95 % interval (Student's t).\n\n" + table(header, body))


def _series(jobs):
    """{line key: [(bytes, [time_us], [busbw])]} of the finished cells with a size."""
    lines = {}
    for key, group in _group([j for j in jobs if j["bytes"]], line_key).items():
        points = []
        for size, at in sorted(_group(group, lambda j: j["bytes"]).items()):
            if all(j["time_ps"] is not None and j["busbw_gbps"] is not None for j in at):
                points.append((size, [j["time_us"] for j in at], [j["busbw_gbps"] for j in at]))
        if points:
            lines[key] = points
    return lines


def _size_axis(ax, sizes):
    """A log2 size axis labelled 1K, 4K, ..., 1G at powers of 4 (of 2 over a short range)."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator
    ax.set_xscale("log", base=2)
    low, high = int(math.floor(math.log2(min(sizes)))), int(math.ceil(math.log2(max(sizes))))
    step = 1 if high - low <= 6 else 2
    ticks = [2 ** e for e in range(low - low % step, high + 1, step)]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _short_size(v)))
    ax.set_xlabel("size (bytes, NCCL-tests' definition)")


def _short_size(v):
    for unit, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if v >= scale:
            return f"{v / scale:g}{unit}"
    return f"{v:g}"


def _figure(lines, title):
    """A figure whose legend goes below the axes (never over a point)."""
    from fabricpy.style import pyplot
    plt = pyplot()
    legend_rows = (len(lines) + 2) // 2
    legend_inches = 0.2 + 0.16 * legend_rows
    fig, ax = plt.subplots(figsize=(8, 4.8 + legend_inches))
    fig.suptitle(title, fontsize=11)
    return plt, fig, ax, legend_inches / (4.8 + legend_inches)


def _finish(plt, fig, ax, bottom, path):
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, frameon=False)
    fig.tight_layout(rect=(0, bottom, 1, 0.97))
    fig.savefig(path)
    plt.close(fig)


def _interval(values):
    """(mean, half-width of its 95 % interval, 0 without one) of per-seed values."""
    mean, sd, n = mean_sd(values)
    return mean, half_width(sd, n) or 0.0


def _draw_lines(ax, lines, values_of, scale):
    """One line per (ranks, algorithm): each size's per-seed values (values_of
    a (size, times, busbws) point) as the mean and its interval, times scale.
    Returns every size drawn (for the axis)."""
    from fabricpy import style
    for key, points in sorted(lines.items()):
        means = [_interval(values_of(p)) for p in points]
        ax.errorbar([p[0] for p in points], [m * scale for m, _ in means], yerr=[h * scale for _, h in means],
                    marker=style.marker_for(len(points)), capsize=2, label=line_label(key))
    return [p[0] for points in lines.values() for p in points] or [1024, 1 << 30]


def plot_busbw(jobs, path):
    lines = _series(jobs)
    plt, fig, ax, bottom = _figure(lines, "Closed-loop jobs: bus bandwidth against size (NCCL-tests' busbw)")
    from fabricpy import style
    sizes = _draw_lines(ax, lines, lambda point: point[2], 1e9)
    for rate in sorted({j["line_gbps"] for j in jobs}):
        ceiling = rate * FRAME_EFFICIENCY
        ax.axhline(ceiling * 1e9, color="0.35", linestyle="--", linewidth=0.9,
                   label=f"CNA link x frame efficiency: {rate:g} x 1500/1538 = {ceiling:.1f} Gb/s")
    _size_axis(ax, sizes)
    style.bits_per_second(ax.yaxis)
    ax.set_ylim(bottom=0, top=max(ax.get_ylim()[1], 1.08 * max(j["line_gbps"] for j in jobs) * 1e9 * FRAME_EFFICIENCY))
    ax.set_ylabel("busbw (bus bandwidth)")
    _finish(plt, fig, ax, bottom, path)


def plot_time(jobs, path):
    lines = _series(jobs)
    plt, fig, ax, bottom = _figure(lines, "Closed-loop jobs: time of one iteration against size")
    from fabricpy import style
    sizes = _draw_lines(ax, lines, lambda point: point[1], 1e-6)
    _size_axis(ax, sizes)
    style.log_seconds(ax)
    ax.set_ylabel("time (one iteration)")
    _finish(plt, fig, ax, bottom, path)


def _where(items):
    where = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ReportError(f"--where '{item}': expected KEY=VALUE")
        where.append((key.strip(), value.strip()))
    return where


def print_table(args):
    where = _where(args.where)
    plots = [(f"{args.plot}-busbw.png", plot_busbw), (f"{args.plot}-time.png", plot_time)] if args.plot else []
    return table_tool.table_with_plots("job-table", args.db, plots, lambda conn: collect(conn, where), build_table)


def main(argv=None):
    p = tool.Parser(prog="job-table", description=__doc__.split("\n\n")[0])
    p.add_argument("db")
    p.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                   help="only runs with this value of a key (run_params; repeatable)")
    p.add_argument("--plot", metavar="PREFIX", help="also write PREFIX-busbw.png and PREFIX-time.png")
    return tool.run("job-table", lambda: print_table(p.parse_args(argv)))
