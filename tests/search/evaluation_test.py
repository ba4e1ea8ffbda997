#!/usr/bin/python3
"""A design's evaluation (search/evaluation.py), on a database made by hand:
the mean of a figure over the seeds with its 95 % interval per value of the
robustness axis, the objective as the worst over those values, and a
constraint at the pessimistic end of the interval. The figure is a key's
value (run_params.number), so no fabricsim runs.

Run: /usr/bin/python3 tests/search/evaluation_test.py"""
import math
import os
import sqlite3
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, ROOT)
from fabricpy.confidence import t975  # noqa: E402
from search.declaration import parse  # noqa: E402
from search.evaluation import evaluate  # noqa: E402

# The figure "x" of each run: (frame size, seed) -> value, for design c=32.
X = {("512", 1): 90.0, ("512", 2): 94.0, ("512", 3): 98.0, ("9022", 1): 99.0, ("9022", 2): 99.0, ("9022", 3): 99.0}


def database():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE run_params (run_id INTEGER, key TEXT, value TEXT, number REAL)")
    runs = {}
    for run_id, ((size, seed), x) in enumerate(sorted(X.items()), start=1):
        conn.execute("INSERT INTO run_params VALUES (?, 'x', ?, ?)", (run_id, str(x), x))
        runs[tuple(sorted({"c": "32", "size": size, "sim.seed": str(seed)}.items()))] = (run_id, 1_000_000)
    return conn, runs


class Evaluation(unittest.TestCase):
    def setUp(self):
        self.conn, self.runs = database()

    def declared(self, op, bound, direction="minimize"):
        return parse(["c=4..128:int", "size=512,9022:all"], ["x"] if direction == "minimize" else [],
                     ["x"] if direction == "maximize" else [], [f"x {op} {bound}"])

    def test_means_intervals_and_the_worst_value(self):
        e = evaluate(self.conn, self.declared(">=", 95), {"c": "32"}, self.runs, 3)
        small = e.figures[((("size", "512"),), "x")]
        self.assertAlmostEqual(small.mean, 94.0)
        self.assertAlmostEqual(small.half, t975(2) * 4.0 / math.sqrt(3))  # sd of 90, 94, 98 is 4
        self.assertEqual(small.n, 3)
        self.assertEqual(e.figures[((("size", "9022"),), "x")].half, 0.0)  # three equal values
        self.assertEqual(e.objectives, [99.0])  # minimize: the worst is the highest
        self.assertAlmostEqual(e.pessimistic[0], 94.0 - small.half)  # >=: the interval's low end
        self.assertFalse(e.feasible())
        self.assertEqual(sorted(e.runs), list(range(1, 7)))

    def test_a_bound_met_by_every_pessimistic_end(self):
        e = evaluate(self.conn, self.declared(">=", 80, "maximize"), {"c": "32"}, self.runs, 3)
        self.assertEqual(e.objectives, [94.0])  # maximize: the worst is the lowest mean
        self.assertTrue(e.feasible())
        e = evaluate(self.conn, self.declared("<=", 99.5), {"c": "32"}, self.runs, 3)
        self.assertFalse(e.feasible())  # <=: the high end of 512's interval is above 99.5

    def test_a_missing_run_leaves_the_design_unevaluated(self):
        del self.runs[next(iter(self.runs))]
        self.assertIsNone(evaluate(self.conn, self.declared(">=", 95), {"c": "32"}, self.runs, 3))


if __name__ == "__main__":
    unittest.main(verbosity=2)
