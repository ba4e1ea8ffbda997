"""fidelity BINARY [--short] [--check ID ...] [--set KEY=VALUE ...] [--pages DIR] [--jobs J] [--keep DIR]: does
the model still show the behaviour the documents name?

Each check is one behaviour `experiments.md` or `platforms.md` expects of a
study, measured from the study's runs (over seeds where it depends on them)
and compared with what the document says, with a stated tolerance. The
suite prints one table: check, behaviour, expected, measured, verdict
(agrees / DISAGREES). Each check also records the verdict the model gave
when the check was written (`known`): a check whose verdict changes is
named as CHANGED, and a change that turns one red says why in its commit.
--short runs the checks whose runs take seconds (what CI runs).
Exit status 0 when no verdict changed, 1 when one did or a run failed,
2 for bad input."""
import datetime
import os
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from statistics import mean

from analysis import fidelity_pages
from fabricpy import tool
from analysis.cookbook import run_query
from fabricpy.markdown import table
from analysis.metrics import jain_index
from fabricpy.errors import ReportError


class Run:
    """One fabricsim run a check reads: study, seed, keys, simulated time."""

    def __init__(self, study, seed=1, time=None, sets=()):
        self.study, self.seed, self.time, self.sets = study, seed, time, tuple(sets)

    def key(self):
        return (self.study, self.seed, self.time, self.sets)

    def command(self, binary, db):
        cmd = [binary, "--study", self.study, "--seed", str(self.seed), "--db", db, "--quiet"]
        if self.time:
            cmd += ["--time", self.time]
        for s in self.sets:
            cmd += ["--set", s]
        return cmd

    def text(self):
        sets = "".join(f" --set {s}" for s in self.sets)
        return f"--study {self.study} --seed {self.seed}{' --time ' + self.time if self.time else ''}{sets}"


def scalar(db, sql, args=()):
    with sqlite3.connect(db) as conn:
        row = conn.execute(sql, args).fetchone()
    return row[0] if row else None


def rows(db, sql, args=()):
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, args).fetchall()


def subflow_gbps(db, t0_ps=None, t1_ps=None):
    """{(flow name, destination port): frame Gb/s} over [t0, t1), or the whole run."""
    if t0_ps is None:
        t0_ps, t1_ps = 0, scalar(db, "SELECT sim_time_ps FROM runs")
    got = rows(db, "SELECT f.name, d.dst_port, sum(d.bytes) * 8000.0 / ? FROM deliveries d "
                   "JOIN flows f USING (run_id, flow_id) WHERE d.t_delivered_ps >= ? AND d.t_delivered_ps < ? "
                   "GROUP BY f.name, d.dst_port", (t1_ps - t0_ps, t0_ps, t1_ps))
    return {(name, port): gbps for name, port, gbps in got}


def flow_gbps(db, name, t0_ps, t1_ps):
    return sum(g for (n, _), g in subflow_gbps(db, t0_ps, t1_ps).items() if n == name)


def latency_ns(db, name):
    return scalar(db, "SELECT v.latency_ps / 1000.0 FROM v_latency v JOIN flows f USING (run_id, flow_id) "
                      "WHERE f.name = ?", (name,))


def jain(values):
    return float(jain_index(list(values))[0])


class Check:
    """A behaviour: the runs it reads, how it is measured and judged."""

    def __init__(self, id, source, behaviour, expected, runs, measure, holds, known, short=False):
        self.id, self.source, self.behaviour, self.expected = id, source, behaviour, expected
        self.runs, self.measure, self.holds, self.known, self.short = runs, measure, holds, known, short


MS = 1_000_000_000  # ps
US = 1_000_000

# E11's published delays (ns), local and remote: the calibration table (docs/studies/E11.md).
E11_PUBLISHED = {"local_512": 143, "local_1522": 350, "local_9022": 1900,
                 "remote_512": 1880, "remote_1522": 2100, "remote_9022": 3600}


def e6_ratio(dbs):
    """f6 / f1 over 20-100 ms, per seed (f6 into port 1, f1 into port 0)."""
    return [flow_gbps(db, "f6", 20 * MS, 100 * MS) / flow_gbps(db, "f1", 20 * MS, 100 * MS) for db in dbs]


