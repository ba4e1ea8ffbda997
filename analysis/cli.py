"""fabric-report DB [--run ID ...] [--compare KEY [--per-run]] [--out DIR]
[--window D] [--warmup D] [--partial]: PNG plots and a Markdown summary
(report.md) of fabricsim runs, each run with its platform's sections. Exit status 0, or 2 on bad input with one line naming the
option and the value (never a traceback).

Every option and every selected run is checked before any run's data is
read; the runs are then read and reported one at a time."""
import os
import re
import sys
import time

from analysis import abandoned_runs, metrics
from fabricpy import tool
from analysis.compare import Comparison
from analysis.labels import duration, run_state, why_running
from fabricpy.option_values import as_option, duration_ps, output_folder, run_id
from fabricpy.errors import ReportError
from analysis.rundb import describe_ids, load_deliveries, open_database, read_run, run_ids
from analysis.platform_reports import for_run
from analysis.run_report import RunReport


def parse(argv):
    p = tool.Parser(prog="fabric-report", description=__doc__.split("\n\n")[0].split(": ", 1)[1])
    p.add_argument("db", help="a fabricsim database (fabric.db)")
    p.add_argument("--run", type=run_id, action="append", metavar="ID",
                   help="run to report (repeat for several side by side); default: the last run, or with "
                        "--compare every run")
    p.add_argument("--compare", metavar="KEY", help="plot throughput and delay against this configuration key "
                                                     "across the runs (e.g. traffic.load_gbps)")
    p.add_argument("--per-run", action="store_true",
                   help="with --compare: also each run's own sections and figures (by default only the comparison)")
    p.add_argument("--out", metavar="DIR", help="output folder (default: <db name>_report)")
    p.add_argument("--window", metavar="DURATION", help="time window of throughput and fairness (default: "
                                                         "about 1/100 of the run, 1-2-5 steps; never shorter than "
                                                         "16 mean inter-arrival times of the slowest subflow)")
    p.add_argument("--warmup", metavar="DURATION", help="skipped before mean throughput (default: the platform's: "
                                                         "on the fabric 0.5 ms for runs of 1 ms or more, on the "
                                                         "backplane backplane.warmup, else 0)")
    p.add_argument("--partial", action="store_true", help="also report runs still marked 'running'")
    args = p.parse_args(argv)
    if args.compare is not None and not args.compare.strip():
        raise ReportError("--compare '': expected a configuration key such as traffic.load_gbps")
    if args.per_run and args.compare is None:
        raise ReportError("--per-run: only with --compare (without it every run's sections are written)")
    args.window_ps = duration_ps("--window", args.window, above_zero=True) if args.window is not None else None
    args.warmup_ps = duration_ps("--warmup", args.warmup) if args.warmup is not None else None
    if args.out is None:
        args.out = os.path.splitext(os.path.basename(args.db))[0] + "_report"
        output_folder("--out (by default)", args.out)
    else:
        output_folder("--out", args.out)
    return args


def selected_ids(conn, args, abandoned):
    ids = run_ids(conn)
    if not ids:
        raise ReportError(f"'{args.db}' holds no runs yet")
    for i in args.run or []:
        if i not in ids:
            raise ReportError(f"--run {i}: run {i} does not exist in this database (it has {describe_ids(ids)})")
    if args.run:
        return list(dict.fromkeys(args.run))
    if not args.compare:
        return [ids[-1]]
    # --compare: every run that has ended (or all, with --partial)
    ended = [i for i, status in conn.execute("SELECT run_id, status FROM runs ORDER BY run_id")
             if args.partial or status != "running" or i in abandoned]
    if not ended:
        raise ReportError(f"--compare {args.compare}: every run in '{args.db}' is still 'running' "
                          "(--partial reports them)")
    return ended


def check_window(run, window_ps, text):
    """A window that would cut the run into too many pieces is refused with
    the smallest one allowed, before anything is computed."""
    most = metrics.most_windows(len(run.subflows))
    if window_ps is None or metrics.window_count(run.sim_time_ps, -1, window_ps) <= most:
        return
    why = (f"at most {most} windows per run" if most == metrics.MAX_WINDOWS else
           f"at most {metrics.MAX_WINDOW_CELLS} windows x subflows, and run {run.run_id} has "
           f"{len(run.subflows)} subflows")
    smallest = as_option(metrics.smallest_window_ps(run.sim_time_ps, len(run.subflows)), round_up_to_digits=3)
    raise ReportError(f"--window {text}: {why}; for run {run.run_id} "
                      f"({duration(run.sim_time_ps)}) use {smallest} or more")


def check_warmup(run, warmup_ps, text):
    if warmup_ps and warmup_ps >= run.sim_time_ps:
        length = "is" if run.status == "done" else f"({run.status}) reached only"
        raise ReportError(f"--warmup {text}: run {run.run_id} {length} {duration(run.sim_time_ps)}; the warm-up "
                          "must end before the run does")


def report(args):
    start = time.monotonic()
    conn = open_database(args.db)
    gone, notes = abandoned_runs.mark(args.db, conn)
    for line in notes:
        print(f"fabric-report: {line}", file=sys.stderr)
    abandoned = {run_id for run_id, _, _ in gone}
    runs = [read_run(conn, i) for i in selected_ids(conn, args, abandoned)]
    for run in runs:
        if run.run_id in abandoned:  # as marked, even where the file could not be written
            run.status, run.owner = "interrupted", None
    comparison = Comparison(args.compare) if (args.compare or len(runs) > 1) else None
    for run in runs:
        if run.status == "running" and not args.partial:
            raise ReportError(f"run {run.run_id} is still 'running': {why_running(run)}; --partial reports what "
                              "has been recorded")
        for_run(run)  # a platform this report knows
        check_window(run, args.window_ps, args.window)
        check_warmup(run, args.warmup_ps, args.warmup)
        if comparison:
            comparison.check(run)
    os.makedirs(args.out, exist_ok=True)
    sections, plot_files = [], []
    per_run = not args.compare or args.per_run
    for run in runs:
        load_deliveries(conn, run)
        run_report = RunReport(conn, run, args.out, args.window_ps, args.warmup_ps)
        if per_run:
            sections.append(run_report.write())
            plot_files += run_report.plots
        run.deliveries = None  # one run's deliveries in memory at a time
        if comparison:
            comparison.add(run, run_report.headline)
    text = f"# fabric-report: {os.path.basename(args.db)}\n\n"
    # The study tables of the platforms in the file (E13's speedups, E14's rings) come first.
    for platform in dict.fromkeys(for_run(run) for run in runs):
        whole_file = platform.file_section(conn, args.out)
        if whole_file:
            text += whole_file + "\n"
            plot_files += re.findall(r"\]\(([^)]+\.png)\)", whole_file)
    if comparison:
        comparison_text = comparison.markdown(args.out)
        text += comparison_text + "\n"
        plot_files += re.findall(r"\]\(([^)]+\.png)\)", comparison_text)
    text += "\n".join(sections)
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write(text)
    for run in runs:
        state = run_state(run)
        if state:
            print(f"fabric-report: run {run.run_id} {state[0]} ({state[1]})", file=sys.stderr)
    print(f"fabric-report: {len(runs)} run(s), {len(plot_files)} plots and report.md in {args.out}/ "
          f"({time.monotonic() - start:.1f} s)")
    return 0


def main(argv=None):
    return tool.run("fabric-report", lambda: report(parse(sys.argv[1:] if argv is None else argv)))
