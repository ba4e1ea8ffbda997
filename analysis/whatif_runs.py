"""Running a what-if campaign's case and reading its runs: the command, a
refusal of a key left at its default taken as an architect would, the
invariants' line, the figures the relations compare, and the bounds the
pre-run warnings state (analysis/whatif_campaign.py)."""
import os
import re
import sqlite3
import subprocess

from analysis.whatif_draws import MEASURE_FROM_US, SIM_TIME_US, STOP_US



class Run:
    def __init__(self, study, keys, seed, time):
        self.study, self.keys, self.seed, self.time = study, dict(keys), seed, time

    def command(self, binary, db):
        cmd = [binary, "--study", self.study, "--seed", str(self.seed), "--time", self.time, "--db", db]
        for k, v in self.keys.items():
            cmd += ["--set", f"{k}={v}"]
        return cmd

    def repro(self):
        sets = " ".join(f"--set '{k}={v}'" for k, v in self.keys.items())
        return f"fabricsim --study {self.study} --seed {self.seed} --time {self.time} {sets}"


class Result:
    def __init__(self, run, code, out, err, db):
        self.run, self.code, self.out, self.err, self.db = run, code, out, err, db

    def query(self, sql, args=()):
        with sqlite3.connect(self.db) as conn:
            return conn.execute(sql, args).fetchall()

    def scalar(self, sql, args=()):
        rows = self.query(sql, args)
        return rows[0][0] if rows else None


# A key left at its default that the drawn what-if makes too small or too large.
REFUSED = [re.compile(r"key '([^']+)' has value '[^']*'; allowed: \d+ B \.\. (\d+) (B)"),
           re.compile(r"key '([^']+)' has value '[^']*'; allowed: at least (\d+) (B|headers)")]


def execute(binary, run, scratch, name):
    """Runs it. A draw refused because a key left at its default no longer fits (leaf.pause.qhi
    with bigger cells or a longer CNA cable, the lossless header pool with multicast) is run again
    with that key at the value the refusal allows, as an architect would set it; the reproducing
    command names it."""
    db = os.path.join(scratch, name + ".db")
    for _ in range(3):
        if os.path.exists(db):
            os.remove(db)
        r = subprocess.run(run.command(binary, db), capture_output=True, text=True)
        m = next((m for m in (p.search(r.stderr) for p in REFUSED) if m), None) if r.returncode == 2 else None
        if not m or m.group(1) in run.keys:
            break
        run.keys[m.group(1)] = f"{m.group(2)}B" if m.group(3) == "B" else m.group(2)
        if m.group(1) == "leaf.pause.qhi":  # GO below STOP, at the spec's ratio (90 KB to 160 KB)
            run.keys["leaf.pause.qlow"] = f"{int(m.group(2)) * 9 // 16}B"
    return Result(run, r.returncode, r.stdout, r.stderr, db)


# --- Checks -----------------------------------------------------------------

class Case:
    """A drawn what-if: its runs and the relation they must keep."""

    def __init__(self, number, kind, runs, relation):
        self.number, self.kind, self.runs, self.relation = number, kind, runs, relation
        self.failures = []   # (what, numbers, the run to reproduce it)
        self.refused = False
        self.bounds_checked = 0  # pre-run warnings held to what they state

    def fail(self, what, numbers, run):
        self.failures.append((what, numbers, run))


def check_run(case, res):
    """Exit status, the invariants' line and the copies' account of one run."""
    if res.code == 2:
        case.refused = True  # a draw the tool refuses is not a finding: the campaign's ranges are
        case.refusal = (res.err.strip().splitlines() or ["(no message)"])[-1]
        return False
    if res.code != 0:
        last = [l for l in res.err.strip().splitlines() if l.strip()][-3:]
        case.fail(f"the run failed (exit status {res.code})", " / ".join(last), res.run)
        return False
    if not re.search(r"invariants: \d+ checked, 0 broken", res.out):
        case.fail("no invariants line", res.out[-300:], res.run)
        return False
    m = re.search(r"copies: (\d+) injected = (\d+) delivered \+ (\d+) dropped \+ (\d+)", res.out)
    if m and "(drained" not in res.out and res.run.study != "perm640":
        pass  # a run still busy at its end: checked as it went
    return True


def min_remote_latency(res, ports_per_leaf):
    """{frame bytes: smallest latency of a copy delivered to another leaf}."""
    rows = res.query("SELECT d.bytes, min(d.t_delivered_ps - f.t_created_ps) FROM deliveries d "
                     "JOIN frames f USING (run_id, frame_id) WHERE f.src_port / ? != d.dst_port / ? "
                     "AND d.surrogate_levels = 0 GROUP BY d.bytes HAVING count(*) >= 20",
                     (ports_per_leaf, ports_per_leaf))
    return {b: v for b, v in rows}