def e3_rates(db):
    """The subflows' rates in header order (the flow's destinations as listed: 1, 5, 10, ...)."""
    rates = subflow_gbps(db)
    return [rates.get(("f1", p), 0.0) for p in (1, 5, 10, 15, 20, 25, 30, 35)]


FULL = 99 * 1522 / 1542  # a 99G source's frame bytes, Gb/s


def rates_in(db, name, t0_ps, t1_ps, ports):
    """A flow's rate into each of `ports` over [t0, t1)."""
    r = subflow_gbps(db, t0_ps, t1_ps)
    return [r.get((name, p), 0.0) for p in ports]


def e5_jains(db):
    """Jain's index of f1-f4 at port 0 over 20-100, 120-200 and 220-300 ms."""
    return [jain(flow_gbps(db, f, a * MS, b * MS) for f in ("f1", "f2", "f3", "f4")) for a, b in
            ((20, 100), (120, 200), (220, 300))]


def total_value(db, metric):
    return scalar(db, "SELECT value FROM v_run_totals WHERE metric = ? AND entity_kind = 'system'", (metric,))


def query_row(db, name, **params):
    """The first row of db/queries/<name>.sql on a run's database, by column."""
    with sqlite3.connect(db) as conn:
        columns, got = run_query(conn, name, **params)
    return dict(zip(columns, got[0]))


def remote_ack_us(db):
    """A remote copy's mean time from admission to its ACK (db/queries/control_overhead.sql), us."""
    return query_row(db, "control_overhead", run=1)["hold_ns"] / 1000


E14_Q = (1, 2, 3, 4, 6, 8)


def backplane(db):
    """The backplane run's figures (db/queries/backplane_figures.sql) by column."""
    return query_row(db, "backplane_figures")


def columns_of(figures, keys):
    """Each key's values over a list of runs' figures."""
    return [[f[k] for f in figures] for k in keys]


def best_q(dbs):
    """Per group pattern (E14_Q's runs in a row each), the fixed q of the highest throughput."""
    n = len(E14_Q)
    return [E14_Q[max(range(n), key=lambda i: total_value(dbs[g + i], "throughput_gbps"))]
            for g in range(0, len(dbs), n)]


def port_mean_gbps(db, t0_ps, t1_ps):
    """The mean receive rate of the ports that received, frame Gb/s over [t0, t1)."""
    return scalar(db, "SELECT sum(bytes) * 8000.0 / ? / count(DISTINCT dst_port) FROM deliveries "
                      "WHERE t_delivered_ps >= ? AND t_delivered_ps < ?", (t1_ps - t0_ps, t0_ps, t1_ps)) or 0.0


def e9(load, sync, seed):
    return Run("E9", seed=seed, sets=(f"traffic.load_gbps={load}", f"leaf.sync.enable={sync}"))


def fmt(values):
    return ", ".join(fmt(v) if isinstance(v, (list, tuple)) else f"{v:.3g}" for v in values)


