"""The target database's side of a sweep: the schema (db/schema.sql, the
only copy), the sweep's row, which points are merged or failed, and the
merge of one point's run: whole or not at all (one transaction), and once
(a point already merged is left as it is)."""
import os
import sqlite3

from fabricpy import lock_wait, schema_versions

_SCHEMA = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "db", "schema.sql")
_NOT_MERGED = {"meta", "run_owners", "sweeps", "sweep_runs", "sweep_values", "sweep_failures", "searches",
               "search_sweeps", "search_trials", "search_figures"}
LOCK_WAIT_SECONDS = 600


def connect(path, prog="fabricsim-sweep"):
    """The target database for writing; waits for another writer's lock up
    to LOCK_WAIT_SECONDS, saying after a second for whom (fabricpy/lock_wait.py)."""
    conn = lock_wait.connect(path, LOCK_WAIT_SECONDS, prog, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = OFF")
    return conn


def ensure_schema(conn):
    """A new file gets the schema; an existing one must be fabricsim's, of
    this version (the sweep tables are added to it if it lacks them)."""
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    if tables:
        meta = dict(conn.execute("SELECT key, value FROM meta")) if "meta" in tables else {}
        if meta.get("schema") != "fabricsim":
            raise ValueError("not a fabricsim database")
        version = meta.get("schema_version")
        if version != schema_versions.current() and version not in schema_versions.older():
            raise ValueError(f"fabricsim schema version {version}; this is version {schema_versions.current()} "
                             f"(and brings versions {', '.join(schema_versions.older())} up to it)")
        schema_versions.migrate(conn)  # as fabricsim does (db/migrations.sql)
    with open(_SCHEMA) as f:
        conn.executescript(f.read())


def identity_row(conn, table, id_column, identity, more=None):
    """The id of the row of `table` whose columns hold `identity` ({column:
    value}, the table's UNIQUE columns), made on first use with the columns
    `more` too: the same identity is the same row, and a rerun resumes it."""
    columns = {**identity, **(more or {})}
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"INSERT OR IGNORE INTO {table}({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                     list(columns.values()))
        row = conn.execute(f"SELECT {id_column} FROM {table} WHERE " + " AND ".join(f"{c} = ?" for c in identity),
                           list(identity.values())).fetchone()
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return row[0]


def sweep_id(conn, sweep):
    """The sweep's row, made on first use: the same study, definition and
    shared options are the same sweep (resuming it)."""
    return identity_row(conn, "sweeps", "sweep_id",
                        {"study": sweep.study, "definition": sweep.definition, "base": sweep.base_text()},
                        {"points": len(sweep.points)})


def existing_sweep_id(db, sweep):
    """The sweep's id in the database `db` if it holds this sweep already,
    else None; reads only (for --dry-run)."""
    if not os.path.exists(db):
        return None
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT sweep_id FROM sweeps WHERE study = ? AND definition = ? AND base = ?",
                               (sweep.study, sweep.definition, sweep.base_text())).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def merged_keys(conn, sid):
    return {r[0] for r in conn.execute("SELECT point_key FROM sweep_runs WHERE sweep_id = ?", (sid,))}


def failures(conn, sid):
    return {r[0]: (r[1], r[2]) for r in
            conn.execute("SELECT point_key, exit_status, output_tail FROM sweep_failures WHERE sweep_id = ?", (sid,))}


def record_failure(conn, sid, point, exit_status, output_tail):
    conn.execute("INSERT OR REPLACE INTO sweep_failures(sweep_id, point, point_key, exit_status, output_tail) "
                 "VALUES (?, ?, ?, ?, ?)", (sid, point.number, point.key, exit_status, output_tail))


def _tables_with_runs(conn, schema):
    names = [r[0] for r in conn.execute(f"SELECT name FROM {schema}.sqlite_schema WHERE type = 'table'")]
    out = []
    for name in names:
        if name in _NOT_MERGED:
            continue
        columns = [r[1] for r in conn.execute(f"PRAGMA {schema}.table_info({name})")]
        if "run_id" in columns:
            out.append((name, columns))
    return out


def merge_point(conn, sid, point, point_db):
    """Copies the one finished run of `point_db` into the target with the
    next run id, and records it as the point's run. Returns the run id (the
    earlier one when the point was merged already)."""
    conn.execute("ATTACH DATABASE ? AS pt", (point_db,))
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute("SELECT run_id FROM sweep_runs WHERE sweep_id = ? AND point_key = ?",
                               (sid, point.key)).fetchone()
            if row:
                conn.execute("ROLLBACK")
                return row[0]
            version = conn.execute("SELECT value FROM pt.meta WHERE key = 'schema_version'").fetchone()[0]
            if version != schema_versions.current():
                raise ValueError(f"{point_db} has schema version {version}, this sweep tool writes version "
                                 f"{schema_versions.current()}: the fabricsim it ran (--fabricsim) is of another "
                                 "version than the tool; build it from this tree")
            runs = conn.execute("SELECT run_id, status FROM pt.runs").fetchall()
            if len(runs) != 1 or runs[0][1] != "done":
                raise ValueError(f"{point_db}: expected one finished run, found {runs}")
            old = runs[0][0]
            new = conn.execute("SELECT COALESCE(MAX(run_id), 0) + 1 FROM main.runs").fetchone()[0]
            for table, columns in _tables_with_runs(conn, "pt"):
                names = ", ".join(columns)
                picked = ", ".join("?" if c == "run_id" else c for c in columns)
                conn.execute(f"INSERT INTO main.{table} ({names}) SELECT {picked} FROM pt.{table} WHERE run_id = ? "
                             "ORDER BY rowid",  # the rows in the order the run wrote them
                             (new, old))
            # The metric definitions of the fabricsim that ran the point (the file's are the latest).
            conn.execute("INSERT OR REPLACE INTO main.metrics SELECT * FROM pt.metrics")
            conn.execute("INSERT INTO sweep_runs(sweep_id, point, point_key, run_id) VALUES (?, ?, ?, ?)",
                         (sid, point.number, point.key, new))
            conn.executemany("INSERT INTO sweep_values(run_id, key, value) VALUES (?, ?, ?)",
                             [(new, k, v) for k, v in point.values()])
            conn.execute("DELETE FROM sweep_failures WHERE sweep_id = ? AND point_key = ?", (sid, point.key))
            conn.execute("COMMIT")
            return new
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    finally:
        conn.execute("DETACH DATABASE pt")