def drops(res):
    return res.scalar("SELECT count(*) FROM drops") or 0


def mean_port_gbps(res):
    """Mean receive rate per receiving port over [5, 20) us, wire Gb/s."""
    span_ps = (STOP_US - MEASURE_FROM_US) * 1e6
    rows = res.query("SELECT sum(bytes + 20) * 8000.0 / ? FROM deliveries WHERE t_delivered_ps >= ? "
                     "AND t_delivered_ps < ? GROUP BY dst_port",
                     (span_ps, MEASURE_FROM_US * 1e6, STOP_US * 1e6))
    return sum(r[0] for r in rows) / len(rows) if rows else 0.0




# What a pre-run warning says the run cannot beat, and how the run's figure is read.
BOUNDS = [
    (re.compile(r"each leaf-spine link carries at most ([0-9.]+) Gb/s"), "uplink"),
    (re.compile(r"each spine-leaf link carries at most ([0-9.]+) Gb/s"), "downlink"),
    (re.compile(r"each leaf-spine link waits for ACKs, at most ([0-9.]+) Gb/s"), "uplink"),
    (re.compile(r"a lossy flow to another leaf gets at most ([0-9.]+) Gb/s"), "pair"),
    (re.compile(r"a port receives at most ([0-9.]+) Gb/s from other leaves"), "port_in"),
    (re.compile(r"whose traffic to other leaves is at most ([0-9.]+) Gb/s"), "port_out"),
]
# Effects a warning predicts, and the rows of the run that show them.
EFFECTS = [("frames are dropped at the payload threshold", "payload",
            "SELECT count(*) FROM drops WHERE reason = 'payload'", "drops at the payload threshold"),
           ("PAUSE on headers stops the port", "pause_headers",
            "SELECT count(*) FROM events WHERE kind = 'pause_headers'", "a PAUSE for headers")]


def warning_bounds(res):
    """(what, Gb/s) of each bound the run's warnings state; ("payload", None) for a predicted drop."""
    bounds = []
    for (message,) in res.query("SELECT message FROM run_warnings"):
        for pattern, what in BOUNDS:
            m = pattern.search(message)
            if m:
                bounds.append((what, float(m.group(1))))
        for phrase, what, _, _ in EFFECTS:
            if phrase in message:
                bounds.append((what, None))
    return bounds


def link_gbps(res, suffix):
    """The busiest link of a direction: its data (packets) over the whole run, Gb/s. Sources that never
    stop: a rate over the whole run is at most the rate of any part of it."""
    value = res.scalar("SELECT max(t.value) * 8000.0 / r.sim_time_ps FROM v_run_totals t JOIN runs r USING (run_id) "
                       "WHERE t.metric = 'data_bytes' AND t.entity LIKE ?", ("%" + suffix,))
    return value or 0.0


def remote_gbps(res, ports_per_leaf, group_by):
    """The busiest port (or pair) over the second half of the run, frames from or to other leaves, frame Gb/s."""
    end = SIM_TIME_US * 1e6
    value = res.scalar(f"SELECT max(g) FROM (SELECT sum(d.bytes) * 8000.0 / ? AS g FROM deliveries d "
                       f"JOIN frames f USING (run_id, frame_id) WHERE f.src_port / ? != d.dst_port / ? "
                       f"AND d.t_delivered_ps >= ? GROUP BY {group_by})",
                       (end / 2, ports_per_leaf, ports_per_leaf, end / 2))
    return value or 0.0


def check_warnings(case, res, keys):
    ppl = keys["topology.user_ports_per_leaf"]
    for what, bound in warning_bounds(res):
        case.bounds_checked += 1
        effect = next((e for e in EFFECTS if e[1] == what), None)
        if effect:
            if not res.scalar(effect[2]):
                case.fail("a warning's predicted effect did not show",
                          f"it predicted {effect[3]}; the run had none", res.run)
            continue
        seen = {"uplink": lambda: link_gbps(res, "_up"), "downlink": lambda: link_gbps(res, "_down"),
                "pair": lambda: remote_gbps(res, ppl, "f.src_port, d.dst_port"),
                "port_in": lambda: remote_gbps(res, ppl, "d.dst_port"),
                "port_out": lambda: remote_gbps(res, ppl, "f.src_port")}[what]()
        if seen > bound * 1.02 + 0.05:
            case.fail("a run beat its pre-run warning's bound",
                      f"the warning says {what} at most {bound:g} Gb/s; the run carried {seen:.2f}", res.run)