CHECKS = [
    Check("E1a", "experiments.md E1", "without the cache the rate per subflow falls as 1 / the fanout",
          "a fanout of 2 gives 4 x the rate per subflow of a fanout of 8 (± 10 %)",
          [Run("E1a", time="1ms", sets=("flow.f1.dst=1,2",)), Run("E1a", time="1ms")],
          lambda dbs: mean(subflow_gbps(dbs[0]).values()) / mean(subflow_gbps(dbs[1]).values()),
          lambda r: abs(r / 4 - 1) <= 0.10, "agrees", short=True),
    Check("E1b", "experiments.md E1", "with the cache every subflow stays at the offered rate",
          "the slowest of 8 subflows >= 97 % of the offered 97.7 Gb/s of frame bytes",
          [Run("E1b", time="1ms")], lambda dbs: min(subflow_gbps(dbs[0], 500 * US, 1 * MS).values()),
          lambda g: g >= 0.97 * 99 * 1522 / 1542, "agrees", short=True),
    Check("E2a", "experiments.md E2", "without sync a small cache loses most of the throughput",
          "C = 16, 1522 B: the mean subflow rate below 50 % of the offered 97.7 Gb/s (the paper: below 30)",
          [Run("E2a", time="1ms")], lambda dbs: mean(subflow_gbps(dbs[0], 500 * US, 1 * MS).values()),
          lambda g: g < 0.5 * FULL, "DISAGREES", short=True),
    Check("E2a-64", "experiments.md E2 (the paper's figure)", "without sync the loss is only below 64 entries",
          "C = 64, 1522 B: the mean subflow rate >= 95 % of the offered 97.7 Gb/s",
          [Run("E2a", time="1ms", sets=("leaf.cache.entries=64",))],
          lambda dbs: mean(subflow_gbps(dbs[0], 500 * US, 1 * MS).values()), lambda g: g >= 0.95 * FULL,
          "DISAGREES", short=True),
    Check("E2b", "experiments.md E2", "with sync even a 16-entry cache keeps full rate (1522 B)",
          "C = 16: the slowest subflow >= 95 % of 97.7 Gb/s", [Run("E2b", time="1ms")],
          lambda dbs: min(subflow_gbps(dbs[0], 500 * US, 1 * MS).values()), lambda g: g >= 0.95 * FULL,
          "DISAGREES", short=True),
    Check("E2b-jumbo", "experiments.md E2", "... except for jumbo frames (36 packets a frame)",
          "C = 16, 9022 B: the slowest subflow below 95 % of the offered rate",
          [Run("E2b", time="1ms", sets=("flow.f1.frame_size=9022",))],
          lambda dbs: min(subflow_gbps(dbs[0], 500 * US, 1 * MS).values()),
          lambda g: g < 0.95 * 99 * 9022 / 9042, "agrees", short=True),
    Check("E3a", "experiments.md E3", "fixed header order: very unequal rates, ranked exactly by header order",
          "rates strictly decreasing in header order, the first >= 3 x the last",
          [Run("E3a")], lambda dbs: e3_rates(dbs[0]),
          lambda r: all(a > b for a, b in zip(r, r[1:])) and r[0] >= 3 * r[-1], "agrees", short=True),
    Check("E3b", "experiments.md E3", "random header order: nearly equal rates",
          "Jain's index of the 8 subflows >= 0.99", [Run("E3b")], lambda dbs: jain(e3_rates(dbs[0])),
          lambda j: j >= 0.99, "agrees", short=True),
    Check("E3-ack", "experiments.md E3 (the published study's figure)", "a remote copy of the 99G flow is ACKed "
          "about 3.5 us after admission (the hold-off's calibration)",
          "E3b: the mean admission-to-ACK time of remote copies 3.5 us (± 10 %)", [Run("E3b")],
          lambda dbs: remote_ack_us(dbs[0]), lambda us: abs(us / 3.5 - 1) <= 0.10, "agrees", short=True),
    Check("E3c", "experiments.md E3", "RED: close to random order",
          "mean subflow rate within 15 % of E3b's, Jain >= 0.95", [Run("E3c"), Run("E3b")],
          lambda dbs: (mean(e3_rates(dbs[0])) / mean(e3_rates(dbs[1])), jain(e3_rates(dbs[0]))),
          lambda m: abs(m[0] - 1) <= 0.15 and m[1] >= 0.95, "agrees", short=True),
    Check("E4a", "experiments.md E4", "pool drops only: every subflow capped at the congested one's share, and "
          "still capped after 4 ms (the cache thrashed)",
          "the uncongested subflows' mean below 50 % of 97.7 Gb/s over 1.1-2 ms, and below 80 % over 4.2-5 ms",
          [Run("E4a", time="5ms")],
          lambda dbs: [mean(rates_in(dbs[0], "f1", a, b, (2, 3, 4, 5, 10, 15, 20)))
                       for a, b in ((1100 * US, 2 * MS), (4200 * US, 5 * MS))],
          lambda m: m[0] < 0.5 * FULL and m[1] < 0.8 * FULL, "agrees"),
    Check("E4e", "experiments.md E4", "drop from head + sync: the uncongested subflows at full rate throughout",
          "the slowest uncongested subflow over 1.1-4 ms >= 95 % of 97.7 Gb/s", [Run("E4e", time="4ms")],
          lambda dbs: min(rates_in(dbs[0], "f1", 1100 * US, 4 * MS, (2, 3, 4, 5, 10, 15, 20))),
          lambda g: g >= 0.95 * FULL, "agrees"),
    Check("E4d", "experiments.md E4", "tail drop + sync is worse than tail drop alone",
          "the uncongested subflows' mean over 1.1-4 ms: E4d below E4c",
          [Run("E4d", time="4ms"), Run("E4c", time="4ms")],
          lambda dbs: [mean(rates_in(db, "f1", 1100 * US, 4 * MS, (2, 3, 4, 5, 10, 15, 20))) for db in dbs],
          lambda m: m[0] < m[1], "agrees"),
    Check("E5a", "experiments.md E5", "CPs at outputs: unfair, drifting shares",
          "Jain's index of f1-f4 below 0.95 in some window of 20-100, 120-200, 220-300 ms, on each of seeds 1-3",
          [Run("E5a", seed=s) for s in (1, 2, 3)], lambda dbs: [min(e5_jains(db)) for db in dbs],
          lambda j: all(x < 0.95 for x in j), "agrees"),
    Check("E5b", "experiments.md E5", "CPs at inputs: equal shares that re-converge when f5 comes and goes",
          "Jain's index of f1-f4 >= 0.99 over 20-100 and 220-300 ms, seeds 1-3",
          [Run("E5b", seed=s) for s in (1, 2, 3)], lambda dbs: [min(e5_jains(db)[0], e5_jains(db)[2]) for db in dbs],
          lambda j: all(x >= 0.99 for x in j), "agrees"),
    Check("E6a", "experiments.md E6", "PAUSE only: f6 keeps a 7:3 ratio to f1",
          "f6 / f1 over 20-100 ms = 2.33 (± 15 %)", [Run("E6a", time="100ms")], lambda dbs: e6_ratio(dbs)[0],
          lambda r: abs(r / (7 / 3) - 1) <= 0.15, "agrees"),
    Check("E6b", "experiments.md E6", "input CPs, arrival sampling: the innocent f6 throttled down to f1's rate",
          "f6 / f1 over 20-100 ms = 1 (± 25 %) on each of seeds 1-3",
          [Run("E6b", seed=s, time="100ms") for s in (1, 2, 3)], e6_ratio,
          lambda r: all(abs(x - 1) <= 0.25 for x in r), "DISAGREES"),
    Check("E6c", "experiments.md E6", "input CPs, occupancy sampling: f6 keeps 7 Gb/s",
          "f6 over 20-100 ms >= 6.8 Gb/s of frame bytes", [Run("E6c", time="100ms")],
          lambda dbs: flow_gbps(dbs[0], "f6", 20 * MS, 100 * MS), lambda g: g >= 6.8 * 1522 / 1542, "agrees"),
    Check("E7a", "experiments.md E7", "QCN at outputs: the unicast flows get about twice the multicast flow's rate",
          "the unicast flows' mean over 2-10 ms / the multicast subflows' mean = 2 (± 25 %), the mean over seeds 1-5",
          [Run("E7a", seed=s) for s in range(1, 6)],
          lambda dbs: mean(mean(flow_gbps(db, u, 2 * MS, 10 * MS) for u in ("u1", "u2", "u3")) /
                           mean(rates_in(db, "m1", 2 * MS, 10 * MS, (1, 2, 3))) for db in dbs),
          lambda r: abs(r / 2 - 1) <= 0.25, "DISAGREES"),
    Check("E7b", "experiments.md E7", "QCN at inputs: all equal",
          "the unicast flows' mean over 2-10 ms / the multicast subflows' mean = 1 (± 15 %)", [Run("E7b")],
          lambda dbs: mean(flow_gbps(dbs[0], u, 2 * MS, 10 * MS) for u in ("u1", "u2", "u3")) /
          mean(rates_in(dbs[0], "m1", 2 * MS, 10 * MS, (1, 2, 3))), lambda r: abs(r - 1) <= 0.15, "agrees"),
    Check("E8", "experiments.md E8", "PAUSE only and arrival sampling also slow T2; occupancy sampling at inputs "
          "holds T1 near a quarter of the link and leaves T2 at full rate, on par with output CPs",
          "T2 over 2-10 ms below 80 % of the source link in E8a and E8b; in E8c and E8d T1 within 25 % of "
          "24.4 Gb/s and T2 >= 90 % of what T1 leaves of the source link", [Run(s) for s in ("E8a", "E8b", "E8c", "E8d")],
          lambda dbs: [(mean(rates_in(db, "T1", 2 * MS, 10 * MS, (1, 2))), mean(rates_in(db, "T2", 2 * MS, 10 * MS, (3, 4))))
                       for db in dbs],
          lambda m: m[0][1] < 0.8 * FULL and m[1][1] < 0.8 * FULL and
          all(t2 >= 0.9 * (FULL - t1) and abs(t1 / (FULL / 4) - 1) <= 0.25 for t1, t2 in m[2:]), "agrees"),
    Check("E9", "experiments.md E9", "receive throughput linear in the sources' load, then a shortfall before the "
          "feasible maximum (33.3 Gb/s per source)",
          "a port's mean over 0.5-1 ms: 3 x the load at 10 Gb/s (± 5 %), below 95 % of 3 x 33 at 33 Gb/s",
          [e9(10, "true", 1), e9(33, "true", 1)],
          lambda dbs: [port_mean_gbps(db, 500 * US, 1 * MS) / (3 * load * 1522 / 1542) for db, load in zip(dbs, (10, 33))],
          lambda r: abs(r[0] - 1) <= 0.05 and r[1] < 0.95, "agrees"),
    Check("E9-sync", "experiments.md E9", "the same with VOQ sync on or off (about 50 active VOQs a source "
          "overflow the 24-entry CAM)",
          "at 33 Gb/s, sync on / sync off = 1 (± 5 %) on each of seeds 1-3",
          [e9(33, sync, s) for s in (1, 2, 3) for sync in ("true", "false")],
          lambda dbs: [port_mean_gbps(on, 500 * US, 1 * MS) / port_mean_gbps(off, 500 * US, 1 * MS)
                       for on, off in zip(dbs[0::2], dbs[1::2])],
          lambda r: all(abs(x - 1) <= 0.05 for x in r), "DISAGREES"),
    Check("E10", "experiments.md E10", "full-system broadcast: throughput linear in load",
          "99G of 1522 B: the mean port over 0.5-1 ms >= 95 % of the offered 97.7 Gb/s", [Run("E10")],
          lambda dbs: mean(subflow_gbps(dbs[0], 500 * US, 1 * MS).values()), lambda g: g >= 0.95 * FULL, "agrees"),
    Check("E10-512", "experiments.md E10", "... linear for small frames too",
          "99G of 512 B: the mean port over 0.5-1 ms >= 95 % of the offered 95.3 Gb/s of frame bytes",
          [Run("E10", sets=("flow.b.frame_size=512",))],
          lambda dbs: mean(subflow_gbps(dbs[0], 500 * US, 1 * MS).values()),
          lambda g: g >= 0.95 * 99 * 512 / 532, "agrees"),
    Check("E10-jumbo", "experiments.md E10", "... jumbo frames somewhat below",
          "99G of 9022 B: the mean port over 0.5-1 ms below 97 % of the offered 98.8 Gb/s",
          [Run("E10", sets=("flow.b.frame_size=9022",))],
          lambda dbs: mean(subflow_gbps(dbs[0], 500 * US, 1 * MS).values()),
          lambda g: g < 0.97 * 99 * 9022 / 9042, "DISAGREES"),
    Check("E10-levels", "experiments.md E10", "delay rising with the surrogate levels passed",
          "99G of 1522 B: the mean delay strictly increasing from level 0 to 4", [Run("E10")],
          lambda dbs: [r[1] / 1e6 for r in rows(dbs[0], "SELECT surrogate_levels, avg(t_delivered_ps - t_created_ps) "
                                                      "FROM deliveries GROUP BY surrogate_levels ORDER BY 1")],
          lambda d: len(d) >= 2 and all(a < b for a, b in zip(d, d[1:])), "agrees"),
    Check("E11", "experiments.md E11", "zero-load CNA-to-CNA delay: the calibration table",
          "each of the six within 15 % of the published delay", [Run("E11")],
          lambda dbs: [latency_ns(dbs[0], n) / E11_PUBLISHED[n] - 1 for n in E11_PUBLISHED],
          lambda errs: all(abs(e) <= 0.15 for e in errs), "agrees", short=True),
    Check("E11-9022", "experiments.md E11", "a remote 9022 B frame takes the published extra over a local one",
          "remote - local for 9022 B = 1.7 us (± 15 %)", [Run("E11")],
          lambda dbs: (latency_ns(dbs[0], "remote_9022") - latency_ns(dbs[0], "local_9022")) / 1000,
          lambda us: abs(us / 1.7 - 1) <= 0.15, "DISAGREES", short=True),
    Check("E13", "platforms.md E13", "many-to-many with 10 % and 40 % groups: cyclic faster than OpenSM, both "
          "multicast schemes faster than unicast",
          "completion: cyclic < opensm < unicast at group 10 % and 40 % (all sources, 4 KB)",
          [Run("E13", sets=(f"ibft.group={g}", f"ibft.scheme={s}")) for g in ("10%", "40%")
           for s in ("cyclic", "opensm", "unicast")],
          lambda dbs: [total_value(db, "completion_ps") / 1e6 for db in dbs],
          lambda c: c[0] < c[1] < c[2] and c[3] < c[4] < c[5], "DISAGREES"),
    Check("E14", "platforms.md E14", "attempts per packet stay close to one with full flow control",
          "tickets per packet sent <= 1.5 (every mechanism on, 2 Gb/s offered)", [Run("E14")],
          lambda dbs: total_value(dbs[0], "tickets") / total_value(dbs[0], "packets_sent"),
          lambda a: a <= 1.5, "agrees", short=True),
    Check("E14-thrash", "platforms.md E14", "without flow control throughput peaks and then falls; with every "
          "mechanism it stays flat near saturation",
          "no flow control: 6 Gb/s offered below the best of 1, 3 and 6; every mechanism: 6 Gb/s within 10 % "
          "of the best of 3 and 6",
          [Run("E14", sets=(f"traffic.load_gbps={g}", "ring.q_adaptive=false", "ring.q=0", "ring.delayed_retry=false",
                            "ring.backoff=false")) for g in (1, 3, 6)] +
          [Run("E14", sets=(f"traffic.load_gbps={g}",)) for g in (3, 6)],
          lambda dbs: [total_value(db, "throughput_gbps") for db in dbs],
          lambda t: t[2] < max(t[:3]) and t[4] >= 0.9 * max(t[3:]), "agrees", short=True),
    Check("E14-q", "platforms.md E14", "the best fixed q depends on the group pattern (the larger the groups, the "
          "smaller)",
          "E14q at 2.5 Gb/s, q in 1, 2, 3, 4, 6, 8: the best q of 1 x 10 <= that of 3 x 5 <= that of 5 x 3, not all equal",
          [Run("E14q", sets=(f"ring.groups={g}", f"ring.q={q}")) for g in ("1x10", "3x5", "5x3") for q in E14_Q],
          best_q,
          lambda b: b[0] <= b[1] <= b[2] and b[0] < b[2], "DISAGREES", short=True),
    Check("E14-backoff", "platforms.md E14", "back-off adds a little to delayed retry",
          "6 Gb/s offered, no limit q: delayed retry with back-off >= delayed retry alone",
          [Run("E14", sets=("traffic.load_gbps=6", "ring.q_adaptive=false", "ring.q=0", f"ring.backoff={b}"))
           for b in ("true", "false")],
          lambda dbs: [total_value(db, "throughput_gbps") for db in dbs], lambda t: t[0] >= t[1], "DISAGREES",
          short=True),
    Check("E14-burst", "platforms.md E14", "under a burst smaller q does better",
          "E14burst (3 x 5): throughput with q = 2 above that with q = 8",
          [Run("E14burst", sets=(f"ring.q={q}",)) for q in (2, 8)],
          lambda dbs: [total_value(db, "throughput_gbps") for db in dbs], lambda t: t[0] > t[1], "agrees", short=True),
    Check("E14-one", "platforms.md E14", "one-to-all needs only a small q to reach saturation",
          "E14one at 5 Gb/s: q = 2 within 5 % of the best of q = 2, 4, 10, 20",
          [Run("E14one", sets=(f"ring.q={q}",)) for q in (2, 4, 10, 20)],
          lambda dbs: [total_value(db, "throughput_gbps") for db in dbs], lambda t: t[0] >= 0.95 * max(t), "agrees",
          short=True),
    Check("E12-order", "platforms.md E12", "throughput highest with 1.5 MB and no flow control, lower with 32 KB and "
          "discards, lowest with 32 KB and XOFF", "throughput: E12a > E12b > E12c",
          [Run("E12a"), Run("E12b"), Run("E12c")], lambda dbs: [backplane(db)["throughput_gbps"] for db in dbs],
          lambda t: t[0] > t[1] > t[2], "agrees", short=True),
    Check("E12-latency", "platforms.md E12", "latency with 1.5 MB and no flow control tens of times that of either "
          "32 KB case", "mean latency: E12a >= 10 x E12b and >= 10 x E12c",
          [Run("E12a"), Run("E12b"), Run("E12c")], lambda dbs: [backplane(db)["latency_mean_us"] for db in dbs],
          lambda l: l[0] >= 10 * l[1] and l[0] >= 10 * l[2], "agrees", short=True),
    Check("E12-sweep", "platforms.md E12", "over the threshold sweep latency, memory used and throughput rise with "
          "the threshold while the PAUSE rate falls; PAUSE costs a small share of a link",
          "1.5 MB, High 4, 16, 64, 256 KB: each of the four strictly monotonic; the PAUSE share below 5 %",
          [Run("E12a", sets=("backplane.pause=true", f"backplane.xoff={h}")) for h in ("4KB", "16KB", "64KB", "256KB")],
          lambda dbs: columns_of([backplane(db) for db in dbs], ("latency_mean_us", "max_memory_bytes",
                                                                  "throughput_gbps", "pause_per_s", "pause_share")),
          lambda m: all(a < b for k in range(3) for a, b in zip(m[k], m[k][1:])) and
          all(a > b for a, b in zip(m[3], m[3][1:])) and max(m[4]) < 0.05, "agrees", short=True),
    Check("E12-same", "platforms.md E12", "1.5 MB with High = 16 KB behaves like 32 KB with High = 16 KB",
          "throughput and mean latency within 5 %", [Run("E12a", sets=("backplane.pause=true", "backplane.xoff=16KB")),
                                                     Run("E12c")],
          lambda dbs: [a / b for a, b in columns_of([backplane(db) for db in dbs],
                                                    ("throughput_gbps", "latency_mean_us"))],
          lambda r: all(abs(x - 1) <= 0.05 for x in r), "agrees", short=True),
    Check("E14rings", "platforms.md E14", "on several rings, throughput stays stable with bridge flow control",
          "Fig. 9 (b) at 3 Gb/s offered: with bridge flow control at least 90 % of the throughput without",
          [Run("E14rings", sets=("traffic.load_gbps=3", f"ring.bridge_fc={fc}")) for fc in ("true", "false")],
          lambda dbs: [total_value(db, "throughput_gbps") for db in dbs],
          lambda t: t[0] >= 0.9 * t[1], "agrees", short=True),
    Check("E14rings-4", "platforms.md E14", "... and at the highest load of Fig. 9",
          "Fig. 9 (b) at 4 Gb/s offered, the mean over seeds 1-3: with bridge flow control at least 90 % of the "
          "throughput without",
          [Run("E14rings", seed=s, sets=("traffic.load_gbps=4", f"ring.bridge_fc={fc}"))
           for fc in ("true", "false") for s in (1, 2, 3)],
          lambda dbs: [mean(total_value(db, "throughput_gbps") for db in dbs[:3]),
                       mean(total_value(db, "throughput_gbps") for db in dbs[3:])],
          lambda t: t[0] >= 0.9 * t[1], "DISAGREES", short=True),
    Check("E12", "platforms.md E12", "802.3x PAUSE in a small shared memory: no frame discarded",
          "0 discards with PAUSE (32 KB memory), some without", [Run("E12c", time="20ms"),
                                                                 Run("E12c", time="20ms", sets=("backplane.pause=false",))],
          lambda dbs: (scalar(dbs[0], "SELECT count(*) FROM drops"), scalar(dbs[1], "SELECT count(*) FROM drops")),
          lambda d: d[0] == 0 and d[1] > 0, "agrees", short=True),
]


