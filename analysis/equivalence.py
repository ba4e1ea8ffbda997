"""equivalence BEFORE AFTER [STUDY ...] [--seeds N] [--time T] [--jobs J]
[--set-after KEY=VALUE ...] [--keep DIR] [--p P] [--floor F]: did a change
move any result?

Runs each study with both fabricsim binaries on the same seeds (1..N),
paired: a run of BEFORE and one of AFTER per seed, in alternating order.
Reads each run's headline figures (db/queries/headline_figures.sql: one
query, the same for every platform) and reports, per study and figure, the
mean over the seeds with its 95 % interval (Student's t) for each binary,
the difference, Welch's t-test's p-value, and the verdict: a figure
DIFFERS when p < P (0.01) and the difference is more than F (1 %) of the
larger mean; a figure whose seeds all agree exactly on both sides is the
same. Exit status 0 when no figure differs, 1 when one does or a run
failed, 2 for bad input.

A change that only reorders decisions taken at equal times moves each
seed's figures, but not their distribution: it passes. A change meant to
move a figure fails on it, and says by how much. --set-after applies keys
to the AFTER runs only: a changed default, without a second build."""
import os
import sqlite3
import subprocess
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor, as_completed

from scipy import stats

from fabricpy import tool
from fabricpy.confidence import half_width, mean_sd
from analysis.cookbook import run_query
from fabricpy.markdown import table
from fabricpy.errors import ReportError

STUDY_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                         "platforms", "studies")
MAX_SEEDS = 100


def shipped_studies():
    return sorted(f[:-4] for f in os.listdir(STUDY_DIR) if f.endswith(".ini"))


def parse_args(argv):
    p = tool.Parser(prog="equivalence", description=__doc__.split("\n\n")[0])
    p.add_argument("before", help="the fabricsim binary before the change")
    p.add_argument("after", help="the fabricsim binary after it")
    p.add_argument("studies", nargs="*", help="studies (default: every shipped study)")
    p.add_argument("--seeds", type=int, default=5, help="seeds 1..N per study and binary (default 5)")
    p.add_argument("--time", help="simulated time of every run (default: each study's own)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at once")
    p.add_argument("--set-after", action="append", default=[], metavar="KEY=VALUE",
                   help="a key for the AFTER runs only (may repeat)")
    p.add_argument("--keep", help="keep the runs' databases in this directory")
    p.add_argument("--p", type=float, default=0.01, help="Welch's t-test level (default 0.01)")
    p.add_argument("--floor", type=float, default=0.01,
                   help="the smallest relative difference that counts (default 0.01)")
    args = p.parse_args(argv)
    for side in ("before", "after"):
        path = getattr(args, side)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise ReportError(f"{side.upper()} is '{path}': not an executable file")
    known = shipped_studies()
    for s in args.studies:
        if s not in known:
            raise ReportError(f"study '{s}' is not shipped; the studies: {', '.join(known)}")
    if not 2 <= args.seeds <= MAX_SEEDS:
        raise ReportError(f"--seeds is {args.seeds}; allowed: 2-{MAX_SEEDS} (an interval needs two)")
    if args.jobs < 1:
        raise ReportError(f"--jobs is {args.jobs}; allowed: 1 or more")
    if not 0 < args.p < 1:
        raise ReportError(f"--p is {args.p}; allowed: between 0 and 1")
    if not 0 <= args.floor < 1:
        raise ReportError(f"--floor is {args.floor}; allowed: 0 up to 1")
    for kv in args.set_after:
        if "=" not in kv:
            raise ReportError(f"--set-after '{kv}': expected KEY=VALUE")
    args.studies = args.studies or known
    return args


def run_one(binary, study, seed, db, args, extra):
    if os.path.exists(db):
        os.remove(db)  # a kept directory from an earlier comparison
    cmd = [binary, "--study", study, "--seed", str(seed), "--db", db, "--quiet"]
    if args.time:
        cmd += ["--time", args.time]
    for kv in extra:
        cmd += ["--set", kv]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise ReportError(f"a run failed (exit {r.returncode}): {' '.join(cmd)}: {last}")
    return figures_of(db)


def figures_of(db):
    """{figure: (unit, value or None)} of the database's one run."""
    conn = sqlite3.connect(db)
    try:
        (run_id,) = conn.execute("SELECT max(run_id) FROM runs").fetchone()
        _, rows = run_query(conn, "headline_figures", run=run_id)
    finally:
        conn.close()
    return {figure: (unit, value) for figure, unit, value in rows}


