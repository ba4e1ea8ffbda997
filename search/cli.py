"""fabricsim-search: finds the smallest design that meets a target, or the
trade-off front of several objectives, in a few dozen runs instead of a
grid: Optuna proposes designs of the varied keys (--vary), each runs as the
points of a sweep (every value of the robustness axes, :all, and every
seed), and the figures of its runs (--minimize, --maximize, --subject-to)
are told back. Rerun with the same command, it continues where it stopped.

Exit status: 0 an answer; 1 no design met the constraints within the
budget, or a run failed; 2 bad input, before anything runs, another search
on the same file, or a full disk (one line; the rerun continues); 128 +
the signal when stopped (what finished is kept, and the designs the stop
cut short run first on the rerun)."""
import argparse
import os
import subprocess
import sys

from fabricpy import tool
from fabricpy.option_values import did_you_mean, duration_ps, output_file
from fabricpy.errors import ReportError

from sweep import cli as sweep_cli
from sweep import points as points_module
from sweep.children import Stopped
from sweep.local_backend import LocalBackend, default_jobs
from sweep.slurm_backend import SlurmBackend

from fabricpy import param_descriptions

from . import declaration as declaration_module
from . import run_metrics
from . import names as names_module
from . import results
from . import search_lock
from .engine import Search, SearchStopped, checked_designs, sweep_options

PROG = "fabricsim-search"
MAX_SAMPLER_SEED = 2**32 - 1  # numpy's, under Optuna's samplers


