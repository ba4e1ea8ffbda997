"""fabric-report DB [--run ID ...] [--compare KEY] [--out DIR]: PNG plots and
a Markdown summary (report.md) of fabricsim runs. Exit status 0, or 2 on
bad input with a message saying what is wrong (never a traceback)."""
import argparse
import os
import re
import sys
import time

from report.compare import Comparison
from report.rundb import ReportError, load_run, open_database, run_ids
from report.run_report import PLOTS, RunReport

_DURATION = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(ps|ns|us|ms|s)?\s*$")
_SCALE = {"ps": 1, "ns": 10**3, "us": 10**6, "ms": 10**9, "s": 10**12, None: 1}


def duration_ps(option, text):
    m = _DURATION.match(text)
    if not m or float(m.group(1)) <= 0 and option == "--window":
        raise ReportError(f"{option} '{text}': expected a duration such as 10us, 0.5ms or 2000000 (ps)"
                          + (", above zero" if option == "--window" else ""))
    return int(round(float(m.group(1)) * _SCALE[m.group(2)]))


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ReportError(message)


def parse(argv):
    p = _Parser(prog="fabric-report", description=__doc__.split("\n\n")[0])
    p.add_argument("db", help="a fabricsim database (fabric.db)")
    p.add_argument("--run", type=int, action="append", metavar="ID",
                   help="run to report (repeat for several side by side); default: the last run, or with "
                        "--compare every run")
    p.add_argument("--compare", metavar="KEY", help="plot throughput and delay against this configuration key "
                                                     "across the runs (e.g. traffic.load_gbps)")
    p.add_argument("--out", metavar="DIR", help="output folder (default: <db name>_report)")
    p.add_argument("--window", metavar="DURATION", help="time window of throughput and fairness (default: "
                                                         "about 1/100 of the run, 1-2-5 steps)")
    p.add_argument("--warmup", metavar="DURATION", help="skipped before mean throughput (default: 0.5 ms for "
                                                         "runs of 1 ms or more, else 0)")
    p.add_argument("--partial", action="store_true", help="also report runs still marked 'running'")
    return p.parse_args(argv)


def main(argv=None):
    start = time.monotonic()
    try:
        args = parse(sys.argv[1:] if argv is None else argv)
        window = duration_ps("--window", args.window) if args.window else None
        warmup = duration_ps("--warmup", args.warmup) if args.warmup is not None else None
        conn = open_database(args.db)
        ids = run_ids(conn)
        if not ids:
            raise ReportError(f"'{args.db}' holds no runs yet")
        if args.run:
            selected = args.run
        elif args.compare:  # every run that finished writing (or all, with --partial)
            selected = [i for i, status in conn.execute("SELECT run_id, status FROM runs ORDER BY run_id")
                        if args.partial or status != "running"]
        else:
            selected = [ids[-1]]
        out = args.out or os.path.splitext(os.path.basename(args.db))[0] + "_report"
        runs = [load_run(conn, i, allow_running=args.partial) for i in dict.fromkeys(selected)]
        os.makedirs(out, exist_ok=True)
        comparison = Comparison(args.compare) if (args.compare or len(runs) > 1) else None
        if comparison:
            for run in runs:
                comparison.check(run)
        sections = []
        for run in runs:
            run_report = RunReport(conn, run, out, window, warmup)
            sections.append(run_report.write())
            if comparison:
                comparison.add(run, run_report.headline)
        text = f"# fabric-report: {os.path.basename(args.db)}\n\n"
        if comparison:
            text += comparison.markdown(out) + "\n"
        text += "\n".join(sections)
        with open(os.path.join(out, "report.md"), "w") as f:
            f.write(text)
    except ReportError as e:
        print(f"fabric-report: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("fabric-report: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug here, not bad input: still one clear line
        print(f"fabric-report: internal error ({type(e).__name__}: {e}); please report it", file=sys.stderr)
        return 1
    print(f"fabric-report: {len(runs)} run(s), {len(runs) * len(PLOTS)} plots and report.md in {out}/ "
          f"({time.monotonic() - start:.1f} s)")
    return 0
