"""The search loop: Optuna asks for designs (TPE for one objective, NSGA-II
for a trade-off front, both with the constraints), each batch of designs
runs as one sweep of the sweep runner (every design with every value of the
robustness axes and every seed, merged into the database), and each design's
evaluation is told back. The Optuna study lives in the same database file
(its own tables), and every design's runs are sweep runs: a stopped search
rerun with the same command continues, its finished trials kept and a
design already run never run again."""
import json
import math
import warnings

import optuna
from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution
from optuna.trial import TrialState
from sqlalchemy.pool import NullPool

from fabricpy import lock_wait
from sweep import points as points_module
from sweep import store
from sweep.progress import Progress
from sweep.runner import Work, run_sweep

from .boundary_sampler import BoundarySampler
from .evaluation import combinations, evaluate

optuna.logging.set_verbosity(optuna.logging.WARNING)
warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)


def optuna_storage(db):
    """Optuna's storage in the file `db`, opened by its path: a URL would read
    a '?' or '#' in the name as the start of a query (q?a.db: the file 'q')."""
    return optuna.storages.RDBStorage("sqlite://", engine_kwargs={
        "creator": lambda: lock_wait.connect(db, store.LOCK_WAIT_SECONDS, "fabricsim-search"),
        "poolclass": NullPool})


class SearchStopped(Exception):
    """Told to stop (a signal): what finished is kept."""


def distributions(declaration):
    d = {}
    for a in declaration.search_axes():
        if a.kind == "int":
            d[a.key] = IntDistribution(int(a.low), int(a.high), log=a.log)
        elif a.kind == "real":
            d[a.key] = FloatDistribution(a.low, a.high, log=a.log)
        else:
            d[a.key] = CategoricalDistribution(list(a.choices))
    return d


def value_text(axis, value):
    if axis.kind == "int":
        return str(int(value))
    if axis.kind == "real":
        return repr(float(value))
    return str(value)


def design_of(declaration, params):
    return {a.key: value_text(a, params[a.key]) for a in declaration.search_axes()}


def design_text(design):
    return "; ".join(f"{k}={v}" for k, v in design.items())


def search_id(conn, study, declaration, base, seeds):
    """The search's row, made on first use: the same study, declaration,
    shared options and seeds are the same search (resuming it)."""
    return store.identity_row(conn, "searches", "search_id", {"study": study, "declaration": declaration.text(),
                                                              "base": " ".join(base), "seeds": seeds})


def runs_by_values(conn, sid):
    """{sorted (key, value) pairs of a run's swept values: (run_id, sim_time_ps)} of the search's runs."""
    runs = {}
    for run_id, sim_time_ps, key, value in conn.execute(
            "SELECT sr.run_id, r.sim_time_ps, sv.key, sv.value FROM search_sweeps ss "
            "JOIN sweep_runs sr ON sr.sweep_id = ss.sweep_id JOIN runs r ON r.run_id = sr.run_id "
            "JOIN sweep_values sv ON sv.run_id = sr.run_id WHERE ss.search_id = ?", (sid,)):
        runs.setdefault((run_id, sim_time_ps), []).append((key, value))
    return {tuple(sorted(pairs)): run for run, pairs in runs.items()}


def sweep_options(declaration, designs, seeds):
    """The --sweep options of one batch: the designs paired, crossed with the robustness axes and the seeds."""
    sweeps = ["inherit=false"]  # the study's own [sweep] section is not the search's
    sweeps += [f"{a.key}={','.join(d[a.key] for d in designs)}" for a in declaration.search_axes()]
    if len(declaration.search_axes()) > 1:
        sweeps.append("together=" + ",".join(a.key for a in declaration.search_axes()))
    sweeps += [f"{a.key}={','.join(a.choices)}" for a in declaration.robust_axes()]
    sweeps.append("sim.seed=" + ",".join(str(s) for s in range(1, seeds + 1)))
    return sweeps


