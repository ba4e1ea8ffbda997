"""Opening a fabricsim database (read-only; a file of an older schema version
is first brought up to this one) and loading one run's data.

Every problem a user can cause (a wrong file, an unknown run) raises
ReportError with a message that says what to do; tool.py turns it into exit
status 2.
"""
import os
import pathlib
import sqlite3
import sys
from dataclasses import dataclass, field

import numpy as np

from analysis import run_owner
from fabricpy import lock_wait, schema_versions, user_schema_objects
from fabricpy.errors import ReportError

# A file of an older schema version is brought up to this one when the
# report can write to it (schema_versions, db/migrations.sql), as fabricsim
# does; one it cannot write is refused, saying so.
_FETCH_ROWS = 1 << 18


# The tables the report, the table tools and the cookbook read.
TABLES = ("meta", "runs", "entities", "ports", "flows", "flow_dests", "frames", "deliveries", "drops", "samples",
          "totals", "events", "subflow_summary")
# The schema version that added a table, for those an older file lacks until brought up.
ADDED_IN = {"entities": 5, "totals": 5}


def database_uri(path, mode):
    """The file as an SQLite URI (so that a name with '?', '#' or '%' is still its name)."""
    return pathlib.Path(path).absolute().as_uri() + f"?mode={mode}"


def _bring_up_to_date(path, version):
    """An older file, brought up to this schema version in place (as
    fabricsim would, the next time it wrote to it)."""
    try:
        writer = lock_wait.connect(path, 60, "fabric-report", mode="rw", isolation_level=None)
        try:
            schema_versions.migrate(writer)
            with open(os.path.join(schema_versions.DB, "schema.sql")) as f:
                writer.executescript(f.read())
        finally:
            writer.close()
    except user_schema_objects.UpgradeRefused as e:
        raise ReportError(str(e)) from None
    except (sqlite3.Error, OSError, ValueError) as e:
        raise ReportError(f"'{path}' has fabricsim schema version {version}, which this fabric-report brings up "
                          f"to version {schema_versions.current()} in place, but it cannot write the file ({e}); "
                          "report a writable copy") from None
    print(f"fabric-report: '{path}' brought up from schema version {version} to {schema_versions.current()}",
          file=sys.stderr)


def open_database(path):
    """A read-only connection to a fabricsim database at `path`."""
    if not os.path.exists(path):
        raise ReportError(f"'{path}' does not exist")
    if os.path.isdir(path):
        raise ReportError(f"'{path}' is a directory, not a database file")
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError as e:
        raise ReportError(f"'{path}' cannot be read ({e.strerror})") from None
    if head != b"SQLite format 3\x00":
        raise ReportError(f"'{path}' is not an SQLite database")
    try:
        conn = sqlite3.connect(database_uri(path, "ro"), uri=True)
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    except sqlite3.Error as e:
        raise ReportError(f"'{path}' cannot be read as SQLite: {e}") from None
    if "meta" not in tables:
        raise ReportError(f"'{path}' is not a fabricsim database (no 'meta' table; another tool's file?)")
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    except sqlite3.Error:
        meta = {}
    if meta.get("schema") != "fabricsim":
        raise ReportError(f"'{path}' is not a fabricsim database (meta 'schema' is {meta.get('schema')!r})")
    version = meta.get("schema_version")
    if version != schema_versions.current() and version not in schema_versions.older():
        raise ReportError(f"'{path}' has fabricsim schema version {version!r}; this fabric-report reads version "
                          f"{schema_versions.current()} and brings versions {', '.join(schema_versions.older())} "
                          "up to it (re-run the study with this fabricsim)")
    missing = [t for t in TABLES if t not in tables and int(version) >= ADDED_IN.get(t, 0)]
    if missing:
        raise ReportError(f"'{path}' is an incomplete fabricsim database (no table {', '.join(missing)})")
    if version != schema_versions.current():
        conn.close()
        _bring_up_to_date(path, version)
        return open_database(path)
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
    sim_time_recorded: bool = True   # False: sim_time_ps is the run's last record (a file of an older fabricsim)
    owner: tuple = None              # of a 'running' run: (pid, 'alive' | 'gone' | 'unknown'), see run_owner.py

    def flow_name(self, flow_id):
        flow = self.flows.get(flow_id)
        return flow["name"] if flow else f"flow {flow_id}"

    def subflow_label(self, i):
        flow_id, dst = self.subflows[i]
        return f"{self.flow_name(flow_id)} \u2192 port {dst}"

    @property
    def platform(self):
        """The system the run modelled: 'fabric' (also for runs of a
        fabricsim before the platform key) or 'backplane'."""
        return self.config.get("platform", "fabric")

    @property
    def frames_recorded(self):
        return self.log_level == "frames"


