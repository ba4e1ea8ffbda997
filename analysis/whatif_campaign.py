"""whatif-campaign BINARY [--configs N] [--seed S] [--jobs J] [--report FILE]
[--keep DIR] [--platforms P,...]: random what-ifs that must obey the physics.

Draws N cases from declared ranges of the keys an architect changes (cable
lengths, spines, leaves, ports, buffers and windows, cell size, frame size,
traffic pattern and load, lossy or lossless, multicast with the packet
cache's size, mirrors and lag, VOQ sync and the trees' leaf order, link
errors; on the other platforms their own keys), runs each briefly and checks:

- every run: exit status 0 and "invariants: N checked, 0 broken" (the
  model's own invariants, model/invariants/), every copy accounted for
  when the run drained;
- cable: a longer leaf-spine cable never lowers the minimum latency of a
  remote copy at light load, and raises it by at least the extra flight
  (two spans), less the two leaves' clock phase (a cycle each) and the
  fastest copy's phase against its grant cycle (a frame spacing);
- load: lowering the offered load never raises the drops;
- capacity: more spines or bigger buffers never lower a lossless run's
  throughput beyond the seeds' interval (3 seeds each);
- job: a closed-loop job (random collective, algorithm, ranks and size)
  on a lossless fabric finishes, the run ended by it, its busbw never
  above one rank's link times the frame efficiency;
- E11: the zero-load latency of a local copy equals the hand formula at any
  cable length, cell size and frame size, and a remote copy's moves by at
  least the data's two spans of extra flight and at most six (request, grant
  and data each cross two; a frame still arriving when its grant is back
  hides the request's and grant's);
- warnings: a pre-run warning that states a bound ("at most X Gb/s") is not
  beaten by the run.

A failure prints the case's configuration and one command that reproduces
it. Exit status 0 when every case holds, 1 when one fails, 2 for bad input."""
import os
import random
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

from analysis.whatif_cases import KINDS, PLATFORM_SHARE
from analysis.whatif_runs import check_run, check_warnings, execute
from fabricpy import tool
from fabricpy.markdown import table
from fabricpy.option_values import did_you_mean
from fabricpy.errors import ReportError


def draw_cases(args):
    rng = random.Random(args.seed)
    platforms = args.platforms
    weights = [PLATFORM_SHARE[p] for p in platforms]
    cases = []
    for n in range(1, args.configs + 1):
        platform = rng.choices(platforms, weights)[0]
        makers, w = zip(*KINDS[platform])
        maker = rng.choices(makers, w)[0]
        cases.append(maker(n, rng, rng.randint(1, 10_000)))
    return cases


def run_case(binary, case, scratch):
    results = []
    for i, run in enumerate(case.runs):
        res = execute(binary, run, scratch, f"case{case.number}_{i}")
        if not check_run(case, res):
            return case
        if case.kind == "fabric":
            check_warnings(case, res, run.keys)
        results.append(res)
    case.judge(results)
    for res in results:
        if os.path.exists(res.db):
            os.remove(res.db)
    return case


# --- Report -----------------------------------------------------------------

def report(cases, args, out):
    failed = [c for c in cases if c.failures]
    refused = [c for c in cases if c.refused]
    by_kind = {}
    for c in cases:
        k = by_kind.setdefault(c.kind, [0, 0, 0, 0])
        k[0] += 1
        k[1] += len(c.runs)
        k[2] += bool(c.failures)
        k[3] += c.refused
    lines = [f"whatif-campaign: {len(cases)} cases (campaign seed {args.seed}), "
             f"{sum(len(c.runs) for c in cases)} runs, {len(failed)} failed, {len(refused)} refused as drawn; "
             f"{sum(c.bounds_checked for c in cases)} pre-run warnings held to the bound or effect they state", ""]
    lines.append(table(["kind", "cases", "runs", "failed", "refused"],
                       [[k, v[0], v[1], v[2], v[3]] for k, v in sorted(by_kind.items())]))
    for c in failed:
        lines.append("")
        lines.append(f"case {c.number} ({c.kind}: {c.relation}):")
        for what, numbers, run in c.failures:
            lines.append(f"  FAILED: {what}: {numbers}")
            lines.append(f"  reproduce: {run.repro()}")
    for c in refused:
        lines.append(f"case {c.number} ({c.kind}) refused: {c.refusal}")
    text = "\n".join(lines) + "\n"
    out.write(text)
    if args.report:
        with open(args.report, "w") as f:
            f.write(text)
    return 1 if failed else 0


def parse_args(argv):
    p = tool.Parser(prog="whatif-campaign", description=__doc__.split("\n\n")[0])
    p.add_argument("binary", help="the fabricsim binary")
    p.add_argument("--configs", type=int, default=40, help="cases to draw (default 40)")
    p.add_argument("--seed", type=int, default=1, help="the campaign's own seed: the same seed draws the same cases")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="cases at once")
    p.add_argument("--platforms", default="fabric,backplane,ibft,ring", help="platforms to draw from")
    p.add_argument("--report", help="also write the report to this file")
    p.add_argument("--keep", help="keep the runs' databases in this directory")
    args = p.parse_args(argv)
    args.platforms = [x for x in args.platforms.split(",") if x]
    for x in args.platforms:
        if x not in KINDS:
            raise ReportError(f"--platforms: '{x}' is not a platform (allowed: {', '.join(KINDS)})"
                              + did_you_mean(x, KINDS))
    if not 1 <= args.configs <= 100_000:
        raise ReportError(f"--configs {args.configs}: allowed 1 .. 100000")
    args.binary = tool.fabricsim_binary(args.binary)
    return args


def main(argv=None):
    def body():
        args = parse_args(sys.argv[1:] if argv is None else argv)
        with tool.scratch_dir(args.keep, "whatif-campaign-") as scratch:
            cases = draw_cases(args)
            done = 0
            with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                futures = [pool.submit(run_case, args.binary, c, scratch) for c in cases]
                for f in as_completed(futures):
                    f.result()
                    done += 1
                    if done * 10 // len(cases) != (done - 1) * 10 // len(cases):
                        print(f"whatif-campaign: {done} of {len(cases)} cases done", file=sys.stderr, flush=True)
            return report(cases, args, sys.stdout)
    return tool.run("whatif-campaign", body)
