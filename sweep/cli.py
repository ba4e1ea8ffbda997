"""fabricsim-sweep: runs a study's parameter sweep (its [sweep] section and
--sweep KEY=V1,V2) point by point, on this machine (--backend local, N
processes) or as a Slurm job array (--backend slurm), merging every point's
run into one database. Rerun into the same database, it runs only the points
that are missing (and, with --retry-failed, those that failed).

Exit status: 0 every point merged; 1 a point failed (listed, with its exit
status and the last lines of its output); 2 bad input (a bad sweep or point,
before anything runs) or a full disk (one line; the point it could not
merge is not failed, and a rerun continues); 128 + the signal when stopped by SIGINT, SIGTERM or
SIGHUP (what finished is kept; the points it stopped are run by a plain rerun,
they are not failed)."""
import argparse
import os
import re
import shlex
import signal
import sqlite3
import sys

from fabricpy import tool
from fabricpy.errors import ReportError

from . import points as points_module
from . import store
from .children import Stopped
from .local_backend import LocalBackend, default_jobs
from .progress import Progress
from .runner import Work, run_sweep
from .slurm_backend import SlurmBackend, SlurmError


def add_run_options(p, db_default="sweep.db"):
    """The options of the runs every point makes, and of how they run: shared
    by fabricsim-sweep and fabricsim-search."""
    p.add_argument("study", nargs="?", help="a shipped study (or use --config)")
    p.add_argument("--config", action="append", default=[], help="INI file; may repeat")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a key every point shares")
    p.add_argument("--time", help="simulated time of every point")
    p.add_argument("--record", choices=["frames", "summary"], help="what each point records")
    p.add_argument("--db", default=db_default, help=f"the database the runs are merged into (default {db_default})")
    p.add_argument("--backend", choices=["local", "slurm"], default="local")
    p.add_argument("--jobs", type=int, help="points at a time (local default: the cores; slurm: the array's limit)")
    p.add_argument("--strict", action="store_true",
                   help="a point whose values break a physical constraint (a warning of fabricsim's) is refused "
                        "before any point runs")
    p.add_argument("--fabricsim", default=None, help="the fabricsim binary (default: build/fabricsim)")
    slurm = p.add_argument_group("slurm backend")
    slurm.add_argument("--partition")
    slurm.add_argument("--time-limit", metavar="TIME", help="per point, in sbatch's syntax (e.g. 1:00:00)")
    slurm.add_argument("--mem", help="memory per point, in sbatch's syntax (e.g. 2G)")
    slurm.add_argument("--cpus-per-task", type=int, help="CPUs per point")
    slurm.add_argument("--sbatch-arg", action="append", default=[], metavar="ARG",
                       help="an extra sbatch argument; may repeat")
    return slurm