def _parser():
    p = tool.Parser(prog=PROG, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sweep_cli.add_run_options(p, db_default="search.db")
    p.add_argument("--vary", action="append", default=[], metavar="KEY=LOW..HIGH[:int|:real][:log] | KEY=A,B[:all]",
                   help="a key to search over a range or a set of values; :all: every value must meet the "
                        "constraints (a robustness axis); may repeat")
    p.add_argument("--minimize", action="append", default=[], metavar="NAME", help="an objective: a figure or a key")
    p.add_argument("--maximize", action="append", default=[], metavar="NAME", help="an objective to maximize")
    p.add_argument("--subject-to", action="append", default=[], metavar="'NAME OP NUMBER'",
                   help="a constraint, e.g. 'min_subflow_gbps >= 95'; it holds on the pessimistic end of the "
                        "figure's 95 %% interval over the seeds; may repeat")
    p.add_argument("--warmup", metavar="DURATION",
                   help="where the run metrics start (20us): a rate, latency or drop count from then on; default 0.5 ms "
                        "of runs of 1 ms or more, else none (end-of-run totals always cover the whole run)")
    p.add_argument("--seeds", type=int, help="runs per design and robustness value (seeds 1..N; default 1)")
    p.add_argument("--trials", type=int, help="designs to try in all (default 30); a rerun with more continues")
    p.add_argument("--sampler-seed", type=int, default=0, help=f"the sampler's seed, 0-{MAX_SAMPLER_SEED} "
                                                                "(default 0)")
    p.add_argument("--plot", metavar="PREFIX", help="write PREFIX-history.png (the objectives against the trials) "
                                                    "and, with two objectives, PREFIX-front.png")
    p.add_argument("--list-figures", action="store_true", help="list the figures a search may use and exit")
    return p


def results_unit(conn, name, fabricsim):
    """The unit of a figure: a run metric's, a key's (--list-params), or the catalog's."""
    entry = param_descriptions.find(name, fabricsim)
    return run_metrics.unit(conn, name, {name: entry[1]} if entry else {})


SEARCH_NAMES = ("vary", "minimize", "maximize", "subject_to", "seeds", "trials", "warmup")


def study_search(fabricsim, base):
    """The study's [search] section ({name: [values]}), as fabricsim reads the
    study and its includes (`fabricsim --search-lines`)."""
    r = subprocess.run([fabricsim, *base, "--search-lines"], capture_output=True, text=True)
    if r.returncode != 0:
        raise points_module.SweepError(r.stderr.strip().removeprefix("fabricsim: ") or
                                       f"fabricsim --search-lines failed ({r.returncode})")
    lines = {}
    for line in r.stdout.splitlines():
        name, _, value = (part.strip() for part in line.partition(" = "))
        if name not in SEARCH_NAMES:
            raise declaration_module.DeclarationError(
                f"[search] {name} = {value}: unknown name; allowed: {', '.join(SEARCH_NAMES)}"
                + did_you_mean(name, SEARCH_NAMES))
        lines.setdefault(name, []).append(value)
    return lines


def as_vary(message, declaration):
    """fabricsim's refusal of a batch's --sweep, said of the --vary the user gave
    ("--sweep: key 'K' has value '4,64'" -> "--vary K=4..64: key 'K' has value '4,64'")."""
    for axis in declaration.axes:
        words = f"--sweep: key '{axis.key}' "
        if words in message:
            return message.replace(words, f"--vary {axis.text()}: key '{axis.key}' ", 1)
    return message


def merged_vary(study, given):
    """The study's varied keys, each replaced by the command line's of the same key, then the command line's others."""
    keys = {v.split("=", 1)[0].strip() for v in given}
    return [v for v in study if v.split("=", 1)[0].strip() not in keys] + list(given)


def _count(lines, name, default):
    values = lines.get(name)
    if not values:
        return default
    try:
        return int(values[-1])
    except ValueError:
        raise declaration_module.DeclarationError(f"[search] {name} = {values[-1]}: not a whole number") from None


def main(argv=None):
    return tool.run(PROG, lambda: _main(argv))


def _check_options(args):
    """The options fabricsim does not check, before anything runs."""
    if args.study is None and not args.config:
        raise ReportError("name a study or give --config")
    sweep_cli.check_jobs(args)
    if not 0 <= args.sampler_seed <= MAX_SAMPLER_SEED:
        raise ReportError(f"--sampler-seed {args.sampler_seed}: allowed 0-{MAX_SAMPLER_SEED}")
    if args.plot is not None:
        output_file("--plot", f"{args.plot}-history.png")


def _main(argv):
    stopping = sweep_cli.stop_signals()
    args = _parser().parse_args(argv)
    fabricsim = sweep_cli.fabricsim_binary(args)
    if args.list_figures:
        print(names_module.figures_text(fabricsim))
        return 0
    _check_options(args)
    base = sweep_cli.base_options(args)
    try:
        study_lines = study_search(fabricsim, base)
        vary = merged_vary(study_lines.get("vary", []), args.vary)
        objectives = (args.minimize, args.maximize) if args.minimize or args.maximize else \
            (study_lines.get("minimize", []), study_lines.get("maximize", []))
        constraints = args.subject_to or study_lines.get("subject_to", [])
        args.seeds = args.seeds if args.seeds is not None else _count(study_lines, "seeds", 1)
        args.trials = args.trials if args.trials is not None else _count(study_lines, "trials", 30)
        for option, value, low, high in (("--seeds", args.seeds, 1, 1000), ("--trials", args.trials, 1, 100000)):
            if not low <= value <= high:
                raise declaration_module.DeclarationError(f"{option} {value}: allowed {low}-{high}")
        declaration = declaration_module.parse(vary, *objectives, constraints, key_type=lambda key: (
            param_descriptions.find(key, fabricsim) or (None,))[0])
        warmup = args.warmup if args.warmup is not None else (study_lines.get("warmup") or [None])[-1]
        if warmup is not None:
            declaration.warmup_ps = duration_ps("--warmup", warmup)
        names_module.check(declaration, fabricsim, args.record)
        points_module.check_database(fabricsim, args.db, stopping)
        for designs in checked_designs(declaration):  # fabricsim's own checks of the keys and every value listed
            try:
                points_module.load_sweep(fabricsim, base, sweep_options(declaration, designs, 1), stopping)
            except points_module.SweepError as e:
                raise points_module.SweepError(as_vary(str(e), declaration)) from None
    except Stopped:
        print(f"{PROG}: stopped by signal {stopping()} before anything ran", file=sys.stderr)
        return 128 + stopping()
    jobs = args.jobs or (default_jobs() if args.backend == "local" else 8)
    backend = SlurmBackend(jobs, args) if args.backend == "slurm" else LocalBackend(jobs)
    conn = sweep_cli.open_target(args.db)
    db = os.path.abspath(args.db)
    search_lock.hold(db, args.db)  # one search per file at a time

    def log(text):
        print(f"{PROG}: {text}", file=sys.stderr)

    search = Search(conn, db, args.study or "config", declaration, base, args.seeds, fabricsim, backend, jobs,
                    args.sampler_seed, stopping, lambda sweep: sweep_cli.one_thread_each(sweep, args, jobs), log)
    log(f"search {search.sid} into {args.db}: {args.trials} trials, {args.seeds} seed(s) each, {jobs} at a time")
    try:
        search.run(args.trials)
    except (SearchStopped, Stopped):  # between batches, or while fabricsim listed a batch's points
        log(f"stopped by signal {stopping()}: the finished trials are kept; rerun the same command to continue")
        return 128 + stopping()
    except run_metrics.FigureError as e:
        raise ReportError(str(e)) from None
    status = _answer(conn, search, declaration, args, fabricsim)
    if stopping():  # a stop while the answer was written: said, not a traceback nor a death by the signal
        log(f"stopped by signal {stopping()} while writing the answer; every trial is kept: rerun the same command "
            "to see the answer again (nothing runs again)")
        return 128 + stopping()
    return status


def _answer(conn, search, declaration, args, fabricsim):
    """Prints the best design or the front (and plots it, with --plot); the exit status."""
    text, count = results.answer_table(conn, search.sid, declaration)
    grid = results.grid_runs(declaration, args.seeds)
    runs = results.runs_of(conn, search.sid)
    print(f"search {search.sid}: {len(results.trials(conn, search.sid))} trials, {runs} runs"
          + (f" (the full grid: {grid} runs)" if grid else ""))
    if count == 0:
        closest = results.closest(conn, search.sid, declaration)
        print("no design met the constraints within the budget (--trials more, or relax --subject-to)"
              + (f"; the closest: {closest}" if closest else ""))
        for line in results.ceilings(conn, search.sid, declaration):
            print(line)
        return 1
    print("best design:" if len(declaration.objectives) == 1 else f"the front ({count} designs):")
    print(text)
    if args.plot:
        from . import plots
        units = {o.name: results_unit(conn, o.name, fabricsim) for o in declaration.objectives}
        plots.history_plot(conn, search.sid, declaration, f"{args.plot}-history.png", units)
        written = [f"{args.plot}-history.png"]
        if len(declaration.objectives) == 2:
            plots.front_plot(conn, search.sid, declaration, results.chosen(declaration, results.trials(conn, search.sid)),
                             f"{args.plot}-front.png", units)
            written.append(f"{args.plot}-front.png")
        print("plots: " + ", ".join(written))
    return 0
