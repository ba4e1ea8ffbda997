"""Opening a fabricsim database read-only and loading one run's data.

Every problem a user can cause (wrong file, unknown run, a run still being
written) raises ReportError with a message that says what to do; cli.py
turns it into exit status 2.
"""
import os
import sqlite3
from dataclasses import dataclass, field

import numpy as np

SCHEMA_VERSION = "2"
_FETCH_ROWS = 1 << 18


class ReportError(Exception):
    """Bad input: the message is for the user; exit status 2."""


def open_database(path):
    """A read-only connection to a fabricsim database at `path`."""
    if not os.path.exists(path):
        raise ReportError(f"'{path}' does not exist")
    if os.path.isdir(path):
        raise ReportError(f"'{path}' is a directory, not a database file")
    with open(path, "rb") as f:
        head = f.read(16)
    if head != b"SQLite format 3\x00":
        raise ReportError(f"'{path}' is not an SQLite database")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    except sqlite3.Error as e:
        raise ReportError(f"'{path}' cannot be read as SQLite: {e}") from None
    if "meta" not in tables:
        raise ReportError(f"'{path}' is not a fabricsim database (no 'meta' table; another tool's file?)")
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    if meta.get("schema") != "fabricsim":
        raise ReportError(f"'{path}' is not a fabricsim database (meta 'schema' is {meta.get('schema')!r})")
    if meta.get("schema_version") != SCHEMA_VERSION:
        raise ReportError(f"'{path}' has fabricsim schema version {meta.get('schema_version')!r}; this "
                          f"fabric-report reads version {SCHEMA_VERSION} (re-run the study with this fabricsim)")
    conn.execute("PRAGMA cache_size = -131072")
    conn.execute("PRAGMA temp_store = MEMORY")
    return conn


def run_ids(conn):
    return [r[0] for r in conn.execute("SELECT run_id FROM runs ORDER BY run_id")]


def _config_dict(text):
    config = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            config[key.strip()] = value.strip()
    return config


@dataclass
class Deliveries:
    """One entry per delivered copy, as parallel arrays."""
    subflow: np.ndarray   # index into RunData.subflows
    t_ps: np.ndarray      # delivery time
    bytes: np.ndarray
    latency_ps: np.ndarray
    levels: np.ndarray    # surrogate levels

    def __len__(self):
        return len(self.t_ps)


@dataclass
class RunData:
    run_id: int
    study: str
    status: str
    seed: int
    sim_time_ps: int
    wall_seconds: float
    log_level: str
    model_version: str
    started_at: str
    config: dict
    flows: dict                      # flow_id -> row dict
    subflows: list                   # [(flow_id, dst_port)], sorted
    deliveries: Deliveries = None    # None for 'summary' runs
    summary: list = field(default_factory=list)  # subflow_summary rows (dicts)
    user_ports: int = 0
    leaves: int = 0

    def flow_name(self, flow_id):
        flow = self.flows.get(flow_id)
        return flow["name"] if flow else f"flow {flow_id}"

    def subflow_label(self, i):
        flow_id, dst = self.subflows[i]
        return f"{self.flow_name(flow_id)} \u2192 port {dst}"

    @property
    def frames_recorded(self):
        return self.log_level == "frames"


def _rows_as_dicts(cursor):
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor]


def load_run(conn, run_id, allow_running=False):
    row = conn.execute("SELECT run_id, study, status, seed, sim_time_ps, wall_seconds, log_level, model_version, "
                       "started_at, config FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    if row is None:
        ids = run_ids(conn)
        have = f"runs {ids[0]} to {ids[-1]}" if ids else "no runs"
        raise ReportError(f"run {run_id} does not exist in this database (it has {have})")
    (run_id, study, status, seed, sim_time_ps, wall_seconds, log_level, model_version, started_at, config) = row
    if status == "running" and not allow_running:
        raise ReportError(f"run {run_id} is still 'running': its fabricsim has not finished writing it (if that "
                          "process was killed, the run stays so; --partial reports what was recorded)")
    if sim_time_ps is None:  # a run that never completed: use what it recorded
        sim_time_ps = conn.execute("SELECT max(t) FROM (SELECT max(t_delivered_ps) AS t FROM deliveries "
                                   "WHERE run_id = ?1 UNION ALL SELECT max(t_created_ps) FROM frames "
                                   "WHERE run_id = ?1)", (run_id,)).fetchone()[0] or 0
    flows = {f["flow_id"]: f for f in _rows_as_dicts(conn.execute(
        "SELECT * FROM flows WHERE run_id = ? ORDER BY flow_id", (run_id,)))}
    dests = {tuple(r) for r in conn.execute("SELECT flow_id, dst_port FROM flow_dests WHERE run_id = ?", (run_id,))}
    data = RunData(run_id, study, status, seed, sim_time_ps, wall_seconds, log_level, model_version, started_at,
                   _config_dict(config), flows, [])
    data.user_ports, data.leaves = conn.execute(
        "SELECT count(*) FILTER (WHERE kind = 'user'), count(DISTINCT leaf_id) FROM ports WHERE run_id = ?",
        (run_id,)).fetchone()
    data.summary = _rows_as_dicts(conn.execute(
        "SELECT * FROM subflow_summary WHERE run_id = ? ORDER BY flow_id, dst_port", (run_id,)))
    dests |= {(s["flow_id"], s["dst_port"]) for s in data.summary}
    if log_level == "frames":
        data.deliveries = _load_deliveries(conn, run_id)
        for key in np.unique(data.deliveries.subflow).tolist():
            dests.add((key >> 32, key & 0xFFFFFFFF))
    data.subflows = sorted(dests)
    if data.deliveries is not None:
        data.deliveries.subflow = _subflow_index(data.subflows, data.deliveries.subflow)
    return data


def _load_deliveries(conn, run_id):
    """Deliveries in chunks, as arrays; `subflow` holds raw keys until indexed."""
    cursor = conn.execute("SELECT flow_id, dst_port, t_delivered_ps, bytes, t_delivered_ps - t_created_ps, "
                          "surrogate_levels FROM deliveries WHERE run_id = ?", (run_id,))
    chunks = []
    while True:
        rows = cursor.fetchmany(_FETCH_ROWS)
        if not rows:
            break
        chunks.append(np.array(rows, dtype=np.int64))
    table = np.concatenate(chunks) if chunks else np.zeros((0, 6), dtype=np.int64)
    keys = table[:, 0] * (1 << 32) + table[:, 1]
    return Deliveries(keys, table[:, 2].copy(), table[:, 3].astype(np.int32), table[:, 4].copy(),
                      table[:, 5].astype(np.int16))


def _subflow_index(subflows, keys):
    sorted_keys = np.array([f * (1 << 32) + d for f, d in subflows], dtype=np.int64)
    return np.searchsorted(sorted_keys, keys).astype(np.int32)