def _parser():
    p = tool.Parser(prog="fabricsim-sweep", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    slurm = add_run_options(p)
    p.add_argument("--sweep", action="append", default=[], metavar="KEY=V1,V2",
                   help="sweep a key over values (crossed with the others); may repeat")
    p.add_argument("--log-level", choices=["frames", "summary"], help="the old name of --record, accepted until the "
                                                                      "next release")
    p.add_argument("--retry-failed", action="store_true", help="run again the points that failed before")
    p.add_argument("--dry-run", action="store_true", help="list the points and their commands, run nothing")
    slurm.add_argument("--no-wait", action="store_true",
                       help="submit the array and a dependent job that merges it, then return")
    p.add_argument("--merge-attempt", metavar="ID", help=argparse.SUPPRESS)  # the merge job of --no-wait
    return p


def base_options(args):
    base = []
    if args.study:
        base += ["--study", args.study]
    for c in args.config:
        base += ["--config", os.path.abspath(c)]
    for s in args.set:
        base += ["--set", s]
    if args.time:
        base += ["--time", args.time]
    record = args.record or getattr(args, "log_level", None)
    if record:
        base += ["--record", record]
    if args.strict:
        base += ["--strict"]
    return base


def fabricsim_binary(args):
    """The fabricsim binary the points run (--fabricsim, $FABRICSIM, or this tree's build), or a ReportError."""
    if args.fabricsim or os.environ.get("FABRICSIM"):
        named = "--fabricsim" if args.fabricsim else "FABRICSIM"
        path = args.fabricsim or os.environ["FABRICSIM"]
        if not os.path.isfile(path) or not os.access(path, os.X_OK):
            raise ReportError(f"{named} {path}: not an executable file; give the fabricsim binary "
                              "(build/fabricsim once scripts/build.sh has run)")
        return os.path.abspath(path)
    path = _default_fabricsim()
    if not os.access(path, os.X_OK):
        raise ReportError(f"{path} does not exist yet: build it with scripts/build.sh, or give --fabricsim")
    return path


def check_jobs(args):
    if args.jobs is not None and not 1 <= args.jobs <= 10000:
        raise ReportError(f"--jobs {args.jobs}: allowed 1-10000")


def one_thread_each(sweep, args, jobs):
    """Points in parallel: one simulation thread each (unless --set sim.threads says otherwise)."""
    if jobs > 1 and not any(s.startswith("sim.threads=") for s in args.set):
        sweep.runtime += ["--set", "sim.threads=1"]


def open_target(db):
    """The target database, with the schema, or a ReportError naming --db (a full disk is said as such)."""
    tool.watch_database(db)
    try:
        conn = store.connect(db)
        store.ensure_schema(conn)
        return conn
    except (OSError, ValueError, sqlite3.Error) as e:
        if tool.full_disk(e):
            raise
        raise ReportError(f"--db {db}: {e}") from None


def stop_signals():
    """A stop (SIGINT, SIGTERM, SIGHUP) is noted, from the start: the runner
    then stops its fabricsim processes and ends with 128 + the signal."""
    stop = {"signal": None}
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, lambda number, _frame: stop.update(signal=number))
    return lambda: stop["signal"]


def _default_fabricsim():
    here = os.path.dirname(os.path.realpath(__file__))
    return os.path.abspath(os.path.join(here, "..", "build", "fabricsim"))


def _dry_run(sweep, args, fabricsim, jobs):
    """The points and the commands the runner would give them, with the
    work folder it would use (Work): the sweep's id if the database holds
    this sweep already, and the runner's process id, are known only then."""
    sid = store.existing_sweep_id(args.db, sweep)
    folder = os.path.abspath(f"{args.db}.sweep-{sid if sid is not None else 'ID'}")
    print(f"sweep of {sweep.study}: {len(sweep.points)} points, {args.backend} backend, {jobs} at a time")
    print(f"each point runs into {folder}/point-N-RUNNER.db (RUNNER: the runner's process id"
          + ("" if sid is not None else "; ID: the sweep's id, given when the database first holds it") +
          f") and is merged into {args.db}")
    for p in sweep.points:
        command = sweep.point_command(fabricsim, p, os.path.join(folder, f"point-{p.number}-RUNNER.db"))
        print(f"{p.number}: {p.key}\n    {shlex.join(command)}")
    return 0


def _report(sweep, outcome, failed_before, skipped_failed, args, stopped_by, ran):
    """The failed points with their output's last lines; the exit status."""
    failed = outcome.failed + [(p, *failed_before[p.key]) for p in skipped_failed]
    for point, status, tail in failed:
        print(f"fabricsim-sweep: point {point.number} FAILED (exit status {status}): {point.key}", file=sys.stderr)
        for line in tail.rstrip().splitlines()[-5:]:
            print(f"    {line}", file=sys.stderr)
    if stopped_by:
        left = ran - len(outcome.merged) - len(outcome.failed)
        print(f"fabricsim-sweep: stopped by signal {stopped_by}: {left} points left ({len(outcome.stopped)} of "
              "them stopped while they ran), not failed; rerun the same command to run them", file=sys.stderr)
        return 128 + stopped_by
    if failed:
        print(f"fabricsim-sweep: {len(failed)} of {len(sweep.points)} points failed"
              + ("" if args.retry_failed else " (--retry-failed runs them again)"), file=sys.stderr)
        return 1
    return 0