def _rows_as_dicts(cursor):
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor]


def describe_ids(ids):
    """'runs 1 to 6', 'runs 1, 3, 4' or 'no runs'."""
    if not ids:
        return "no runs"
    if ids[-1] - ids[0] + 1 == len(ids):
        return f"run {ids[0]}" if len(ids) == 1 else f"runs {ids[0]} to {ids[-1]}"
    return "runs " + ", ".join(map(str, ids[:12])) + (", ..." if len(ids) > 12 else "")


def read_run(conn, run_id):
    """A run's row, flows, ports and subflows; its deliveries are read by
    load_deliveries, so that a report checks every run before reading any."""
    row = conn.execute("SELECT run_id, study, status, seed, sim_time_ps, wall_seconds, log_level, model_version, "
                       "started_at, config FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    if row is None:
        raise ReportError(f"run {run_id} does not exist in this database (it has {describe_ids(run_ids(conn))})")
    (run_id, study, status, seed, sim_time_ps, wall_seconds, log_level, model_version, started_at, config) = row
    recorded = sim_time_ps is not None
    if not recorded:  # a run still being written by an older fabricsim: up to what it recorded
        sim_time_ps = conn.execute("SELECT max(t) FROM (SELECT max(t_delivered_ps) AS t FROM deliveries "
                                   "WHERE run_id = ?1 UNION ALL SELECT max(t_created_ps) FROM frames "
                                   "WHERE run_id = ?1)", (run_id,)).fetchone()[0] or 0
    flows = {f["flow_id"]: f for f in _rows_as_dicts(conn.execute(
        "SELECT * FROM flows WHERE run_id = ? ORDER BY flow_id", (run_id,)))}
    dests = {tuple(r) for r in conn.execute("SELECT flow_id, dst_port FROM flow_dests WHERE run_id = ?", (run_id,))}
    data = RunData(run_id, study, status, seed, sim_time_ps, wall_seconds, log_level, model_version, started_at,
                   _config_dict(config), flows, [], sim_time_recorded=recorded)
    if status == "running":
        data.owner = run_owner.owner(conn, run_id)
    data.user_ports, data.leaves = conn.execute(
        "SELECT count(*) FILTER (WHERE kind = 'user'), count(DISTINCT leaf_id) FROM ports WHERE run_id = ?",
        (run_id,)).fetchone()
    data.summary = _rows_as_dicts(conn.execute(
        "SELECT * FROM subflow_summary WHERE run_id = ? ORDER BY flow_id, dst_port", (run_id,)))
    dests |= {(s["flow_id"], s["dst_port"]) for s in data.summary}
    data.subflows = sorted(dests)
    return data


def load_deliveries(conn, run):
    """Reads a 'frames' run's deliveries into run.deliveries (subflows seen
    only there join run.subflows); run.deliveries = None frees them."""
    if not run.frames_recorded:
        return
    deliveries = _load_deliveries(conn, run.run_id)
    dests = set(run.subflows)
    for key in np.unique(deliveries.subflow).tolist():
        dests.add((key >> 32, key & 0xFFFFFFFF))
    run.subflows = sorted(dests)
    deliveries.subflow = _subflow_index(run.subflows, deliveries.subflow)
    run.deliveries = deliveries


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
