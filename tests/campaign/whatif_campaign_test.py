#!/usr/bin/python3
"""scripts/whatif-campaign, the short form CI runs: 40 random what-ifs over
every platform hold (the invariants, every copy accounted for, the paired
relations, the warnings' bounds); a model whose cables are slower than the
physics the campaign computes by hand (a wrapper that sets 1 ns/m instead of
5) is caught, with a command that reproduces it; bad input is exit 2; the
zero-load frames of an E11 case never meet, however long its cable.

usage: whatif_campaign_test.py CASE   (ShortCampaignHolds, AWrongFlightIsCaught, BadInput,
                                       ZeroLoadFramesNeverMeet, JobCasesHold, AnUnfinishedJobIsCaught,
                                       CableCasesAreLightLoad)
FABRICSIM_BINARY names the build's fabricsim."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from script_tool import expect, run_tool, wrapped_binary  # noqa: E402

BINARY = os.environ["FABRICSIM_BINARY"]
CASE = sys.argv[1]


def campaign(*args):
    return run_tool("whatif-campaign", *args, timeout=1200)


if CASE == "ShortCampaignHolds":
    r = campaign(BINARY, "--configs", "40", "--seed", "1", "--jobs", "2")
    expect(r.returncode == 0, "40 what-ifs hold", r)
    expect("40 cases (campaign seed 1)" in r.stdout and ", 0 failed," in r.stdout, "the count and verdict", r)
    for kind in ("| cable |", "| load |", "| E11 |", "| fabric |"):
        expect(kind in r.stdout, f"the campaign drew {kind}", r)
elif CASE == "AWrongFlightIsCaught":
    with tempfile.TemporaryDirectory() as d:
        wrapper = wrapped_binary(d, BINARY, "topology.propagation_ns_per_m=1")
        r = campaign(wrapper, "--configs", "16", "--seed", "1", "--jobs", "2", "--platforms", "fabric")
    expect(r.returncode == 1, "the campaign fails", r)
    expect("FAILED: a longer cable raised the minimum remote latency by less than its flight" in r.stdout or
           "FAILED: a remote zero-load latency did not move by two to six spans" in r.stdout,
           "a relation of the cable names what broke", r)
    expect("reproduce: fabricsim --study " in r.stdout, "a command that reproduces it", r)
elif CASE == "BadInput":
    for args, needle in ((["--configs", "0"], "--configs 0"), (["--platforms", "fabric,nope"], "'nope'"),
                         (["--platforms", "fabric,rign"], "'rign' is not a platform (allowed: fabric, backplane, "
                                                          "ibft, ring); did you mean ring?"),
                         (["--confgs", "3"], "unrecognized arguments: --confgs 3; did you mean --configs?"),
                         ([], "not an executable")):
        binary = [] if not args and needle == "not an executable" else [BINARY]
        r = campaign(*(binary or ["/nonexistent/fabricsim"]), *args)
        expect(r.returncode == 2, f"{args}: exit status 2", r)
        expect(needle in r.stderr and "Traceback" not in r.stderr, f"{args}: one line naming it", r)
elif CASE in ("JobCasesHold", "AnUnfinishedJobIsCaught"):
    # Closed-loop jobs (issue 54): random collectives on random small fabrics,
    # lossless, finish with busbw under a rank's link; a job row that did not
    # finish, or a busbw above the link, is a failure of the case.
    import random
    import sqlite3
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    from analysis import whatif_campaign, whatif_cases, whatif_draws, whatif_runs

    def check(condition, what):
        if not condition:
            print("FAILED:", what)
            sys.exit(1)
    rng = random.Random(3)
    with tempfile.TemporaryDirectory() as d:
        if CASE == "JobCasesHold":
            kinds = set()
            for number in range(60):
                case = whatif_campaign.run_case(BINARY, whatif_cases.job_case(number, rng, 1), d)
                kinds.add(case.runs[0].keys["job.j.collective"])
                check(not case.failures and not case.refused,
                       f"job case {number} holds: {case.relation} ({case.runs[0].repro()})")
            check(len(kinds) >= 4, f"the cases drew several collectives ({sorted(kinds)})")
        else:
            case = whatif_cases.job_case(1, rng, 1)
            for row, what in (((None, 10, 20, None), "did not finish"), ((5, 20, 20, 99.0), "busbw above")):
                db = os.path.join(d, what.replace(" ", "_") + ".db")
                with sqlite3.connect(db) as conn:
                    conn.execute("CREATE TABLE jobs (end_ps, completed_operations, operations, busbw_gbps)")
                    conn.execute("INSERT INTO jobs VALUES (?, ?, ?, ?)", row)
                    conn.execute("CREATE TABLE runs (sim_time_ps)")
                    conn.execute("INSERT INTO runs VALUES (1000)")
                case.failures = []
                case.judge([whatif_runs.Result(case.runs[0], 0, "", "", db)])
                check(any(what in f[0] for f in case.failures), f"a job that {what} is a failure: {case.failures}")
elif CASE == "ZeroLoadFramesNeverMeet":
    # A remote frame and its ACK take eight spans of leaf-spine flight and a few us
    # more; the next frame must start after both (seed 57, case 211).
    import random
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    from analysis import whatif_campaign, whatif_cases, whatif_draws, whatif_runs
    rng = random.Random(211)
    for number in range(200):
        case = whatif_cases.e11_case(number, rng, 1)
        for run in case.runs:
            cable = float(run.keys["topology.leaf_spine_cable_m"])
            starts = sorted(float(v[:-2]) for k, v in run.keys.items() if k.endswith(".start"))
            gaps = [b - a for a, b in zip(starts, starts[1:])]
            need = 8 * cable * whatif_draws.NS_PER_M / 1000 + 5
            if len(starts) != 6 or min(gaps) < need or float(run.time[:-2]) < starts[-1] + need:
                sys.exit(f"FAILED: {cable} m: frames start at {starts} us (run {run.time}), "
                         f"a remote one and its ACK need {need:.1f} us")
elif CASE == "CableCasesAreLightLoad":
    # The cable relation holds for zero-load copies; a spine window short of the
    # longer cable's round trip queues every copy (seed 73, case 16). Both runs of
    # a cable case stay within what the fabric carries: no pre-run warning of a bound.
    import random
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    from analysis import whatif_campaign, whatif_cases, whatif_draws, whatif_runs
    rng = random.Random(73)
    with tempfile.TemporaryDirectory() as d:
        for number in range(60):
            for index, run in enumerate(whatif_cases.cable_case(number, rng, 1).runs):
                run.time = "1ns"
                res = whatif_runs.execute(BINARY, run, d, f"c{number}_{index}")
                expect(res.code == 0, f"cable case {number} runs", res)
                bounds = whatif_runs.warning_bounds(res)
                if bounds:
                    sys.exit(f"FAILED: cable case {number} at {run.keys['topology.leaf_spine_cable_m']} m warns of "
                             f"{bounds}: {run.repro()}")
else:
    sys.exit(f"unknown case {CASE}")
