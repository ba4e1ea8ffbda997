#!/usr/bin/python3
"""scripts/equivalence, the short form CI runs: one build against itself
passes (every figure the same); a changed default (E2a's cache from 16 to
128 entries, --set-after) fails, naming the figures it moved; bad input is
exit 2 with one line.

usage: equivalence_test.py CASE   (SameBuildPasses, AChangedDefaultFails, BadInput)
FABRICSIM_BINARY names the build's fabricsim."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from script_tool import expect, run_tool  # noqa: E402

BINARY = os.environ["FABRICSIM_BINARY"]
CASE = sys.argv[1]


def equivalence(*args):
    return run_tool("equivalence", *args)


short = ["E2a", "--seeds", "3", "--time", "200us", "--jobs", "2"]
if CASE == "SameBuildPasses":
    r = equivalence(BINARY, BINARY, *short)
    expect(r.returncode == 0, "a build against itself passes", r)
    expect("| subflow_gbps_mean | Gb/s |" in r.stdout and "0 figures differ" in r.stdout, "the table and verdict", r)
elif CASE == "AChangedDefaultFails":
    r = equivalence(BINARY, BINARY, *short, "--set-after", "leaf.cache.entries=128")
    expect(r.returncode == 1, "a changed default fails", r)
    rows = [line for line in r.stdout.splitlines() if line.startswith("| subflow_gbps_mean ")]
    expect(len(rows) == 1 and rows[0].endswith("| DIFFERS |"), "the mean throughput moved", r)
    expect("| drops | copies | 0 | 0 | 0 | - | same |" in r.stdout, "what did not move is the same", r)
elif CASE == "BadInput":
    for args, said in [((BINARY, BINARY, "E99"), "study 'E99' is not shipped"),
                       ((BINARY, BINARY, "E2a", "--seeds", "1"), "--seeds is 1; allowed: 2-100"),
                       ((BINARY, "/nonexistent/fabricsim", "E2a"), "AFTER is '/nonexistent/fabricsim'"),
                       ((BINARY, BINARY, "E2a", "--set-after", "nokey"), "expected KEY=VALUE")]:
        r = equivalence(*args)
        expect(r.returncode == 2 and said in r.stderr and len(r.stderr.strip().splitlines()) == 1,
               f"{args}: exit 2 with one line naming it", r)
    r = equivalence(BINARY, BINARY, "E2a", "--seeds", "2", "--time", "10us", "--set-after", "leaf.cache.entries=0")
    expect(r.returncode == 1 and "a run failed" in r.stderr and "leaf.cache.entries" in r.stderr,
           "a run that fails is named with its command and message", r)
else:
    sys.exit("unknown case " + CASE)
print("passed:", CASE)