PLATFORM_PREFIXES = {"ring.": "ring", "ibft.": "ibft", "backplane.": "backplane"}


def key_platform(key):
    """The platform a key belongs to, by its prefix (every other key is the fabric's)."""
    return next((p for prefix, p in PLATFORM_PREFIXES.items() if key.startswith(prefix)), "fabric")


def study_platforms(binary):
    """Each shipped study's platform, from fabricsim --list-studies."""
    p = subprocess.run([binary, "--list-studies"], capture_output=True, text=True)
    if p.returncode != 0:
        raise ReportError(f"fabricsim --list-studies failed (exit {p.returncode})")
    return {line.split("\t")[0]: line.split("\t")[1] for line in p.stdout.splitlines() if line.count("\t") >= 2}


def run_all(binary, checks, scratch, jobs, trial=()):
    """Every run the checks read, once each; `trial` (KEY=VALUE, a calibration
    tried) is added to the runs of the studies on the key's platform."""
    runs = {}
    for c in checks:
        for r in c.runs:
            runs.setdefault(r.key(), r)
    platforms = study_platforms(binary) if trial else {}
    dbs = {}

    def one(item):
        key, r = item
        db = os.path.join(scratch, f"run{len(key[0])}_{abs(hash(key))}.db")
        if os.path.exists(db):
            os.remove(db)
        extra = [s for s in trial if platforms.get(r.study) == key_platform(s.split("=", 1)[0])]
        p = subprocess.run(r.command(binary, db) + [a for s in extra for a in ("--set", s)], capture_output=True,
                           text=True)
        if p.returncode != 0:
            last = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
            tried = "".join(f" --set {s}" for s in extra)
            raise ReportError(f"a run failed (exit {p.returncode}): fabricsim {r.text()}{tried}: {last}")
        return key, db

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for key, db in pool.map(one, runs.items()):
            dbs[key] = db
    return dbs