def _show_warnings(sweep, most=20):
    """Each point's warnings before it runs (its run records them too, in
    run_warnings; --strict refuses them): of the first `most` points with any."""
    warned = [p for p in sweep.points if p.warnings]
    for p in warned[:most]:
        for w in p.warnings:
            print(f"fabricsim-sweep: warning: point {p.number} ({p.key}): {w}", file=sys.stderr)
    if len(warned) > most:
        print(f"fabricsim-sweep: warning: and {len(warned) - most} more points with warnings "
              "(each run keeps its own in run_warnings)", file=sys.stderr)


def main(argv=None):
    return tool.run("fabricsim-sweep", lambda: _main(argv))


def _main(argv):
    stopping = stop_signals()
    args = _parser().parse_args(argv)
    if args.log_level:
        if args.record and args.record != args.log_level:
            raise ReportError(f"--log-level {args.log_level} and --record {args.record}: --log-level is the old "
                              "name of --record; give one")
        print("fabricsim-sweep: note: --log-level is now --record (it chooses what each point records); the old "
              "name is accepted until the next release", file=sys.stderr)
    if not args.study and not args.config:
        raise ReportError("name a study or give --config")
    check_jobs(args)
    if args.merge_attempt is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", args.merge_attempt):
        raise ReportError(f"--merge-attempt {args.merge_attempt!r}: expected the runner's attempt id (letters, "
                          "digits, - and _)")
    fabricsim = fabricsim_binary(args)
    try:
        points_module.check_database(fabricsim, args.db, stopping)
        sweep = points_module.load_sweep(fabricsim, base_options(args), args.sweep, stopping)
    except Stopped:
        print(f"fabricsim-sweep: stopped by signal {stopping()} before any point ran", file=sys.stderr)
        return 128 + stopping()
    _show_warnings(sweep)
    jobs = args.jobs or (default_jobs() if args.backend == "local" else len(sweep.points))
    one_thread_each(sweep, args, jobs)
    if args.dry_run:
        return _dry_run(sweep, args, fabricsim, jobs)
    conn = open_target(args.db)
    sid = store.sweep_id(conn, sweep)
    merged = store.merged_keys(conn, sid)
    failed_before = store.failures(conn, sid)
    to_run, skipped_failed = [], []  # the points not merged yet; those that failed before, unless retried
    for p in sweep.points:
        if p.key not in merged:
            (skipped_failed if p.key in failed_before and not args.retry_failed else to_run).append(p)
    print(f"sweep {sid} of {sweep.study} into {args.db}: {len(sweep.points)} points, {len(merged)} merged "
          f"before, {len(skipped_failed)} failed before (not retried), {len(to_run)} to run "
          f"({args.backend}, {jobs} at a time)", file=sys.stderr)
    work = Work(args.db, sid, args.merge_attempt)
    if args.merge_attempt:
        backend = None  # the merge job of --no-wait: what the array's tasks left
    elif args.backend == "slurm":
        backend = SlurmBackend(jobs, args)
        if args.no_wait:
            return backend.submit_detached(sweep, fabricsim, to_run, work, args.db, sys.argv[1:] if argv is None else argv)
    else:
        backend = LocalBackend(jobs)
    progress = Progress(len(to_run))
    try:
        outcome = run_sweep(sweep, conn, sid, to_run, backend, fabricsim, work, progress, stopping)
    except SlurmError as e:  # sbatch or squeue missing or failing
        print(f"\nfabricsim-sweep: {e}", file=sys.stderr)
        return 2
    progress.close()
    work.remove_if_empty()
    return _report(sweep, outcome, failed_before, skipped_failed, args, stopping(), len(to_run))
