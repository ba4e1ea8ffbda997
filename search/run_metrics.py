"""The figures a search optimises or constrains, each computed from one
run of the database: a named run metric below, an end-of-run total of the
metric catalog (table metrics, kind 'total', summed over its entities), or
a numeric key of the run (run_params.number: minimize leaf.cache.entries).
Each has a unit and a definition here or in the catalog, once."""
import math
import sqlite3
from dataclasses import dataclass

from fabricpy.rates import WIRE_OVERHEAD_BYTES, frame_share, gbps, warmup_ps


@dataclass(frozen=True)
class RunMetric:
    name: str
    unit: str
    meaning: str
    compute: object  # (conn, run_id, sim_time_ps) -> float


class FigureError(Exception):
    """A figure the run cannot give; the message is for the user."""


ETHERNET_PLATFORMS = ("fabric", "backplane")


def _start(sim_time_ps, warmup):
    """Where a figure starts: --warmup if given, else fabricpy.rates.warmup_ps's rule."""
    if warmup is not None and warmup >= sim_time_ps:
        raise FigureError(f"--warmup {warmup} ps: the runs are {sim_time_ps} ps long; a warm-up ends before the "
                          "run does")
    return warmup_ps(sim_time_ps, warmup)


def _subflow_rates(conn, run_id, sim_time_ps, warmup, wire):
    """Each configured subflow's mean receive rate from the warm-up on
    (--warmup, else fabricpy.rates.warmup_ps: 0.5 ms of runs of 1 ms or
    more), 0 for one that received nothing: sweep-table's cells. In frame
    bytes, or with `wire` on the wire (each frame's preamble and gap too).
    Without a warm-up the subflow totals give it, so a run recorded with
    --record summary will do."""
    start = _start(sim_time_ps, warmup)
    if wire:
        (platform,) = conn.execute("SELECT platform FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if platform not in ETHERNET_PLATFORMS:
            raise FigureError(f"run {run_id}: a wire rate counts Ethernet's preamble and gap, and platform "
                              f"'{platform}' is not Ethernet ({', '.join(ETHERNET_PLATFORMS)} are)")
    if start == 0:
        sql, args = ("SELECT flow_id, dst_port, sum(bytes), sum(frames) FROM subflow_summary WHERE run_id = ? "
                     "GROUP BY 1, 2", (run_id,))
    else:
        (level,) = conn.execute("SELECT log_level FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if level != "frames":
            raise FigureError(f"run {run_id}: a subflow's rate after a warm-up needs every delivery: --record frames")
        sql = ("SELECT flow_id, dst_port, sum(bytes), count(*) FROM deliveries WHERE run_id = ? AND t_delivered_ps >= ? "
               "GROUP BY 1, 2")
        args = (run_id, start)
    received = {(f, d): b + (WIRE_OVERHEAD_BYTES * n if wire else 0) for f, d, b, n in conn.execute(sql, args)}
    subflows = conn.execute("SELECT flow_id, dst_port FROM flow_dests WHERE run_id = ?", (run_id,)).fetchall()
    return [gbps(received.get(tuple(s), 0), sim_time_ps - start) for s in subflows]


def _subflow_rate(summary, wire):
    def compute(conn, run_id, sim_time_ps, warmup):
        rates = _subflow_rates(conn, run_id, sim_time_ps, warmup, wire)
        return summary(rates) if rates else math.nan
    return compute


def _after(run_id, sim_time_ps, warmup):
    """The deliveries' condition from the warm-up on, and its argument."""
    return "run_id = ? AND t_delivered_ps >= ?", (run_id, _start(sim_time_ps, warmup))


def _latency_percentile_ns(percent):
    def compute(conn, run_id, sim_time_ps, warmup):
        where, args = _after(run_id, sim_time_ps, warmup)
        (n,) = conn.execute(f"SELECT count(*) FROM deliveries WHERE {where}", args).fetchone()
        if n == 0:
            return math.nan
        row = conn.execute(f"SELECT t_delivered_ps - t_created_ps FROM deliveries WHERE {where} ORDER BY 1 "
                           "LIMIT 1 OFFSET ?", (*args, min(n - 1, math.ceil(n * percent / 100) - 1))).fetchone()
        return row[0] / 1000
    return compute


def _latency_mean_ns(conn, run_id, sim_time_ps, warmup):
    where, args = _after(run_id, sim_time_ps, warmup)
    (mean,) = conn.execute(f"SELECT avg(t_delivered_ps - t_created_ps) FROM deliveries WHERE {where}",
                           args).fetchone()
    return mean / 1000 if mean is not None else math.nan


def _drops(conn, run_id, sim_time_ps, warmup):
    return float(conn.execute("SELECT count(*) FROM drops WHERE run_id = ? AND t_ps >= ?",
                              (run_id, _start(sim_time_ps, warmup))).fetchone()[0])


def _mean(values):
    return sum(values) / len(values)


FROM_WARMUP = "from the warm-up on (--warmup; else 0.5 ms of runs of 1 ms or more, else none)"
RUN_METRICS = {m.name: m for m in (
    RunMetric("min_subflow_gbps", "Gb/s", "the lowest subflow's mean receive rate in frame bytes (no preamble or "
              f"gap; every configured (flow, destination)) {FROM_WARMUP}; the same as min_subflow_frame_gbps",
              _subflow_rate(min, wire=False)),
    RunMetric("min_subflow_frame_gbps", "Gb/s", "the lowest subflow's mean receive rate in frame bytes "
              f"{FROM_WARMUP}: at most the line rate x frame / (frame + 20 B)", _subflow_rate(min, wire=False)),
    RunMetric("min_subflow_wire_gbps", "Gb/s", "the lowest subflow's mean receive rate on the wire (each frame's "
              f"bytes, preamble and gap; Ethernet platforms) {FROM_WARMUP}: at most the line rate",
              _subflow_rate(min, wire=True)),
    RunMetric("mean_subflow_gbps", "Gb/s", f"the mean over subflows of the receive rate in frame bytes {FROM_WARMUP}; "
              "the same as mean_subflow_frame_gbps", _subflow_rate(_mean, wire=False)),
    RunMetric("mean_subflow_frame_gbps", "Gb/s", f"the mean over subflows of the receive rate in frame bytes "
              f"{FROM_WARMUP}", _subflow_rate(_mean, wire=False)),
    RunMetric("mean_subflow_wire_gbps", "Gb/s", f"the mean over subflows of the receive rate on the wire "
              f"{FROM_WARMUP}", _subflow_rate(_mean, wire=True)),
    RunMetric("latency_mean_ns", "ns", "mean creation-to-delivery latency of every copy delivered from the warm-up "
              "on (--record frames)", _latency_mean_ns),
    RunMetric("latency_p99_ns", "ns", "99th percentile of that latency (--record frames)",
              _latency_percentile_ns(99)),
    RunMetric("latency_p999_ns", "ns", "99.9th percentile of that latency (--record frames)",
              _latency_percentile_ns(99.9)),
    RunMetric("drops", "drops", "frames and copies dropped from the warm-up on (rows of drops; --record frames)",
              _drops),
)}
# The run metrics a run recorded with --record summary gives (from its subflow totals, with no warm-up).
SUMMARY_METRICS = tuple(n for n in RUN_METRICS if "subflow" in n)


LINE_RATE_KEYS = {"fabric": "topology.user_port_gbps", "backplane": "backplane.link_gbps"}


def ceiling(conn, name, run_id):
    """The most a subflow rate figure can be for this run's traffic: the
    receiving ports' line rate, less each frame's preamble and gap in frame
    bytes, and no more than a flow offers. (value, how it follows), or None
    for another figure or a run whose frames follow a distribution."""
    if "subflow" not in name or name not in RUN_METRICS:
        return None
    (platform,) = conn.execute("SELECT platform FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    line = conn.execute("SELECT number FROM run_params WHERE run_id = ? AND key = ?",
                        (run_id, LINE_RATE_KEYS.get(platform, ""))).fetchone()
    flows = conn.execute("SELECT f.frame_bytes, f.offered_gbps FROM flow_dests AS d JOIN flows AS f ON "
                         "f.run_id = d.run_id AND f.flow_id = d.flow_id WHERE d.run_id = ?", (run_id,)).fetchall()
    if line is None or line[0] is None or not flows or any(size is None for size, _ in flows):
        return None
    wire = "_wire_" in name
    rates = [min(offered / frame_share(size) if wire else offered, line[0] if wire else line[0] * frame_share(size))
             for size, offered in flows]
    value = min(rates) if name.startswith("min_") else _mean(rates)
    sizes = sorted({size for size, _ in flows})
    how = (f"the line rate {line[0]:g} Gb/s" if wire else
           f"the line rate {line[0]:g} Gb/s x frame / (frame + {WIRE_OVERHEAD_BYTES} B) at "
           f"{', '.join(map(str, sizes))} B frames")
    return value, how + ", and no more than each flow offers"


def wire_variant_hint(name):
    """What to constrain instead of a frame-byte rate that cannot reach its bound."""
    if "_wire_" in name:
        return "a shorter --warmup, or a lower bound"
    wire = name.replace("_frame_gbps", "_gbps").replace("_gbps", "_wire_gbps")
    return f"{wire} counts the wire (preamble and gap), up to the line rate"


def catalog_totals(conn):
    """{name: unit} of the end-of-run totals the file's metrics table defines
    (a family such as link_messages_<kind> by its members' pattern)."""
    try:
        return dict(conn.execute("SELECT name, unit FROM metrics WHERE kind = 'total'"))
    except sqlite3.Error:
        return {}


def value(conn, name, run_id, sim_time_ps, warmup=None):
    """The figure `name` of a run: a run metric (from `warmup` ps on, else
    its default), a catalog total (summed over its entities; 0 when the run
    has no row, as a missing total is 0; a total covers the whole run), or a
    numeric key's value; None when the run has no such figure."""
    if name in RUN_METRICS:
        return RUN_METRICS[name].compute(conn, run_id, sim_time_ps, warmup)
    row = conn.execute("SELECT number FROM run_params WHERE run_id = ? AND key = ?", (run_id, name)).fetchone()
    if row is not None:
        return row[0]
    if name in catalog_totals(conn):
        (total,) = conn.execute("SELECT coalesce(sum(value), 0) FROM totals WHERE run_id = ? AND metric = ?",
                                (run_id, name)).fetchone()
        return total
    return None


def unit(conn, name, key_units):
    if name in RUN_METRICS:
        return RUN_METRICS[name].unit
    if name in key_units:
        return key_units[name]
    return catalog_totals(conn).get(name, "")