def show(value):
    if isinstance(value, (list, tuple)):
        return "; ".join(f"({fmt(v)})" if isinstance(v, (list, tuple)) else fmt([v]) for v in value)
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def report(checks, dbs, out, pages=None):
    changed = 0
    table_rows = []
    for c in checks:
        measured = c.measure([dbs[r.key()] for r in c.runs])
        verdict = "agrees" if c.holds(measured) else "DISAGREES"
        mark = verdict if verdict == c.known else f"{verdict} (CHANGED: was {c.known})"
        changed += verdict != c.known
        table_rows.append([c.id, c.behaviour, c.expected, show(measured), mark])
    out.write(table(fidelity_pages.HEADER, table_rows) + "\n")
    agree = sum(1 for r in table_rows if r[4].startswith("agrees"))
    out.write(f"\n{len(checks)} checks: {agree} agree, {len(checks) - agree} disagree; {changed} changed\n")
    if pages:
        when = datetime.date.today().isoformat()
        written, left = fidelity_pages.update(pages, [c.id for c in CHECKS], {r[0]: r for r in table_rows}, when)
        out.write(f"pages: {', '.join(written) or 'none'} written" +
                  (f"; {', '.join(left)} left (not all their checks ran)" if left else "") + "\n")
    return 1 if changed else 0


