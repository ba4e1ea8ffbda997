"""The sampler of the commonest what-if with a target: the smallest (or
largest) value of one varied key that meets the constraints ("the smallest
cache that keeps every subflow above 95 Gb/s"). It assumes what the
question assumes, that the constraints hold from some value of the key on
(below it, for the largest), and finds that value by k-section: each batch
divides the interval between the largest value known to fail and the
smallest known to meet them (log or linear as the range is declared) into
jobs + 1 parts and tries the division points. It starts with the most
generous end of the range, which tells at once whether anything meets the
constraints. An integer key ends when the two are neighbours; a real key
when they are within a thousandth of the range (in log, of its ratio).

An Optuna sampler, so the study, its storage and its resumption are
Optuna's; it reads which trials met the constraints from the search's
table (feasible_of), so a resumed search continues its bisection."""
import math

import optuna
from optuna.trial import TrialState


class BoundarySampler(optuna.samplers.BaseSampler):
    def __init__(self, axis, direction, feasible_of, parts):
        self.axis, self.minimize, self.feasible_of, self.parts = axis, direction == "minimize", feasible_of, parts

    def infer_relative_search_space(self, study, trial):
        return {}

    def sample_relative(self, study, trial, search_space):
        return {}

    def _known(self, study):
        ok, fail = [], []
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
            feasible = self.feasible_of(t.number)
            if feasible is not None and self.axis.key in t.params:
                (ok if feasible else fail).append(float(t.params[self.axis.key]))
        return ok, fail

    def candidates(self, study):
        """The values left to try, in the order to try them; [] when done."""
        a = self.axis
        low, high = a.low, a.high
        generous, stingy = (high, low) if self.minimize else (low, high)
        ok, fail = self._known(study)
        if not ok:
            return [] if generous in fail else [generous]
        best = min(ok) if self.minimize else max(ok)
        beyond = [v for v in fail if (v < best if self.minimize else v > best)]
        edge = (max(beyond) if self.minimize else min(beyond)) if beyond else None
        # Between the edge (failed) and best (met); with no failure yet, from the stingy end on.
        start = edge if edge is not None else stingy
        if a.kind == "int":
            # The integers strictly between the edge and best (from the stingy end on, with no
            # failure yet), as their ends: a range of any width costs the same.
            if self.minimize:
                first, last = (int(edge) + 1 if edge is not None else int(low)), int(best) - 1
            else:
                first, last = int(best) + 1, (int(edge) - 1 if edge is not None else int(high))
            if first > last:
                return []
            if last - first + 1 <= self.parts:
                return list(range(first, last + 1)) if self.minimize else list(range(last, first - 1, -1))
            picked = []
            for p in self._division_points(start, best, last - first + 1):
                nearest = self._nearest_int(p, first, last)
                if nearest not in picked:
                    picked.append(nearest)
            return picked
        width = abs(self._scale(best) - self._scale(start))
        if width <= abs(self._scale(high) - self._scale(low)) / 1000:
            return []
        return self._division_points(start, best, None)

    def _nearest_int(self, p, first, last):
        """The integer in first..last nearest to p on the axis' scale (the lower on a tie)."""
        below, above = max(first, min(last, math.floor(p))), max(first, min(last, math.ceil(p)))
        return min((below, above), key=lambda v: (abs(self._scale(v) - self._scale(p)), v))

    def _scale(self, v):
        return math.log(v) if self.axis.log else v

    def _unscale(self, s):
        return math.exp(s) if self.axis.log else s

    def _division_points(self, start, best, room):
        n = self.parts if room is None else min(self.parts, room)
        s0, s1 = self._scale(start), self._scale(best)
        return [self._unscale(s0 + (s1 - s0) * (i + 1) / (n + 1)) for i in range(n)]

    def converged(self, study):
        return not self.candidates(study)

    def sample_independent(self, study, trial, param_name, param_distribution):
        # Built for a search of this one key only: every value asked for is its.
        running = {float(t.params[param_name]) for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
                   if param_name in t.params and t.number != trial.number}
        left = self.candidates(study)
        untried = [v for v in left if v not in running] or left
        if untried:
            value = untried[0]
        else:  # converged: the answer again (a design already run: nothing runs)
            ok, _ = self._known(study)
            value = (min(ok) if self.minimize else max(ok)) if ok else (self.axis.high if self.minimize else self.axis.low)
        return int(round(value)) if self.axis.kind == "int" else float(value)