def verdict(before, after, args):
    """(p-value or None, 'same' / 'DIFFERS') of two lists of one figure's values."""
    mb, sb, _ = mean_sd(before)
    ma, sa, _ = mean_sd(after)
    scale = max(abs(mb), abs(ma))
    beyond_floor = abs(ma - mb) > args.floor * scale
    if sb == 0 and sa == 0:  # every seed agrees on each side: no spread to test against
        return None, "DIFFERS" if beyond_floor else "same"
    with warnings.catch_warnings():  # nearly equal samples: scipy warns, and p says it anyway
        warnings.simplefilter("ignore", RuntimeWarning)
        p = float(stats.ttest_ind(before, after, equal_var=False).pvalue)
    return p, "DIFFERS" if p < args.p and beyond_floor else "same"


def interval(values):
    mean, sd, n = mean_sd(values)
    half = half_width(sd, n)
    return f"{mean:.4g}" + (f" ± {half:.2g}" if half else "")


def compare(args, scratch):
    """{study: {figure: (unit, [before values], [after values])}}."""
    jobs = []
    for study in args.studies:
        for seed in range(1, args.seeds + 1):
            order = [("before", args.before, []), ("after", args.after, args.set_after)]
            if seed % 2 == 0:
                order.reverse()  # paired, in alternating order: the machine's drift falls on both
            for side, binary, extra in order:
                jobs.append((study, seed, side, binary, extra))
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_one, binary, study, seed, os.path.join(scratch, f"{study}-s{seed}-{side}.db"),
                               args, extra): (study, seed, side)
                   for study, seed, side, binary, extra in jobs}
        got = {}
        progress = Progress(len(jobs))
        for future in as_completed(futures):
            got[futures[future]] = future.result()
            progress.one_more()
        progress.end()
    results = {}  # in the order of the jobs, whatever order they ended in
    for study, seed, side, _, _ in jobs:
        for figure, (unit, value) in got[(study, seed, side)].items():
            entry = results.setdefault(study, {}).setdefault(figure, (unit, {"before": {}, "after": {}}))
            entry[1][side][seed] = value
    return results


class Progress:
    """Runs done so far, on stderr: one line kept up to date on a terminal,
    a line per tenth of the runs otherwise."""

    def __init__(self, total):
        self.total, self.done, self.tty = total, 0, sys.stderr.isatty()

    def one_more(self):
        self.done += 1
        if self.tty:
            print(f"\requivalence: {self.done} of {self.total} runs done", end="", file=sys.stderr, flush=True)
        elif self.done * 10 // self.total != (self.done - 1) * 10 // self.total:
            print(f"equivalence: {self.done} of {self.total} runs done", file=sys.stderr, flush=True)

    def end(self):
        if self.tty:
            print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)


def report(results, args):
    differing = 0
    for study, figures in results.items():
        rows = []
        for figure, (unit, sides) in figures.items():
            if set(sides["before"]) != set(sides["after"]):  # a figure one binary's runs did not give
                differing += 1
                rows.append([figure, unit, "" if not sides["before"] else "given", "" if not sides["after"] else "given",
                             "-", "-", "DIFFERS (only one side has it)"])
                continue
            seeds = sorted(sides["before"])
            before = [sides["before"][s] for s in seeds]
            after = [sides["after"][s] for s in seeds]
            if all(v is None for v in before + after):
                continue  # not answered by these runs (p99 of a summary run)
            if any(v is None for v in before + after):
                differing += 1
                rows.append([figure, unit, "-", "-", "-", "-", "DIFFERS (no value on some seeds)"])
                continue
            p, said = verdict(before, after, args)
            differing += said == "DIFFERS"
            mb = sum(before) / len(before)
            ma = sum(after) / len(after)
            change = "0" if ma == mb else (f"{(ma - mb) / abs(mb) * 100:+.2f} %" if mb else "new")
            rows.append([figure, unit, interval(before), interval(after), change,
                         "-" if p is None else f"{p:.3g}", said])
        print(f"\n{study} ({args.seeds} seeds{', ' + args.time if args.time else ''}"
              f"{', after with ' + ' '.join(args.set_after) if args.set_after else ''}):\n")
        print(table(["figure", "unit", "before", "after", "change", "p (Welch)", "verdict"], rows))
    print(f"\n{differing} figure{'s' if differing != 1 else ''} differ (Welch's t at p < {args.p} and more than "
          f"{args.floor * 100:g} % apart)")
    return 1 if differing else 0


def main(argv=None):
    def body():
        args = parse_args(sys.argv[1:] if argv is None else argv)
        with tool.scratch_dir(args.keep, "equivalence-") as scratch:
            try:
                return report(compare(args, scratch), args)
            except ReportError as e:
                print(f"equivalence: {e}", file=sys.stderr)
                return 1  # a run failed: the machine's or the build's, not the command line's
    return tool.run("equivalence", body)
