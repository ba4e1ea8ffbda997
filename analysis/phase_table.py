"""phase-table DB --phases FROM-TO,... [--flow NAME] [--focus PORT] [--over-seeds]:
mean receive rate of each subflow of a flow in each phase of a run, for
every run in the database, as Markdown.

Without --focus: one table per run, a row per subflow. With --focus PORT:
one row per run, and per phase the focus subflow's rate, then the mean and
lowest of the flow's other subflows (E4: the congested subflow against the
uncongested ones). Rates are Gb/s of frame bytes. With --over-seeds the runs
of each study (its seeds: `fabricsim-sweep STUDY --sweep seeds=1-5`) are one
table or row, each rate the mean over them with its 95 % interval (with
--focus: the focus subflow, then the mean of the others)."""

from fabricpy import tool
from fabricpy.confidence import values_text
from analysis.labels import duration
from fabricpy.markdown import table
from fabricpy.rates import gbps
from fabricpy.option_values import LONGEST_PS, parse_duration_ps
from fabricpy.errors import ReportError
from analysis.rundb import open_database, run_ids


# A phase is a column and a scan of each run's deliveries: more than this is a mistake.
MAX_PHASES = 1000


def parse_phases(text):
    items = text.split(",")
    if len(items) > MAX_PHASES:
        raise ReportError(f"--phases: {len(items)} phases; at most {MAX_PHASES}")
    phases = []
    for item in items:
        ends = [parse_duration_ps(e, bare_ps=False) for e in item.split("-")]
        if len(ends) != 2 or None in ends:
            raise ReportError(f"--phases '{text}': expected FROM-TO,... such as 0.5ms-1ms,1ms-2ms")
        a, b = ends
        if b <= a:
            raise ReportError(f"--phases {text}: '{item}' ends before it starts")
        if b > LONGEST_PS:
            raise ReportError(f"--phases {text}: '{item}' ends after any run can")
        phases.append((item.strip(), a, b))
    return phases


def check_phases(phases, text, run_id, sim_time_ps):
    """Every phase ends by the end of a finished run: a rate over time not
    simulated would be too low. (A run that stopped early shows its status.)"""
    for item, _, b in phases:
        if b > sim_time_ps:
            raise ReportError(f"--phases {text}: '{item}' ends after run {run_id}, which is "
                              f"{duration(sim_time_ps)}")


def subflow_rates(conn, run_id, flow_id, phases):
    """{dst_port: [Gb/s per phase]} for the flow's destinations."""
    dests = [d for (d,) in conn.execute("SELECT dst_port FROM flow_dests WHERE run_id = ? AND flow_id = ? "
                                        "ORDER BY dst_port", (run_id, flow_id))]
    rates = {d: [] for d in dests}
    for _, a, b in phases:
        got = dict(conn.execute("SELECT dst_port, sum(bytes) FROM deliveries WHERE run_id = ? AND flow_id = ? "
                                "AND t_delivered_ps >= ? AND t_delivered_ps < ? GROUP BY dst_port",
                                (run_id, flow_id, a, b)))
        for d in dests:
            rates[d].append(gbps(got.get(d, 0), b - a))
    return rates


def cell(values):
    return values_text(values, 1)


def print_over_seeds(by_study, phases, args):
    """by_study: {study: [rates of each run]}, in the order first run."""
    rows = []
    for study, runs in by_study.items():
        ports = list(runs[0])
        if any(list(r) != ports for r in runs):
            raise ReportError(f"--over-seeds: the runs of {study} do not send to the same ports")
        label = f"{study} ({len(runs)} run{'s' if len(runs) != 1 else ''})"
        if args.focus is None:
            print(f"\n{label}, flow {args.flow}, mean over the runs with its 95 % interval:\n")
            print(table(["subflow"] + [ph for ph, _, _ in phases],
                        [[f"{args.flow} -> {d}"] + [cell([r[d][i] for r in runs]) for i in range(len(phases))]
                         for d in ports]))
            continue
        line = [label]
        for i in range(len(phases)):
            others = [sum(rs[i] for d, rs in r.items() if d != args.focus) / (len(r) - 1) for r in runs]
            line.append(f"{cell([r[args.focus][i] for r in runs])} / {cell(others)}")
        rows.append(line)
    if args.focus is not None:
        print(table(["study"] + [ph for ph, _, _ in phases], rows))
    return 0


def print_tables(args):
    phases = parse_phases(args.phases)
    conn = open_database(args.db)
    ids = run_ids(conn)
    if not ids:
        raise ReportError(f"'{args.db}' holds no runs yet")
    rows = []
    by_study = {}
    for run_id in ids:
        study, status, sim_time_ps = conn.execute("SELECT study, status, sim_time_ps FROM runs WHERE run_id = ?",
                                                  (run_id,)).fetchone()
        if status == "done":
            check_phases(phases, args.phases, run_id, sim_time_ps)
        found = conn.execute("SELECT flow_id FROM flows WHERE run_id = ? AND name = ?",
                             (run_id, args.flow)).fetchone()
        if found is None:
            raise ReportError(f"--flow {args.flow}: run {run_id} has no flow named '{args.flow}'")
        rates = subflow_rates(conn, run_id, found[0], phases)
        if args.focus is not None and args.focus not in rates:
            raise ReportError(f"--focus {args.focus}: run {run_id}'s flow {args.flow} does not go there "
                              f"(it goes to {', '.join(map(str, rates)) or 'no port'})")
        if args.focus is not None and len(rates) < 2:
            raise ReportError(f"--focus {args.focus}: run {run_id}'s flow {args.flow} goes nowhere else, so there "
                              "is nothing to set it against")
        if args.over_seeds:
            by_study.setdefault(study, []).append(rates)
            continue
        if args.focus is None:
            print(f"\nRun {run_id} ({study}, {status}), flow {args.flow}:\n")
            print(table(["subflow"] + [ph for ph, _, _ in phases],
                        [[f"{args.flow} -> {d}"] + [f"{r:.1f}" for r in rs] for d, rs in rates.items()]))
            continue
        others = [rs for d, rs in rates.items() if d != args.focus]
        line = [f"{study} (run {run_id})" if status == "done" else f"{study} (run {run_id}, {status})"]
        for i in range(len(phases)):
            values = [rs[i] for rs in others]
            line.append(f"{rates[args.focus][i]:.1f} / {sum(values) / len(values):.1f} (min {min(values):.1f})")
        rows.append(line)
    if args.over_seeds:
        return print_over_seeds(by_study, phases, args)
    if args.focus is not None:
        print(table(["run"] + [ph for ph, _, _ in phases], rows))
    return 0


def main(argv=None):
    p = tool.Parser(prog="phase-table", description=__doc__.split("\n\n")[0])
    p.add_argument("db")
    p.add_argument("--phases", required=True, metavar="FROM-TO,...")
    p.add_argument("--flow", default="f1", metavar="NAME", help="the flow (default f1)")
    p.add_argument("--focus", type=int, metavar="PORT", help="one row per run: this subflow against the others")
    p.add_argument("--over-seeds", action="store_true",
                   help="one table (or row) per study: each rate the mean over its runs, with its 95 %% interval")
    return tool.run("phase-table", lambda: print_tables(p.parse_args(argv)))
