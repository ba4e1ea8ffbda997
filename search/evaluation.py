"""A design's figures over its runs: for each combination of the robustness
axes (:all), the mean over the seeds of every objective and constrained
figure with its 95 % interval; then the design's objective values (the
worst over the combinations) and each constraint's pessimistic end (the
interval's end away from the bound, the worst over the combinations)."""
import itertools
import math
from dataclasses import dataclass, field

from fabricpy.confidence import half_width, mean_sd

from . import run_metrics


@dataclass
class Figure:
    mean: float
    half: float  # the 95 % interval's half-width; 0 with one seed (no interval)
    n: int


@dataclass
class Evaluation:
    design: dict                                       # {key: value text}
    runs: list = field(default_factory=list)           # run ids
    figures: dict = field(default_factory=dict)        # {(combination, name): Figure}
    objectives: list = field(default_factory=list)     # one value per objective
    violations: list = field(default_factory=list)     # one per constraint, <= 0: met
    pessimistic: list = field(default_factory=list)    # each constraint's pessimistic end

    def feasible(self):
        return all(v <= 0 for v in self.violations)


def combinations(declaration):
    """Every combination of the robustness axes' values, as ((key, value), ...)."""
    axes = declaration.robust_axes()
    return [tuple(zip([a.key for a in axes], values)) for values in itertools.product(*[a.choices for a in axes])]


def evaluate(conn, declaration, design, runs_by_values, seeds):
    """The Evaluation of `design` from the runs whose swept values match it,
    or None while one of its points (combination, seed) has no run."""
    e = Evaluation(design)
    names = declaration.figure_names()
    for combination in combinations(declaration):
        wanted = {**design, **dict(combination)}
        values = {name: [] for name in names}
        for seed in range(1, seeds + 1):
            run = runs_by_values.get(tuple(sorted({**wanted, "sim.seed": str(seed)}.items())))
            if run is None:
                return None
            run_id, sim_time_ps = run
            e.runs.append(run_id)
            for name in names:
                v = run_metrics.value(conn, name, run_id, sim_time_ps, declaration.warmup_ps)
                values[name].append(math.nan if v is None else float(v))
        for name in names:
            mean, sd, n = mean_sd(values[name])
            e.figures[(combination, name)] = Figure(mean, half_width(sd, n) or 0.0, n)
    combos = combinations(declaration)
    for o in declaration.objectives:
        means = [e.figures[(c, o.name)].mean for c in combos]
        e.objectives.append(max(means) if o.direction == "minimize" else min(means))
    for c in declaration.constraints:
        ends = [e.figures[(k, c.name)].mean - e.figures[(k, c.name)].half if c.wants_high()
                else e.figures[(k, c.name)].mean + e.figures[(k, c.name)].half for k in combos]
        worst = min(ends) if c.wants_high() else max(ends)
        e.pessimistic.append(worst)
        e.violations.append(math.inf if math.isnan(worst) else c.violation(worst))
    return e