def parse_args(argv):
    p = tool.Parser(prog="fidelity", description=__doc__.split("\n\n")[0])
    p.add_argument("binary", help="the fabricsim binary")
    p.add_argument("--short", action="store_true", help="only the checks whose runs take seconds (CI)")
    p.add_argument("--check", action="append", default=[], metavar="ID", help="only this check (may repeat)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at once")
    p.add_argument("--keep", help="keep the runs' databases in this directory")
    p.add_argument("--pages", metavar="DIR", help="rewrite the checks' tables in the study pages of DIR "
                                                  "(docs/studies; analysis/fidelity_pages.py)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="trial",
                   help="a calibration to try: the key set in every run of a study on its platform (ring.*, ibft.*, "
                        "backplane.*, else the fabric's); may repeat")
    args = p.parse_args(argv)
    for s in args.trial:
        if "=" not in s or not s.split("=", 1)[0]:
            raise ReportError(f"--set {s}: not KEY=VALUE")
    known = {c.id for c in CHECKS}
    for c in args.check:
        if c not in known:
            raise ReportError(f"--check {c}: not a check (the checks: {', '.join(sorted(known))})")
    args.binary = tool.fabricsim_binary(args.binary)
    return args


def main(argv=None):
    def body():
        args = parse_args(sys.argv[1:] if argv is None else argv)
        checks = [c for c in CHECKS if (not args.check or c.id in args.check) and (c.short or not args.short)]
        with tool.scratch_dir(args.keep, "fidelity-") as scratch:
            try:
                return report(checks, run_all(args.binary, checks, scratch, args.jobs, args.trial), sys.stdout,
                              args.pages)
            except ReportError as e:
                print(f"fidelity: {e}", file=sys.stderr)
                return 1  # a run failed
    return tool.run("fidelity", body)
