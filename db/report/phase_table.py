"""phase-table DB --phases FROM-TO,... [--flow NAME] [--focus PORT]: mean
receive rate of each subflow of a flow in each phase of a run, for every
run in the database, as Markdown.

Without --focus: one table per run, a row per subflow. With --focus PORT:
one row per run, and per phase the focus subflow's rate, then the mean and
lowest of the flow's other subflows (E4: the congested subflow against the
uncongested ones). Rates are Gb/s of frame bytes."""
import argparse
import re
import sys

from report.markdown import table
from report.metrics import gbps
from report.rundb import ReportError, open_database, run_ids

_SCALE = {"ps": 1, "ns": 10**3, "us": 10**6, "ms": 10**9, "s": 10**12}
_TIME = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(ps|ns|us|ms|s)\s*$")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ReportError(message)


def parse_phases(text):
    phases = []
    for item in text.split(","):
        ends = item.split("-")
        matches = [_TIME.match(e) for e in ends]
        if len(ends) != 2 or not all(matches):
            raise ReportError(f"--phases '{text}': expected FROM-TO,... such as 0.5ms-1ms,1ms-2ms")
        a, b = (int(round(float(m.group(1)) * _SCALE[m.group(2)])) for m in matches)
        if b <= a:
            raise ReportError(f"--phases: '{item}' ends before it starts")
        phases.append((item.strip(), a, b))
    return phases


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


def main(argv=None):
    try:
        p = _Parser(prog="phase-table", description=__doc__.split("\n\n")[0])
        p.add_argument("db")
        p.add_argument("--phases", required=True, metavar="FROM-TO,...")
        p.add_argument("--flow", default="f1", metavar="NAME", help="the flow (default f1)")
        p.add_argument("--focus", type=int, metavar="PORT", help="one row per run: this subflow against the others")
        args = p.parse_args(argv)
        phases = parse_phases(args.phases)
        conn = open_database(args.db)
        rows = []
        for run_id in run_ids(conn):
            study, status = conn.execute("SELECT study, status FROM runs WHERE run_id = ?", (run_id,)).fetchone()
            found = conn.execute("SELECT flow_id FROM flows WHERE run_id = ? AND name = ?",
                                 (run_id, args.flow)).fetchone()
            if found is None:
                raise ReportError(f"run {run_id} has no flow named '{args.flow}'")
            rates = subflow_rates(conn, run_id, found[0], phases)
            if args.focus is None:
                print(f"\nRun {run_id} ({study}, {status}), flow {args.flow}:\n")
                print(table(["subflow"] + [ph for ph, _, _ in phases],
                            [[f"{args.flow} -> {d}"] + [f"{r:.1f}" for r in rs] for d, rs in rates.items()]))
                continue
            if args.focus not in rates:
                raise ReportError(f"--focus {args.focus}: run {run_id}'s flow {args.flow} does not go there")
            others = [rs for d, rs in rates.items() if d != args.focus]
            line = [f"{study} (run {run_id})"]
            for i in range(len(phases)):
                values = [rs[i] for rs in others]
                line.append(f"{rates[args.focus][i]:.1f} / {sum(values) / len(values):.1f} (min {min(values):.1f})")
            rows.append(line)
        if args.focus is not None:
            print(table(["run"] + [ph for ph, _, _ in phases], rows))
        return 0
    except ReportError as e:
        print(f"phase-table: {e}", file=sys.stderr)
        return 2
