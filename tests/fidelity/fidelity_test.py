#!/usr/bin/python3
"""scripts/fidelity, the short form CI runs: the short checks give the
verdicts they are known to give (exit 0, "0 changed"); a model that breaks
a behaviour (a wrapper that turns the packet cache off: E1b's subflows fall)
is named CHANGED and fails; a calibration tried with --set reaches the
runs of its key's platform only; bad input is exit 2 with one line.

usage: fidelity_test.py CASE   (ShortChecksKeepTheirVerdicts, AChangedVerdictFails,
                               ATrialReachesItsPlatformsRunsOnly, BadInput)
FABRICSIM_BINARY names the build's fabricsim."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from script_tool import expect, run_tool, wrapped_binary  # noqa: E402

BINARY = os.environ["FABRICSIM_BINARY"]
CASE = sys.argv[1]


def fidelity(*args):
    return run_tool("fidelity", *args, timeout=600)


if CASE == "ShortChecksKeepTheirVerdicts":
    r = fidelity(BINARY, "--short", "--jobs", "2")
    expect(r.returncode == 0, "the short checks keep their verdicts", r)
    expect("| check | behaviour (document) | expected | measured | verdict |" in r.stdout, "one table", r)
    expect("; 0 changed" in r.stdout and "| E11 |" in r.stdout and "| E12 |" in r.stdout, "the verdict line", r)
elif CASE == "AChangedVerdictFails":
    with tempfile.TemporaryDirectory() as d:
        wrapper = wrapped_binary(d, BINARY, "leaf.cache.enable=false")
        r = fidelity(wrapper, "--check", "E1b")
    expect(r.returncode == 1, "a changed verdict fails", r)
    expect("DISAGREES (CHANGED: was agrees)" in r.stdout and "; 1 changed" in r.stdout, "named CHANGED", r)
elif CASE == "ATrialReachesItsPlatformsRunsOnly":
    # A calibration tried with --set: the fabric key turns E1b red; a ring
    # key leaves the fabric's runs alone and moves the ring's E14.
    r = fidelity(BINARY, "--check", "E1b", "--set", "leaf.cache.enable=false")
    expect(r.returncode == 1 and "DISAGREES (CHANGED: was agrees)" in r.stdout, "the fabric key reached E1b", r)
    r = fidelity(BINARY, "--check", "E1b", "--check", "E14", "--set", "ring.delayed_retry=false", "--set",
                 "ring.backoff=false", "--set", "ring.q_adaptive=false", "--set", "ring.q=0")
    expect("| E1b |" in r.stdout and "| E1b | " in r.stdout, "both checks in the table", r)
    expect("E1b" in r.stdout and "agrees |" in r.stdout.split("| E1b |")[1].splitlines()[0], "E1b untouched", r)
    expect("DISAGREES (CHANGED: was agrees)" in r.stdout.split("| E14 |")[1].splitlines()[0], "E14 moved", r)
elif CASE == "BadInput":
    for args, needle in (([BINARY, "--check", "E99"], "--check E99"), (["/nonexistent/fabricsim"], "not an executable"),
                         ([BINARY, "--set", "novalue"], "--set novalue")):
        r = fidelity(*args)
        expect(r.returncode == 2, f"{args}: exit status 2", r)
        expect(needle in r.stderr and "Traceback" not in r.stderr, f"{args}: one line naming it", r)
else:
    sys.exit(f"unknown case {CASE}")