def checked_designs(declaration):
    """The designs fabricsim --points checks before the search starts, so
    that a key or a value it refuses is said before anything runs: the
    lowest and the highest design (each choice axis' first and last value),
    then each choice axis' every value with the others at their lowest
    (--vary leaf.cache.entries=4,abc,8: 'abc' refused, not told infeasible)."""
    def at(end):
        return {a.key: (value_text(a, a.low if end == 0 else a.high) if a.kind != "choice" else a.choices[-end])
                for a in declaration.search_axes()}
    batches = [[at(0), at(1)] if at(0) != at(1) else [at(0)]]
    for a in declaration.search_axes():
        if a.kind == "choice" and len(a.choices) > 2:
            batches.append([dict(at(0), **{a.key: c}) for c in a.choices[1:-1]])
    return batches


class Search:
    def __init__(self, conn, db, study, declaration, base, seeds, fabricsim, backend, jobs, sampler_seed,
                 stopping, one_thread_each, log):
        self.conn, self.db, self.declaration, self.base = conn, db, declaration, base
        self.seeds, self.fabricsim, self.backend, self.jobs = seeds, fabricsim, backend, jobs
        self.stopping, self.one_thread_each, self.log = stopping, one_thread_each, log
        self.sid = search_id(conn, study, declaration, base, seeds)
        # Trial number -> its violations, for the sampler: first whether fabricsim
        # accepted the design (1: refused), then one per constraint (<= 0: met).
        self.violations = {}

        def constraints(t):
            return self.violations[t.number]
        axes = declaration.search_axes()
        self.boundary = None
        if (len(declaration.objectives) == 1 and len(axes) == 1 and axes[0].kind in ("int", "real")
                and declaration.objectives[0].name == axes[0].key):
            # The smallest (largest) value of the one searched key that meets the constraints.
            sampler = self.boundary = BoundarySampler(axes[0], declaration.objectives[0].direction, self.feasible,
                                                      jobs)
        elif len(declaration.objectives) == 1:
            sampler = optuna.samplers.TPESampler(seed=sampler_seed, constraints_func=constraints,
                                                 n_startup_trials=5, multivariate=True)
        else:
            sampler = optuna.samplers.NSGAIISampler(seed=sampler_seed, constraints_func=constraints,
                                                    population_size=max(4, 2 * jobs))
        self.study = optuna.create_study(
            storage=optuna_storage(db), study_name=f"fabricsim-search-{self.sid}", load_if_exists=True,
            directions=[o.direction for o in declaration.objectives], sampler=sampler)
        self.distributions = distributions(declaration)

    def feasible(self, number):
        """Whether trial `number` met the constraints (None: not recorded, or failed)."""
        row = self.conn.execute("SELECT feasible FROM search_trials WHERE search_id = ? AND trial = ?",
                                (self.sid, number)).fetchone()
        return None if row is None or row[0] is None else bool(row[0])

    def trials(self, states):
        return self.study.get_trials(deepcopy=False, states=states)

    def run(self, budget):
        """Asks, runs and tells until `budget` trials are finished (complete or
        failed); raises SearchStopped when told to stop."""
        while True:
            left = self._asked_before()
            finished = self.conn.execute("SELECT count(*) FROM search_trials WHERE search_id = ?",
                                         (self.sid,)).fetchone()[0]
            if not left and (finished >= budget or (self.boundary and self.boundary.converged(self.study))):
                return
            batch = [(t.number, design_of(self.declaration, t.params)) for t in left]
            size = min(self.jobs, budget - finished)
            if self.boundary:  # no more designs than values left to try
                size = min(size, max(1, len(self.boundary.candidates(self.study))))
            while len(batch) < size:
                trial = self.study.ask(self.distributions)
                batch.append((trial.number, design_of(self.declaration, trial.params)))
            self._run_batch(batch)
            if self.stopping():
                raise SearchStopped()

    def _asked_before(self):
        """The trials a stopped search asked for and did not tell: run first. One killed
        between Optuna's ask and its draw has no design: it is closed, uncounted (the
        budget counts the trials the search table holds)."""
        left = []
        for t in self.trials((TrialState.RUNNING,)):
            if set(t.params) == set(self.distributions):
                left.append(t)
            else:
                self.study.tell(t.number, state=TrialState.FAIL)
        return left

    def _run_batch(self, batch):
        """Runs the batch's designs that have no runs yet (each once), then tells every trial."""
        known = runs_by_values(self.conn, self.sid)
        evaluations, to_run = {}, []
        for _, design in batch:
            if design_text(design) not in evaluations:
                evaluations[design_text(design)] = evaluate(self.conn, self.declaration, design, known, self.seeds)
                if evaluations[design_text(design)] is None:
                    to_run.append(design)
        sweep, refused = self._load(to_run) if to_run else (None, {})
        if sweep is not None:
            self._sweep(sweep, [d for d in to_run if design_text(d) not in refused])
            known = runs_by_values(self.conn, self.sid)
            for d in to_run:
                if design_text(d) not in refused:
                    evaluations[design_text(d)] = evaluate(self.conn, self.declaration, d, known, self.seeds)
        stopped = self.stopping()
        for number, design in batch:
            if stopped and design_text(design) not in refused and evaluations[design_text(design)] is None:
                continue  # a stop cut its runs short: the trial stays running, and the rerun runs it
            if design_text(design) in refused:
                # Infeasible, not failed: the sampler learns to keep away from such designs.
                self._record(number, design, None, "refused")
                self.violations[number] = [1.0] * (1 + len(self.declaration.constraints))
                self.study.tell(number, [math.inf if o.direction == "minimize" else -math.inf
                                         for o in self.declaration.objectives])
                continue
            e = evaluations[design_text(design)]
            self._record(number, design, e)
            if e is None:
                self.study.tell(number, state=TrialState.FAIL)
                continue
            self.violations[number] = [0.0] + e.violations
            self.study.tell(number, e.objectives)

    def _load(self, designs):
        """(The sweep of the designs fabricsim accepts, or None; {design text:
        why} of those it refuses, a value of one key against another's, say).
        The refused are told as infeasible trials, not run; design by design
        only when the whole batch is refused."""
        def load(some):
            return points_module.load_sweep(self.fabricsim, self.base,
                                            sweep_options(self.declaration, some, self.seeds), self.stopping)
        try:
            return load(designs), {}
        except points_module.SweepError:
            pass
        refused = {}
        for d in designs:
            try:
                load([d])
            except points_module.SweepError as e:
                refused[design_text(d)] = str(e).splitlines()[0]
                self.log(f"design refused by fabricsim, told as an infeasible trial: {design_text(d)}: "
                         f"{refused[design_text(d)]}")
        accepted = [d for d in designs if design_text(d) not in refused]
        return (load(accepted) if accepted else None), refused

    def _sweep(self, sweep, designs):
        """Runs the batch's sweep (the designs paired, crossed with the robustness axes and the seeds)."""
        self.one_thread_each(sweep)
        sweep_id = store.sweep_id(self.conn, sweep)
        self.conn.execute("INSERT OR IGNORE INTO search_sweeps(search_id, sweep_id) VALUES (?, ?)",
                          (self.sid, sweep_id))
        merged = store.merged_keys(self.conn, sweep_id)
        # A design a stop cut short has some runs in another batch's sweep: those are not run again.
        made = runs_by_values(self.conn, self.sid)
        points = [p for p in sweep.points
                  if p.key not in merged and tuple(sorted(tuple(v) for v in p.values())) not in made]
        self.log(f"batch of {len(designs)} design(s), {len(points)} run(s): "
                 + " | ".join(design_text(d) for d in designs))
        work = Work(self.db, sweep_id)
        progress = Progress(len(points))
        outcome = run_sweep(sweep, self.conn, sweep_id, points, self.backend, self.fabricsim, work, progress,
                            self.stopping)
        progress.close()
        work.remove_if_empty()
        for point, status, tail in outcome.failed:
            self.log(f"point FAILED (exit status {status}): {point.key}\n    " +
                     "\n    ".join(tail.rstrip().splitlines()[-3:]))

    def _record(self, number, design, e, status=None):
        names = self.declaration.figure_names()
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.execute(
                "INSERT OR REPLACE INTO search_trials(search_id, trial, design, status, feasible, objectives, runs) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (self.sid, number, design_text(design), status or ("failed" if e is None else "complete"),
                 None if e is None else int(e.feasible()), None if e is None else json.dumps(e.objectives),
                 None if e is None else " ".join(str(r) for r in e.runs)))
            if e is not None:
                for combination in combinations(self.declaration):
                    for name in names:
                        f = e.figures[(combination, name)]
                        self.conn.execute(
                            "INSERT OR REPLACE INTO search_figures(search_id, trial, combination, name, mean, "
                            "half_width, seeds) VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (self.sid, number, design_text(dict(combination)), name, f.mean, f.half, f.n))
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
