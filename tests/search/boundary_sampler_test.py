#!/usr/bin/python3
"""The boundary search (search/boundary_sampler.py) on an in-memory Optuna
study, with a threshold known by hand: it k-sects a range of any width in
time and memory independent of the width (issue 52, N1: 16KB..1GB listed
every integer and ended in a MemoryError), finds the exact boundary of an
integer key and of a real one within a thousandth of the range, and asks
no value twice. No fabricsim runs.

Run: /usr/bin/python3 tests/search/boundary_sampler_test.py"""
import os
import sys
import time
import unittest
import warnings

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, ROOT)
import optuna  # noqa: E402
from optuna.distributions import FloatDistribution, IntDistribution  # noqa: E402

from search.boundary_sampler import BoundarySampler  # noqa: E402
from search.declaration import parse_axis  # noqa: E402

optuna.logging.set_verbosity(optuna.logging.WARNING)
warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)


def search(vary, threshold, direction="minimize", parts=2, budget=200, key_type=None):
    """Runs the sampler until it converges: a value meets the constraint at
    or above `threshold` (at or below it, when maximizing). Returns (answer,
    values asked, seconds)."""
    axis = parse_axis(vary, key_type)
    feasible = {}
    sampler = BoundarySampler(axis, direction, feasible.get, parts)
    study = optuna.create_study(direction=direction, sampler=sampler)
    dist = {axis.key: IntDistribution(int(axis.low), int(axis.high), log=axis.log) if axis.kind == "int"
            else FloatDistribution(axis.low, axis.high, log=axis.log)}
    asked = []
    start = time.monotonic()
    while not sampler.converged(study) and len(asked) < budget:
        batch = [study.ask(dist) for _ in range(max(1, min(parts, len(sampler.candidates(study)))))]
        for trial in batch:
            value = trial.params[axis.key]
            asked.append(value)
            feasible[trial.number] = value >= threshold if direction == "minimize" else value <= threshold
            study.tell(trial, value)
    ok = [v for n, v in enumerate(asked) if feasible[n]]
    answer = (min(ok) if direction == "minimize" else max(ok)) if ok else None
    return answer, asked, time.monotonic() - start


class BoundarySearch(unittest.TestCase):
    def test_a_gigabyte_wide_integer_range_costs_what_a_narrow_one_does(self):
        answer, asked, seconds = search("backplane.memory=16KB..1GB:log", 3_000_001, key_type="bytes")
        self.assertEqual(answer, 3_000_001)
        self.assertLess(len(asked), 80)
        self.assertLess(seconds, 30)  # a bound for a hang, not a timing: the old code never ended

    def test_an_instance_key_is_a_key(self):
        # Issue 57: leaf[3].cache.entries, leaf[0-7,12].voq.threshold are keys to vary.
        for key in ("leaf[3].cache.entries", "leaf[0-7,12].cache.entries", "link[leaf0_spine1_up].errors.ber"):
            self.assertEqual(parse_axis(f"{key}=4..128:int").key, key)
        answer, _, _ = search("leaf[3].cache.entries=4..128:int", 17, key_type="integer")
        self.assertEqual(answer, 17)

    def test_candidates_of_a_wide_range_are_few(self):
        axis = parse_axis("k=1..4000000000:int")
        sampler = BoundarySampler(axis, "minimize", {0: True, 1: False}.get, 4)
        study = optuna.create_study(sampler=sampler)
        for value in (4_000_000_000, 1):
            trial = study.ask({"k": IntDistribution(1, 4_000_000_000)})
            study.tell(trial, value)
        self.assertEqual(len(sampler.candidates(study)), 4)

    def test_exact_integer_boundary_linear_and_log(self):
        for vary in ("c=4..128:int", "c=4..128:int:log", "c=1..100000:int:log"):
            for threshold in (4, 5, 17, 64, 127, 128):
                for parts in (1, 2, 3):
                    with self.subTest(vary=vary, threshold=threshold, parts=parts):
                        answer, asked, _ = search(vary, threshold, parts=parts)
                        self.assertEqual(answer, threshold)
                        self.assertEqual(len(asked), len(set(asked)), "a value asked twice")

    def test_exact_integer_boundary_when_maximizing(self):
        for threshold in (4, 9, 100, 128):
            answer, asked, _ = search("c=4..128:int", threshold, direction="maximize", parts=3)
            self.assertEqual(answer, threshold)
            self.assertEqual(len(asked), len(set(asked)))

    def test_real_boundary_within_a_thousandth(self):
        answer, _, _ = search("x=0.5..80:real", 33.3, parts=2)
        self.assertLessEqual(33.3, answer)
        self.assertLess(answer - 33.3, (80 - 0.5) / 1000 * 2)

    def test_nothing_meets(self):
        answer, asked, _ = search("c=4..1GB:int", 2**31, key_type="bytes")
        self.assertIsNone(answer)
        self.assertEqual(len(asked), 1)  # the most generous end tells it at once


if __name__ == "__main__":
    unittest.main()
