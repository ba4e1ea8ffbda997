"""The figures a search optimises or constrains, each computed from one
run of the database: a named run metric below, an end-of-run total of the
metric catalog (table metrics, kind 'total', summed over its entities), or
a numeric key of the run (run_params.number: minimize leaf.cache.entries).
Each has a unit and a definition here or in the catalog, once."""
import math
import sqlite3
from dataclasses import dataclass

from analysis.metrics import gbps, warmup_ps


@dataclass(frozen=True)
class RunMetric:
    name: str
    unit: str
    meaning: str
    compute: object  # (conn, run_id, sim_time_ps) -> float


class FigureError(Exception):
    """A figure the run cannot give; the message is for the user."""


def _subflow_rates(conn, run_id, sim_time_ps):
    """Each configured subflow's mean receive rate after the warm-up
    (analysis.metrics.warmup_ps: 0.5 ms of runs of 1 ms or more), 0 for one
    that received nothing: sweep-table's cells. Without a warm-up the
    subflow totals give it, so a run recorded with --record summary will do."""
    start = warmup_ps(sim_time_ps)
    if start == 0:
        sql, args = "SELECT flow_id, dst_port, sum(bytes) FROM subflow_summary WHERE run_id = ? GROUP BY 1, 2", (run_id,)
    else:
        (level,) = conn.execute("SELECT log_level FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if level != "frames":
            raise FigureError(f"run {run_id}: a subflow's rate after the warm-up of a run of 1 ms or more needs "
                              "every delivery: --record frames")
        sql = ("SELECT flow_id, dst_port, sum(bytes) FROM deliveries WHERE run_id = ? AND t_delivered_ps >= ? "
               "GROUP BY 1, 2")
        args = (run_id, start)
    received = {(f, d): b for f, d, b in conn.execute(sql, args)}
    subflows = conn.execute("SELECT flow_id, dst_port FROM flow_dests WHERE run_id = ?", (run_id,)).fetchall()
    return [gbps(received.get(tuple(s), 0), sim_time_ps - start) for s in subflows]


def _min_subflow_gbps(conn, run_id, sim_time_ps):
    rates = _subflow_rates(conn, run_id, sim_time_ps)
    return min(rates) if rates else math.nan


def _mean_subflow_gbps(conn, run_id, sim_time_ps):
    rates = _subflow_rates(conn, run_id, sim_time_ps)
    return sum(rates) / len(rates) if rates else math.nan


def _latency_percentile_ns(percent):
    def compute(conn, run_id, _sim_time_ps):
        (n,) = conn.execute("SELECT count(*) FROM deliveries WHERE run_id = ?", (run_id,)).fetchone()
        if n == 0:
            return math.nan
        row = conn.execute("SELECT t_delivered_ps - t_created_ps FROM deliveries WHERE run_id = ? ORDER BY 1 "
                           "LIMIT 1 OFFSET ?", (run_id, min(n - 1, math.ceil(n * percent / 100) - 1))).fetchone()
        return row[0] / 1000
    return compute


def _latency_mean_ns(conn, run_id, _sim_time_ps):
    (mean,) = conn.execute("SELECT avg(t_delivered_ps - t_created_ps) FROM deliveries WHERE run_id = ?",
                           (run_id,)).fetchone()
    return mean / 1000 if mean is not None else math.nan


def _drops(conn, run_id, _sim_time_ps):
    return float(conn.execute("SELECT count(*) FROM drops WHERE run_id = ?", (run_id,)).fetchone()[0])


RUN_METRICS = {m.name: m for m in (
    RunMetric("min_subflow_gbps", "Gb/s", "the lowest subflow's mean receive rate after the warm-up (every "
              "configured (flow, destination); 0.5 ms of runs of 1 ms or more, else none)", _min_subflow_gbps),
    RunMetric("mean_subflow_gbps", "Gb/s", "the mean over subflows of the receive rate after the warm-up",
              _mean_subflow_gbps),
    RunMetric("latency_mean_ns", "ns", "mean creation-to-delivery latency of every delivered copy (--record "
              "frames)", _latency_mean_ns),
    RunMetric("latency_p99_ns", "ns", "99th percentile of that latency (--record frames)",
              _latency_percentile_ns(99)),
    RunMetric("latency_p999_ns", "ns", "99.9th percentile of that latency (--record frames)",
              _latency_percentile_ns(99.9)),
    RunMetric("drops", "drops", "frames and copies dropped (rows of drops; --record frames)", _drops),
)}


def catalog_totals(conn):
    """{name: unit} of the end-of-run totals the file's metrics table defines
    (a family such as link_messages_<kind> by its members' pattern)."""
    try:
        return dict(conn.execute("SELECT name, unit FROM metrics WHERE kind = 'total'"))
    except sqlite3.Error:
        return {}


def value(conn, name, run_id, sim_time_ps):
    """The figure `name` of a run: a run metric, a catalog total (summed over
    its entities; 0 when the run has no row, as a missing total is 0), or a
    numeric key's value; None when the run has no such figure."""
    if name in RUN_METRICS:
        return RUN_METRICS[name].compute(conn, run_id, sim_time_ps)
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
